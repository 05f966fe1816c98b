// The home page's record (record.js): per player and rule set the figures `kniffel stats` prints, a
// small plot of the scores game by game with their running average, and a button that forgets it all.

import { $, element } from "/static/dom.js";
import { boxLabel, inLanguage, lang, nt, number, percent, t } from "/static/i18n.js";
import { clearRecord, loadRecord, summaries } from "/static/record.js";

const SVG = "http://www.w3.org/2000/svg";
let dropped = false; // said until the page is left: the record is clean by then

function svg(tag, attributes = {}, text = "") {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  if (text) el.textContent = text;
  return el;
}

// The rule set's name in the page's language, with the options that differ from its defaults.
function rulesName(summary) {
  const [, ...options] = summary.ruleset.split(" ");
  const name = Object.keys(summary.names).length ? inLanguage(summary.names) : summary.ruleset.split(" ")[0];
  return options.length ? `${name} (${options.join(", ")})` : name;
}

function figure(term, value) {
  const item = element("div");
  item.append(element("dt", term), element("dd", value));
  return item;
}

// The scores game by game (oldest left), dots joined by a line, and the running average dashed; its
// title and description say what it shows for those who do not see it.
let plots = 0;
function plot(summary) {
  const scores = summary.games.map((g) => g.score);
  const width = 320;
  const height = 110;
  const pad = 8;
  const left = 34; // room for the scale's figures
  const top = Math.max(...scores, 1);
  const low = Math.min(...scores, 0);
  const x = (i) => (scores.length === 1 ? (left + width) / 2 : left + (i * (width - left - pad)) / (scores.length - 1));
  const y = (value) => height - pad - ((value - low) * (height - 2 * pad)) / (top - low || 1);
  const running = scores.map((_, i) => scores.slice(0, i + 1).reduce((a, b) => a + b, 0) / (i + 1));
  plots += 1;
  const id = `record-plot-${plots}`;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "record-plot",
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
  });
  const title = t("Scores of {player}, oldest game first", { player: summary.player });
  const desc = t("Scores: {scores}. Running average at the end: {average}.", {
    scores: scores.join(", "),
    average: number(running[running.length - 1], 1),
  });
  chart.append(svg("title", { id: `${id}-title` }, title), svg("desc", { id: `${id}-desc` }, desc));
  for (const value of new Set([low, top])) {
    chart.append(svg("line", { x1: left, x2: width - pad, y1: y(value), y2: y(value), class: "axis" }));
    chart.append(svg("text", { x: left - 4, y: y(value), class: "scale" }, String(value)));
  }
  const line = (values, className) => svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: className });
  chart.append(line(running, "average"), line(scores, "scores"));
  summary.games.forEach((game, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(game.score), r: 3, class: "score" });
    const when = new Date(game.finished).toLocaleDateString();
    dot.append(svg("title", {}, `${when}: ${nt("{n} point", "{n} points", game.score)}`));
    chart.append(dot);
  });
  return chart;
}

function group(summary) {
  const box = element("section", "", "record-group");
  box.dataset.player = summary.player;
  box.append(element("h4", `${summary.player} · ${rulesName(summary)}`));
  const figures = element("dl", "", "figures");
  figures.append(
    figure(t("Games"), String(summary.count)),
    figure(t("Won"), String(summary.won)),
    figure(t("Average"), number(summary.average, 1)),
    figure(t("Best"), String(summary.best)),
  );
  if (summary.five) figures.append(figure(boxLabel(summary.five), String(summary.kniffels)));
  figures.append(
    figure(t("Bonus"), percent(summary.bonusRate, 0)),
    figure(t("Loss per choice"), summary.lossPerChoice === null ? "–" : number(summary.lossPerChoice, 2)),
  );
  const reviewed = nt("{reviewed} of {n} game reviewed", "{reviewed} of {n} games reviewed", summary.count, {
    reviewed: summary.reviewed,
  });
  box.append(figures, element("p", reviewed, "muted small reviewed"), plot(summary));
  if (summary.reviewed) showLevel(summary, figures);
  return box;
}

// The level a player's reviewed games match, and how it went over time, as the server works it out from
// the measured ladder (kniffel.services.proficiency); nothing is shown without a connection.
async function showLevel(summary, figures) {
  const games = summary.games.filter((g) => g.loss !== null && g.decisions).map((g) => `${g.loss}:${g.decisions}`);
  const query = new URLSearchParams({ rules: summary.games[0].rules, games: games.join(","), lang: lang() });
  let body = null;
  try {
    const response = await fetch(`/api/proficiency?${query}`);
    body = response.ok ? await response.json() : null;
  } catch {
    return;
  }
  if (!body || body.level === null) return;
  figures.append(figure(t("Level"), String(body.level)));
  const levels = body.over_time.filter((n) => n !== null);
  const line = element("p", body.text, "muted small level");
  if (levels.length > 1) line.textContent += ` ${t("Over time: {levels}", { levels: levels.join(" → ") })}`;
  figures.after(line);
}

// Draw the record into #record; `defaultsOf(rules)` gives a rule set's default options (where known).
export function showRecord(defaultsOf = () => ({})) {
  const { games, dropped: now } = loadRecord();
  dropped = dropped || now;
  const note = $("record-note");
  note.textContent = dropped ? t("Some of your record in this browser could not be read and was dropped.") : "";
  note.hidden = !dropped;
  const found = summaries(games, defaultsOf);
  plots = 0;
  $("record-list").replaceChildren(...found.map(group));
  $("record-empty").hidden = found.length > 0;
  $("clear-record").hidden = !found.length;
}

// "Clear record": after asking, forget every game this browser recorded.
export function askToClear(defaultsOf) {
  if (!window.confirm(t("Forget the record of every player in this browser? This cannot be undone."))) return;
  clearRecord();
  showRecord(defaultsOf);
  $("record-empty").focus();
}
