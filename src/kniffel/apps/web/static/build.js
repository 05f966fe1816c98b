// Setting up a position by tapping, for the analysis page: the rule set, the dice (a tap turns a die to
// the next face), the rolls left and what each box of the sheet holds (free, struck or the points it
// can hold, as the server lists them). It writes the position's text, which the page analyses as a
// pasted one (kniffel.engine.situation.Situation).

import { $, element } from "/static/dom.js";
import { boxLabel, t } from "/static/i18n.js";

const STRUCK = "-";
let rules = []; // the rule sets as /api/rules describes them
let dice = [];
let rollsLeft = 2;

function chosen() {
  return rules.find((r) => r.id === $("build-rules").value) ?? rules[0];
}

function keyOf(ruleSet, column, box) {
  return ruleSet.columns.length > 1 ? `${column.id}:${box.id}` : box.id;
}

function drawDice() {
  $("build-dice").replaceChildren(
    ...dice.map((face, i) => {
      const button = element("button", face ?? "?", "build-die");
      button.type = "button";
      button.dataset.face = String(face ?? 0);
      button.setAttribute("aria-label", t("Die {i}: {face}", { i: i + 1, face: face ?? "?" }));
      button.addEventListener("click", () => {
        dice[i] = face === null ? 1 : (face % 6) + 1;
        drawDice();
      });
      return button;
    }),
  );
}

function drawRolls() {
  const ruleSet = chosen();
  $("build-rolls").replaceChildren(
    ...Array.from({ length: ruleSet.rolls }, (_, n) => {
      const button = element("button", n, "build-roll");
      button.type = "button";
      button.setAttribute("role", "radio");
      button.setAttribute("aria-checked", n === rollsLeft ? "true" : "false");
      button.addEventListener("click", () => {
        rollsLeft = n;
        drawRolls();
      });
      return button;
    }),
  );
}

function drawSheet() {
  const ruleSet = chosen();
  const held = Object.fromEntries([...$("build-sheet").querySelectorAll("select")].map((select) => [select.dataset.key, select.value]));
  const rows = [];
  for (const column of ruleSet.columns) {
    for (const box of ruleSet.boxes) {
      const key = keyOf(ruleSet, column, box);
      const label = element("label", null, "build-box");
      const name = ruleSet.columns.length > 1 ? `${boxLabel(box)} (${column.id})` : boxLabel(box);
      const select = element("select");
      select.dataset.key = key;
      select.dataset.name = name;
      select.append(new Option(t("free"), ""), new Option(t("struck (0)"), STRUCK));
      for (const value of box.values ?? []) if (value) select.append(new Option(String(value), String(value)));
      select.value = held[key] ?? "";
      label.append(element("span", name), select);
      rows.push(label);
    }
  }
  $("build-sheet").replaceChildren(...rows);
}

// Everything anew for the rule set chosen: its dice, its rolls, its boxes.
function reset() {
  const ruleSet = chosen();
  dice = Array.from({ length: ruleSet.dice }, () => null);
  rollsLeft = ruleSet.rolls - 1;
  drawDice();
  drawRolls();
  drawSheet();
}

// The position's text, or null after saying what is missing.
export function positionText(showError) {
  if (dice.some((face) => face === null)) {
    showError(t("Tap every die to set it."));
    return null;
  }
  // in the page's language: the boxes as the sheet names them, the rolls left in its words (the
  // server reads both, kniffel.engine.situation)
  const entries = [...$("build-sheet").querySelectorAll("select")]
    .filter((select) => select.value)
    .map((select) => `${select.dataset.name}=${select.value}`);
  const sorted = [...dice].sort((a, b) => a - b).join(" ");
  const sheet = entries.join(" ") || t("empty");
  return `${chosen().id} | ${sheet} | ${sorted} | ${t("rolls left {n}", { n: rollsLeft })}`;
}

// The builder for the rule sets the server describes; the rule set the page started with first.
export function setUp(ruleSets, first) {
  rules = ruleSets;
  const select = $("build-rules");
  const before = select.value || first;
  select.replaceChildren(...rules.map((r) => new Option(r.name, r.id)));
  select.value = rules.some((r) => r.id === before) ? before : rules[0]?.id ?? "";
  if (!select.dataset.ready) {
    select.dataset.ready = "1";
    select.addEventListener("change", reset);
    reset();
  } else drawSheet(); // the language changed: the same position, its boxes' names in the new one
}
