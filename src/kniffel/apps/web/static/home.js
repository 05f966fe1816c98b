// The home page: one tap starts a game against a bot or a pass-and-play game at this screen; below, a
// game of one's own: the rule set's options and the seats, then links to hand out.

import { $ } from "/static/dom.js";
import { lang, loadWords, t, toggleLang, translatePage } from "/static/i18n.js";
import { askToClear, showRecord } from "/static/recordview.js";
import { isRecord, readList } from "/static/storage.js";

const MAX_SEATS = 8;
// The server's limit of a player's name (kniffel.apps.web.service.MAX_NAME): a longer name is refused here,
// with the reason, rather than cut.
export const MAX_NAME = 24;
const NAME_KEY = "kniffel.name";
const RULES_KEY = "kniffel.rules";
const BOT_NAME = "Robo";
let ruleSets = [];

// Each rule set in plain words; the rule book's own text is one tap away (#rule-book).
function plainWords(id) {
  const words = {
    kniffel: t("The German classic: five dice, three rolls a turn, 13 boxes to fill. 63 or more in the upper part earns 35 extra."),
    yahtzee: t("The American classic: like Kniffel, and every further Yahtzee earns 100 extra."),
    yatzy: t("The Scandinavian game: 15 boxes with pairs, and only the dice that match count."),
    knoeffel: t("Two columns at once, and free throws that cost points."),
    "yatzy-deluxe": t("Six dice instead of five, and boxes for them."),
    "kniffel-3col": t("Three columns: one from the top down, one from the bottom up, one you announce."),
    "kniffel-4col": t("Four columns: top down, bottom up, announced and free."),
    "super-kniffel": t("Four long columns, 52 boxes: a game for a long evening."),
    yams: t("The French game: four columns, free, in order, in reverse and announced."),
  };
  return words[id] ?? null;
}

// The rule set people of this language usually play: Kniffel in German, Yahtzee in English.
function usualRules() {
  return lang() === "de" ? "kniffel" : "yahtzee";
}

// Why a name cannot be a player's, or null.
export function nameProblem(name) {
  const trimmed = name.trim();
  if (!trimmed) return t("Enter a name");
  const length = [...trimmed].length;
  if (length > MAX_NAME) return t("A name has at most {max} characters; this one has {n}", { max: MAX_NAME, n: length });
  return null;
}

function checkName(input, errorId) {
  const problem = nameProblem(input.value);
  input.setAttribute("aria-invalid", problem ? "true" : "false");
  $(errorId).textContent = problem ?? "";
  return problem;
}

function myName() {
  try {
    const saved = localStorage.getItem(NAME_KEY);
    if (saved && !nameProblem(saved)) return saved;
  } catch {
    // storage disabled
  }
  return "";
}

function rememberName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // storage disabled: asked again next time
  }
}

// The rule sets and their options as the server describes them, in the page's language.
async function fetchRules() {
  const response = await fetch(`/api/rules?lang=${lang()}`);
  ruleSets = await response.json();
  const select = $("rules");
  const chosen = select.value;
  select.replaceChildren(...ruleSets.map((rules) => new Option(rules.name, rules.id)));
  let saved = null;
  try {
    saved = localStorage.getItem(RULES_KEY);
  } catch {
    // storage disabled
  }
  const known = (id) => ruleSets.some((r) => r.id === id);
  // the rule set chosen on this page, else the one played last, else the usual one of the page's language
  const picked = rulesPicked ? chosen : null;
  select.value = [picked, saved, usualRules()].find((id) => id && known(id)) || ruleSets[0]?.id || "";
}

// Whether the person chose the rule set on this page (a switch of language then keeps it).
let rulesPicked = false;

// The default names of the page's language ("Player 2", "Spieler 2") by the number in them.
function defaultNames() {
  return new Map(Array.from({ length: MAX_SEATS }, (_, i) => [t("Player {n}", { n: i + 1 }), i + 1]));
}

// After a switch of language, the names the page gave in the old one, in the new one ("Player 1" becomes
// "Spieler 1"); a name a person typed stays as it is.
function renameDefaults(before) {
  for (const input of [$("my-name"), ...$("seats").querySelectorAll(".seat-name")]) {
    const n = before.get(input.value.trim());
    if (n !== undefined) input.value = t("Player {n}", { n });
  }
}

function showRules() {
  const rules = ruleSets.find((r) => r.id === $("rules").value);
  $("rules-description").textContent = rules ? rules.description : "";
  $("rules-plain").textContent = rules ? plainWords(rules.id) ?? rules.description : "";
  // The options the rule set's rule book has, behind "More options": each with its sentence in plain
  // words; the rule book's own wording and where it comes from are a tooltip away. None: no "More options".
  const box = $("options");
  const chosen = Object.fromEntries([...box.querySelectorAll("select")].map((select) => [select.name, select.value]));
  for (const el of box.querySelectorAll(".field")) el.remove();
  const options = rules ? rules.options : [];
  $("more-options").hidden = !options.length;
  for (const option of options) {
    const label = document.createElement("label");
    label.className = "field";
    label.title = option.source ? `${option.help} (${option.source})` : option.help;
    const name = document.createElement("span");
    name.textContent = option.label;
    const select = document.createElement("select");
    select.name = option.key;
    select.dataset.option = option.key;
    const value = option.values.includes(chosen[option.key]) ? chosen[option.key] : option.default;
    for (const each of option.values) select.append(new Option(option.value_labels[each] ?? each, each, each === option.default, each === value));
    const help = document.createElement("small");
    help.className = "muted";
    help.textContent = option.plain || option.help;
    label.append(name, select, help);
    box.append(label);
  }
}

// Who may sit at a seat: a person or a bot of a strength (the server's seat kinds), the levels of play
// from a newcomer (1) to the best for points (7) and to win (8) named for people.
function seatKinds() {
  const levels = [t("Newcomer"), t("Casual player"), t("Hobby player"), t("Regular"), t("Skilled player"), t("Expert"), t("Master"), t("Grandmaster")];
  return [
    ["human", t("Human")],
    ["bot", t("Bot: quick")],
    ["bot:optimal", t("Bot: strong (most points)")],
    ["bot:win", t("Bot: plays to win")],
    ...levels.map((name, i) => [`bot:${i + 1}`, t("Bot level {n}: {name}", { n: i + 1, name })]),
  ];
}

function seatRow(name, kind) {
  const li = document.createElement("li");
  const input = document.createElement("input");
  input.type = "text";
  input.value = name; // not cut to MAX_NAME: a longer name is refused with the reason
  input.addEventListener("input", () => checkName(input, "create-error"));
  input.required = true;
  input.className = "seat-name";
  input.setAttribute("aria-label", t("Name"));
  const select = document.createElement("select");
  select.className = "seat-kind";
  select.setAttribute("aria-label", t("Who plays this seat"));
  for (const [value, text] of seatKinds()) select.append(new Option(text, value, kind === value, kind === value));
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "remove";
  remove.textContent = "×";
  remove.setAttribute("aria-label", t("Remove"));
  remove.addEventListener("click", () => {
    if ($("seats").children.length > 1) li.remove();
    updateSeatButtons();
  });
  li.append(input, select, remove);
  return li;
}

function updateSeatButtons() {
  const count = $("seats").children.length;
  $("add-seat").disabled = count >= MAX_SEATS;
  $("add-bot").disabled = count >= MAX_SEATS;
  for (const button of $("seats").querySelectorAll(".remove")) button.disabled = count <= 1;
}

// A name no seat has yet: "Player 3", "Robo 2".
function freeName(base, first) {
  const taken = new Set([...$("seats").querySelectorAll(".seat-name")].map((input) => input.value.trim()));
  for (let n = first; ; n += 1) {
    const name = n === 1 && base === BOT_NAME ? base : base === BOT_NAME ? `${base} ${n}` : t("Player {n}", { n });
    if (!taken.has(name)) return name;
  }
}

// "Add player" seats a person, "Add bot" a bot.
function addSeat(kind = "human") {
  const count = $("seats").children.length;
  if (count >= MAX_SEATS) return;
  const name = kind === "human" ? freeName("", count + 1) : freeName(BOT_NAME, 1);
  $("seats").append(seatRow(name, kind));
  updateSeatButtons();
  $("seats").lastElementChild.querySelector("input").focus();
}

function request() {
  const options = {};
  for (const select of $("options").querySelectorAll("select")) options[select.dataset.option] = select.value;
  const seats = [...$("seats").children].map((li) => ({
    name: li.querySelector(".seat-name").value.trim(),
    kind: li.querySelector(".seat-kind").value,
  }));
  return { rules: $("rules").value, options, seats, hotseat: $("hotseat").checked, pad: $("pad").checked };
}

async function post(game) {
  const response = await fetch(`/api/games?lang=${lang()}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(game),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.message || response.statusText);
  return body;
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  for (const input of $("seats").querySelectorAll(".seat-name")) {
    if (checkName(input, "create-error")) return input.focus();
  }
  $("create-button").disabled = true;
  try {
    showResult(await post(request()));
  } catch (error) {
    $("create-error").textContent = error.message;
  } finally {
    $("create-button").disabled = false;
  }
}

// One tap: a game against a bot, or two players passing this screen, with the defaults of the form
// above it (the rule set's default options), straight to the table.
async function quickStart(kind) {
  const input = $("my-name");
  if (checkName(input, "name-error")) return input.focus();
  const name = input.value.trim().split(/\s+/).join(" ");
  if (!defaultNames().has(name)) rememberName(name); // a default name follows the language, not kept
  const rules = $("rules").value;
  try {
    localStorage.setItem(RULES_KEY, rules);
  } catch {
    // storage disabled
  }
  const other = kind === "bot" ? (name === BOT_NAME ? `${BOT_NAME} 2` : BOT_NAME) : t("Player {n}", { n: 2 });
  const seats = [
    { name, kind: "human" },
    { name: other === name ? t("Player {n}", { n: 3 }) : other, kind: kind === "bot" ? "bot" : "human" },
  ];
  const buttons = [$("play-bot"), $("play-pass")];
  $("quick-error").textContent = "";
  for (const button of buttons) button.disabled = true;
  try {
    const game = await post({ rules, options: {}, seats, hotseat: kind === "pass" });
    const url = kind === "pass" ? game.host_url : game.seats[0].url;
    location.assign(url);
  } catch (error) {
    $("quick-error").textContent = error.message;
    for (const button of buttons) button.disabled = false;
  }
}

function showResult(game) {
  const base = location.origin;
  const links = $("links");
  links.replaceChildren();
  const invites = [];
  const watch = { name: t("Watch link (view only)"), url: `/g/${game.id}`, watch: true };
  for (const seat of [...game.seats, watch]) {
    if (!seat.url) continue;
    if (!seat.watch) invites.push({ name: seat.name, url: base + seat.url });
    const li = document.createElement("li");
    const label = document.createElement("span");
    label.textContent = seat.name;
    const field = document.createElement("input");
    field.readOnly = true;
    field.value = base + seat.url;
    field.className = seat.watch ? "watch" : "invite";
    field.setAttribute("aria-label", seat.name);
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = t("Copy");
    copy.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
      } catch {
        document.execCommand("copy");
      }
      copy.textContent = t("Copied");
    });
    li.append(label, field, copy);
    links.append(li);
  }
  // The creator's browser remembers the links so the table can show them again, and the host's token:
  // its table may hand an absent player's seat to a bot and set a turn timer (seats.js).
  localStorage.setItem(`kniffel.invites.${game.id}`, JSON.stringify(invites));
  localStorage.setItem(`kniffel.host.${game.id}`, JSON.stringify(game.host_token));
  const firstHuman = game.seats.find((s) => s.url);
  const hotseat = $("hotseat").checked;
  // all seats at this screen (hot seat, or one human against bots): no links to send
  const oneScreen = hotseat || game.seats.filter((s) => s.url).length <= 1;
  $("links-note").hidden = oneScreen;
  $("hotseat-note").hidden = !oneScreen;
  $("open-table").href = hotseat || !firstHuman ? game.host_url : firstHuman.url;
  $("open-table").textContent = firstHuman && !hotseat ? `${t("Open the table")} (${firstHuman.name})` : t("Open the table");
  $("result").hidden = false;
  $("open-table").focus();
}

// The games this browser has opened (the table page keeps the list), newest first.
const GAMES_KEY = "kniffel.games";

// The list may come from another version of the table page, or be damaged: each entry is read as the
// table page writes it (rememberGame in table.js), and what does not fit is dropped, with a message,
// rather than leaving the list (or the page) broken. Links lead into this site only.
function readGame(entry) {
  if (!isRecord(entry) || typeof entry.id !== "string" || !entry.id || typeof entry.url !== "string") return null;
  if (entry.players !== undefined && !(Array.isArray(entry.players) && entry.players.every((p) => typeof p === "string"))) return null;
  if (entry.rules !== undefined && typeof entry.rules !== "string") return null;
  let url;
  try {
    url = new URL(entry.url, location.origin);
  } catch {
    return null;
  }
  if (url.origin !== location.origin) return null;
  return { id: entry.id, path: url.pathname + url.hash, rules: entry.rules || "Kniffel", players: entry.players || [], over: entry.over === true };
}

function savedGames() {
  const { items, dropped } = readList(GAMES_KEY, readGame);
  return { games: items, dropped };
}

let gamesDropped = false;

function showGames() {
  const { games, dropped } = savedGames();
  gamesDropped = gamesDropped || dropped; // said until the page is left: the list is clean by then
  const note = $("games-note");
  note.textContent = gamesDropped ? t("Some games this browser had saved could not be read and were dropped.") : "";
  note.hidden = !gamesDropped;
  const list = $("game-list");
  if (!games.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = t("No games yet.");
    list.replaceChildren(empty);
    return;
  }
  list.replaceChildren(
    ...games.map((game) => {
      const li = document.createElement("li");
      li.dataset.game = game.id;
      const link = document.createElement("a");
      link.href = game.path;
      link.textContent = `${game.rules}: ${game.players.join(", ")}`;
      const status = document.createElement("span");
      status.className = game.over ? "muted small" : "small playing";
      status.textContent = game.over ? t("finished") : t("playing");
      const forget = document.createElement("button");
      forget.type = "button";
      forget.className = "remove";
      forget.textContent = "×";
      forget.title = t("Forget");
      forget.setAttribute("aria-label", t("Forget game {id}", { id: link.textContent }));
      forget.addEventListener("click", () => {
        try {
          const kept = JSON.parse(localStorage.getItem(GAMES_KEY) || "[]").filter((g) => g.id !== game.id);
          localStorage.setItem(GAMES_KEY, JSON.stringify(kept));
        } catch {
          // Storage disabled: nothing was kept to forget.
        }
        showGames();
      });
      li.append(link, status, forget);
      return li;
    }),
  );
}

// A rule set's default options (the server's list of rule sets), for grouping the record's games.
function defaultsOf(id) {
  const rules = ruleSets.find((r) => r.id === id);
  return Object.fromEntries((rules ? rules.options : []).map((option) => [option.key, option.default]));
}

async function init() {
  await loadWords();
  translatePage();
  document.body.dataset.lang = lang();
  showGames();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  $("lang").addEventListener("click", async () => {
    const before = defaultNames();
    await toggleLang();
    translatePage();
    renameDefaults(before); // the defaults follow the language: names, and the rule set usual in it
    await fetchRules();
    showRules();
    document.body.dataset.lang = lang();
    for (const li of $("seats").children) {
      const kind = li.querySelector(".seat-kind");
      seatKinds().forEach(([, text], i) => (kind.options[i].text = text));
    }
    showGames();
    showRecord(defaultsOf);
  });
  $("clear-record").addEventListener("click", () => askToClear(defaultsOf));
  $("add-seat").addEventListener("click", () => addSeat("human"));
  $("add-bot").addEventListener("click", () => addSeat("bot"));
  $("create").addEventListener("submit", create);
  $("rules").addEventListener("change", () => {
    rulesPicked = true;
    showRules();
  });
  $("play-bot").addEventListener("click", () => quickStart("bot"));
  $("play-pass").addEventListener("click", () => quickStart("pass"));
  const name = myName();
  $("my-name").value = name || t("Player {n}", { n: 1 });
  $("my-name").addEventListener("input", () => checkName($("my-name"), "name-error"));
  $("seats").append(seatRow(name || t("Player {n}", { n: 1 }), "human"));
  $("seats").append(seatRow(BOT_NAME, "bot"));
  updateSeatButtons();
  try {
    await fetchRules();
  } catch {
    // Offline without a copy: the rule sets stay empty, the record is still shown.
  }
  showRules();
  showRecord(defaultsOf);
  document.body.dataset.ready = "1";
}

init();
