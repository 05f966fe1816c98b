// The home page: choose a rule set, its options and the seats, create the game, hand out links.

import { lang, loadWords, t, toggleLang, translatePage } from "/static/i18n.js";

const MAX_SEATS = 8;
let ruleSets = [];

const $ = (id) => document.getElementById(id);

// The rule sets and their options as the server describes them, in the page's language.
async function fetchRules() {
  const response = await fetch(`/api/rules?lang=${lang()}`);
  ruleSets = await response.json();
  const select = $("rules");
  const chosen = select.value;
  select.replaceChildren(...ruleSets.map((rules) => new Option(rules.name, rules.id)));
  if (chosen) select.value = chosen;
}

function showRules() {
  const rules = ruleSets.find((r) => r.id === $("rules").value);
  $("rules-description").textContent = rules ? rules.description : "";
  const box = $("options");
  for (const el of box.querySelectorAll(".field")) el.remove();
  for (const option of rules ? rules.options : []) {
    const label = document.createElement("label");
    label.className = "field";
    label.title = option.help;
    const name = document.createElement("span");
    name.textContent = option.label;
    const select = document.createElement("select");
    select.name = option.key;
    select.dataset.option = option.key;
    for (const value of option.values) {
      const item = new Option(option.value_labels[value] ?? value, value, value === option.default, value === option.default);
      select.append(item);
    }
    const help = document.createElement("small");
    help.className = "muted";
    help.textContent = option.help;
    if (option.source) help.title = option.source; // where the rule comes from: there, not in the way
    label.append(name, select, help);
    box.append(label);
  }
}

// Who may sit at a seat: a person or a bot of a strength (the server's seat kinds).
function seatKinds() {
  return [
    ["human", t("Human")],
    ["bot", t("Bot: quick")],
    ["bot:optimal", t("Bot: strong (most points)")],
    ["bot:win", t("Bot: plays to win")],
  ];
}

function seatRow(name, kind) {
  const li = document.createElement("li");
  const input = document.createElement("input");
  input.type = "text";
  input.maxLength = 24;
  input.value = name;
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
  for (const button of $("seats").querySelectorAll(".remove")) button.disabled = count <= 1;
}

function addSeat() {
  const count = $("seats").children.length;
  if (count >= MAX_SEATS) return;
  const name = count === 0 ? t("Player {n}", { n: 1 }) : `Bot ${count}`;
  $("seats").append(seatRow(name, count === 0 ? "human" : "bot"));
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

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  $("create-button").disabled = true;
  try {
    const response = await fetch(`/api/games?lang=${lang()}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request()),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.message || response.statusText);
    showResult(body);
  } catch (error) {
    $("create-error").textContent = error.message;
  } finally {
    $("create-button").disabled = false;
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
  // The creator's browser remembers the links so the table can show them again.
  localStorage.setItem(`kniffel.invites.${game.id}`, JSON.stringify(invites));
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
const isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

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
  let stored;
  try {
    const text = localStorage.getItem(GAMES_KEY);
    if (text === null) return { games: [], dropped: false };
    stored = JSON.parse(text);
  } catch {
    stored = undefined; // not JSON, or storage is disabled
  }
  const entries = Array.isArray(stored) ? stored : [];
  const games = entries.map(readGame).filter(Boolean);
  const dropped = games.length < entries.length || !Array.isArray(stored);
  if (dropped) {
    try {
      if (games.length) localStorage.setItem(GAMES_KEY, JSON.stringify(entries.filter((e) => readGame(e))));
      else localStorage.removeItem(GAMES_KEY);
    } catch {
      // Storage disabled or full: the list is read again (and cleaned) next time.
    }
  }
  return { games, dropped };
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

async function init() {
  await loadWords();
  translatePage();
  document.body.dataset.lang = lang();
  showGames();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  $("lang").addEventListener("click", async () => {
    await toggleLang();
    translatePage();
    await fetchRules();
    showRules();
    document.body.dataset.lang = lang();
    for (const li of $("seats").children) {
      const kind = li.querySelector(".seat-kind");
      seatKinds().forEach(([, text], i) => (kind.options[i].text = text));
    }
    showGames();
  });
  $("add-seat").addEventListener("click", addSeat);
  $("create").addEventListener("submit", create);
  $("rules").addEventListener("change", showRules);
  $("seats").append(seatRow(t("Player {n}", { n: 1 }), "human"));
  $("seats").append(seatRow("Robo", "bot"));
  updateSeatButtons();
  await fetchRules();
  showRules();
  document.body.dataset.ready = "1";
}

init();
