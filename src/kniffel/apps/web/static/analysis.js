// The analysis page: a position's text (pasted, or handed over by a table in the address's #s=...) is
// valued for every goal: points to come, the chance of reaching a target, and with the other players'
// sheets the chance of winning. A goal whose tables are still being solved says so with its progress,
// and the page asks again after a pause.

import { Backoff, askJson, compilingNote, preparingOf } from "/static/ask.js";
import { positionText, setUp } from "/static/build.js";
import { $, element } from "/static/dom.js";
import { lang, loadWords, nt, number, percent, t, toggleLang, translatePage } from "/static/i18n.js";

const backoff = new Backoff(1500, 15000);
let asked = 0; // the number of the newest analysis asked for: older answers are dropped

function goalTitle(goal) {
  if (goal.goal === "points") return t("Most points");
  if (goal.goal === "target") return nt("At least {n} point", "At least {n} points", goal.target);
  return t("Winning");
}

function valueText(goal, value) {
  if (goal.goal === "points") return t("{points} points to come", { points: number(value, 1) });
  if (goal.goal === "target") return t("{chance} to reach it", { chance: percent(value, 1) });
  return t("{chance} to win", { chance: percent(value, 1) });
}

function showGoals(body) {
  $("results").replaceChildren(
    ...body.goals.map((goal) => {
      const section = element("section", null, "card goal");
      section.dataset.goal = goal.goal;
      section.append(element("h3", goalTitle(goal)));
      const preparing = preparingOf(goal);
      if (preparing) {
        const progress = preparing.progress;
        const line = element("p", `${t("Solving the tables for this goal…")}${progress === null ? "" : ` ${percent(progress)}`}${compilingNote(preparing)}`, "preparing");
        const bar = document.createElement("progress");
        bar.max = 1;
        if (progress !== null) bar.value = progress;
        line.append(" ", bar);
        section.append(line);
        return section;
      }
      const list = element("ol", null, "options");
      for (const option of goal.options) {
        const li = element("li");
        li.append(element("strong", option.text), " · ", valueText(goal, option.value));
        list.append(li);
      }
      section.append(list);
      if (goal.upper_bound) {
        const limit = goal.upper_bound;
        section.append(element("p", t("Past {limit} more points the tables stop: these are the chances of {limit} more, upper bounds", { limit }), "note"));
      }
      return section;
    }),
  );
}

async function analyse(event) {
  event?.preventDefault();
  const mine = ++asked;
  backoff.reset();
  $("analysis-error").textContent = "";
  await ask(mine);
}

async function ask(mine) {
  const text = $("situation-text").value;
  const query = new URLSearchParams({ situation: text, target: $("target").value || "250", lang: lang() });
  const answer = await askJson(`/api/analysis?${query}`);
  if (mine !== asked) return;
  if (!answer.ok && !answer.retry) {
    $("analysis-error").textContent = answer.body?.message ?? "";
    return;
  }
  if (answer.ok) showGoals(answer.body);
  const preparing = answer.ok && answer.body.goals.some((goal) => goal.preparing);
  const waiting = !answer.ok || preparing;
  document.body.dataset.analysed = waiting ? "preparing" : "1";
  if (waiting) backoff.later(() => ask(mine), preparing || Boolean(answer.preparing));
}

// The rule sets in the page's language, for setting up a position by tapping.
async function loadRules() {
  try {
    const response = await fetch(`/api/rules?lang=${lang()}`);
    if (response.ok) setUp(await response.json(), lang() === "de" ? "kniffel" : "yahtzee");
  } catch {
    // offline: a position can still be pasted
  }
}

// The position set up by tapping, analysed as a pasted one (its text shown where a pasted one goes).
function analyseBuilt(event) {
  event.preventDefault();
  const text = positionText((message) => ($("analysis-error").textContent = message));
  if (text === null) return;
  $("situation-text").value = text;
  analyse();
}

async function init() {
  await loadWords();
  translatePage();
  document.body.dataset.lang = lang();
  $("lang").addEventListener("click", async () => {
    await toggleLang();
    translatePage();
    document.body.dataset.lang = lang();
    await loadRules();
    if ($("situation-text").value.trim()) analyse();
  });
  $("analyse").addEventListener("submit", analyse);
  $("build").addEventListener("submit", analyseBuilt);
  await loadRules();
  const handed = new URLSearchParams(location.hash.slice(1)).get("s");
  if (handed) {
    $("situation-text").value = handed;
    analyse();
  }
  document.body.dataset.ready = "1";
}

init();
