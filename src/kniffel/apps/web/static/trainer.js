// The trainer: a series of positions that teach (today's, the same for everyone, or a new one), answered
// one by one: tap dice to hold them and keep them, or a box to fill; then the best choice, every option's
// value and what the answer cost; at the end the average loss a decision and the level it matches. The
// server finds the series (answering "preparing" meanwhile) and grades every answer
// (kniffel.apps.web.trainer); the page keeps the series and its answers.

import { Backoff, askJson, compilingNote } from "/static/ask.js";
import { $, element } from "/static/dom.js";
import { lang, loadWords, number, percent, t, toggleLang, translatePage } from "/static/i18n.js";

const backoff = new Backoff(1500, 15000);
const SHOWN = 6; // options a verdict lists (the answer's own always among them)
let series = null; // {query, exercises}
let at = 0;
let held = [];
let answers = []; // "number:action" of every answer given
let asked = 0; // the newest ask: older answers are dropped

// One part of the page at a time; the choice of a series only before one and after its end (on a phone
// the position then starts at the top of the screen).
function show(id) {
  for (const part of ["waiting", "position", "verdict", "summary"]) $(part).hidden = part !== id;
  $("choose").hidden = id !== null && id !== "summary";
  window.scrollTo(0, 0);
}

function today() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

async function loadRules() {
  const answer = await askJson(`/api/rules?lang=${lang()}`);
  if (!answer.ok) return;
  const chosen = $("rules").value || "kniffel";
  $("rules").replaceChildren(...answer.body.map((r) => new Option(r.name, r.id, r.id === chosen, r.id === chosen)));
}

async function start(daily) {
  $("choose-error").textContent = "";
  const query = new URLSearchParams({ rules: $("rules").value, goal: $("goal").value, lang: lang() });
  if (daily) query.set("daily", today());
  else query.set("seed", String(Math.floor(Math.random() * 2 ** 31)));
  series = { query, exercises: [] };
  at = 0;
  answers = [];
  backoff.reset();
  await ask(++asked);
}

async function ask(mine) {
  const answer = await askJson(`/api/trainer?${series.query}`);
  if (mine !== asked) return;
  if (answer.preparing) {
    show("waiting");
    const progress = answer.preparing.progress;
    $("waiting-text").textContent = `${t("Finding positions that teach…")}${progress === null ? "" : ` ${percent(progress)}`}${compilingNote(answer.preparing)}`;
    if (progress === null) $("waiting-bar").removeAttribute("value");
    else $("waiting-bar").value = progress;
  }
  if (answer.retry) {
    backoff.later(() => ask(mine), Boolean(answer.preparing));
    return;
  }
  if (!answer.ok) {
    show(null);
    $("choose-error").textContent = answer.body?.message ?? t("Something went wrong: try again.");
    return;
  }
  series.exercises = answer.body.exercises;
  series.query.set("seed", String(answer.body.seed));
  series.query.delete("daily");
  showPosition();
}

function exercise() {
  return series.exercises[at];
}

function showPosition() {
  const found = exercise();
  held = found.dice.map(() => false);
  $("heading").textContent = `${at + 1}/${series.exercises.length} · ${found.heading}`;
  $("question").textContent = `${found.question} ${t("Rolls left: {n}", { n: found.rolls_left })}`;
  const others = found.totals.slice(1);
  $("others").hidden = others.length === 0;
  $("others").textContent = others.length ? t("Totals: you {you}, your opponent {other}.", { you: found.totals[0], other: others[0] }) : "";
  $("keep").hidden = found.rolls_left === 0;
  $("answer-error").textContent = "";
  showDice();
  showSheet(found);
  show("position");
  document.body.dataset.trainer = `position-${at + 1}`;
}

function showDice() {
  const found = exercise();
  $("dice").replaceChildren(
    ...found.dice.map((face, i) => {
      const die = element("button", face);
      die.type = "button";
      die.setAttribute("aria-pressed", String(held[i]));
      die.setAttribute("aria-label", held[i] ? t("{face}, held", { face }) : String(face));
      die.disabled = found.rolls_left === 0;
      die.addEventListener("click", () => {
        held[i] = !held[i];
        showDice();
      });
      return die;
    }),
  );
}

function showSheet(found) {
  const head = element("tr");
  head.append(element("th", t("Box")), element("th", t("You")));
  if (found.totals.length > 1) head.append(element("th", t("Opponent")));
  const rows = [head];
  for (const row of found.rows) {
    const tr = element("tr");
    tr.append(element("td", row.label));
    const mine = element("td");
    if (row.points !== null) mine.textContent = row.points === 0 ? "–" : String(row.points);
    else if (row.pays !== null || row.strike) {
      const choose = element("button", row.pays !== null ? String(row.pays) : "0");
      choose.type = "button";
      choose.dataset.box = row.key;
      choose.setAttribute("aria-label", t("Fill {box}: {points}", { box: row.label, points: row.pays ?? 0 }));
      choose.addEventListener("click", () => give(row.pays !== null ? `score ${row.key}` : `strike ${row.key}`));
      mine.append(choose);
    }
    tr.append(mine);
    for (const other of row.others) tr.append(element("td", other === null ? "" : other === 0 ? "–" : String(other)));
    rows.push(tr);
  }
  const total = element("tr", null, "sum");
  total.append(element("td", t("Total")), ...found.totals.map((n) => element("td", n)));
  rows.push(total);
  $("sheet").replaceChildren(...rows);
}

function keepAction() {
  const kept = exercise().dice.filter((_, i) => held[i]).sort((a, b) => a - b);
  return kept.length ? `roll keep ${kept.join(" ")}` : "roll";
}

async function give(action) {
  $("answer-error").textContent = "";
  const query = new URLSearchParams(series.query);
  query.set("number", String(at + 1));
  query.set("action", action);
  query.set("lang", lang());
  const mine = ++asked;
  const answer = await askJson(`/api/trainer/answer?${query}`);
  if (mine !== asked) return;
  if (answer.retry) {
    $("answer-error").textContent = t("The trainer is busy: try again in a moment.");
    return;
  }
  if (!answer.ok) {
    $("answer-error").textContent = answer.body?.message ?? "";
    return;
  }
  answers.push(`${at + 1}:${action}`);
  showVerdict(answer.body);
}

function valueText(verdict, value) {
  if (verdict.unit === "probability") return t("{chance} to win", { chance: percent(value, 1) });
  return t("{points} points to come", { points: number(value, 2) });
}

function showVerdict(verdict) {
  $("verdict").dataset.best = verdict.best_choice ? "1" : "0";
  $("verdict-title").textContent = verdict.best_choice ? t("The best choice") : t("Not the best choice");
  $("verdict-lines").replaceChildren(...verdict.lines.map((line) => element("p", line)));
  let shown = verdict.options.slice(0, SHOWN);
  if (!shown.some((o) => o.action === verdict.chosen)) shown = [...shown, ...verdict.options.filter((o) => o.action === verdict.chosen)];
  $("verdict-options").replaceChildren(
    ...shown.map((option) => {
      const li = element("li", null, option.action === verdict.chosen ? "chosen" : "");
      li.append(element("strong", option.text), " · ", valueText(verdict, option.value));
      if (option.loss > 0.005) li.append(" ", element("span", `(−${verdict.unit === "probability" ? percent(option.loss, 1) : number(option.loss, 2)})`, "loss"));
      return li;
    }),
  );
  $("next").textContent = at + 1 < series.exercises.length ? t("Next position") : t("See how you did");
  show("verdict");
  document.body.dataset.trainer = `verdict-${at + 1}`;
  $("next").focus();
}

async function next() {
  if (at + 1 < series.exercises.length) {
    at += 1;
    showPosition();
    return;
  }
  const query = new URLSearchParams(series.query);
  query.set("answers", answers.join(";"));
  query.set("lang", lang());
  const answer = await askJson(`/api/trainer/result?${query}`);
  if (!answer.ok) {
    $("answer-error").textContent = answer.body?.message ?? "";
    return;
  }
  $("summary-best").textContent = t("Best choices: {best} of {n}.", { best: answer.body.best_choices, n: answer.body.answered });
  $("summary-figure").textContent = answer.body.text;
  show("summary");
  document.body.dataset.trainer = "done";
}

async function init() {
  await loadWords();
  translatePage();
  await loadRules();
  $("lang").addEventListener("click", async () => {
    await toggleLang();
    translatePage();
    await loadRules();
  });
  $("choose").addEventListener("submit", (event) => {
    event.preventDefault();
    start(true);
  });
  $("fresh").addEventListener("click", () => start(false));
  $("keep").addEventListener("click", () => give(keepAction()));
  $("next").addEventListener("click", next);
  $("again").addEventListener("click", () => start(false));
  document.body.dataset.ready = "1";
}

init();
