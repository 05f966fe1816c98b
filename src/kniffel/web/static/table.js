// The table: dice, the score sheets of every player, the log. The server holds the game; this page
// draws each state snapshot it receives and sends the player's actions, nothing more.

import { boxLabel, lang, t, toggleLang, translatePage } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";

let state = null;
let mySeats = [];
let held = new Set();
let heldFor = "";
let strikeMode = false;
let socket = null;
let retry = 0;
let gone = false;
let errorTimer = 0;
let hintSeq = -1;

// Pip positions on a 3x3 grid (cells 1..9, reading order) for each face.
const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
const ORDER_MARK = { "top-down": "↓", "bottom-up": "↑", announced: "!", free: "" };

// --- connection -------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(gameId)}`);
  setStatus(retry ? "reconnecting" : "connecting");
  socket.addEventListener("open", () => {
    retry = 0;
    setStatus("connected");
    if (token) socket.send(JSON.stringify({ type: "hello", token }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 4404) {
      gone = true;
      $("banner").textContent = t("noGame");
    }
    if (gone) return;
    setStatus("reconnecting");
    retry += 1;
    setTimeout(connect, Math.min(2000, 250 * 2 ** Math.min(retry, 3)));
  });
}

function setStatus(key) {
  const el = $("connection");
  el.dataset.status = key;
  el.textContent = t(key);
}

function receive(message) {
  if (message.type === "state") {
    state = message.state;
    render();
  } else if (message.type === "welcome") {
    mySeats = message.seats;
    render();
  } else if (message.type === "error") {
    showError(message.message);
  }
}

function showError(text) {
  $("error").textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => ($("error").textContent = ""), 6000);
}

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !state) return;
  socket.send(JSON.stringify({ type: "action", seq: state.seq, action }));
}

// --- reading the state ------------------------------------------------------------------------

function canAct() {
  return state && !state.over && mySeats.includes(state.current);
}

function boxOf(key) {
  const id = key.includes(":") ? key.split(":")[1] : key;
  return state.rules.boxes.find((b) => b.id === id);
}

function keyLabel(key) {
  const box = boxOf(key);
  const label = box ? boxLabel(box) : key;
  return key.includes(":") ? `${label} (${t("column", { id: key.split(":")[0] })})` : label;
}

function keyOf(column, box) {
  return state.rules.columns.length > 1 ? `${column.id}:${box.id}` : box.id;
}

// --- actions ----------------------------------------------------------------------------------

function keptDice() {
  const dice = state.turn.dice || [];
  return [...held].map((i) => dice[i]).sort((a, b) => a - b);
}

function padDice() {
  const values = [...$("pad-dice").querySelectorAll("input")].map((input) => Number(input.value));
  if (values.some((v) => !Number.isInteger(v) || v < 1 || v > 6)) {
    showError(t("enterDice"));
    return null;
  }
  return values.sort((a, b) => a - b);
}

function roll(kind = "roll") {
  if (!canAct() || (kind === "roll" ? !state.can_roll : !state.can_free)) return;
  const action = { action: kind, keep: state.turn.dice ? keptDice() : [] };
  if (state.pad) {
    const dice = padDice();
    if (!dice) return;
    action.dice = dice;
  }
  send(action);
}

function toggleHold(index) {
  if (!canAct() || !state.turn.dice || index >= state.turn.dice.length) return;
  if (held.has(index)) held.delete(index);
  else held.add(index);
  render();
}

function setStrikeMode(on) {
  strikeMode = on;
  render();
}

// --- drawing ----------------------------------------------------------------------------------

function render() {
  if (!state) return;
  const focusKey = document.activeElement?.dataset?.fk;
  const identity = `${state.current}/${state.turn.rolls}/${state.turn.free_throws}/${state.turn.dice}`;
  if (identity !== heldFor) {
    held = new Set();
    heldFor = identity;
    strikeMode = false;
  }
  document.title = `Kniffel · ${state.rules.name}`;
  // For scripts and tests driving the page: which position is on screen.
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.current = String(state.current);
  document.body.dataset.over = state.over ? "1" : "0";
  $("rules-name").textContent = state.rules.name;
  $("round").textContent = state.over ? "" : t("round", { n: state.round, of: state.rules.turns });
  renderBanner();
  renderDice();
  renderControls();
  renderSheet();
  renderLog();
  renderRanking();
  renderInvites();
  if (focusKey) {
    const again = document.querySelector(`[data-fk="${CSS.escape(focusKey)}"]`);
    if (again && !again.disabled) again.focus();
    else if (canAct()) $("roll").focus();
  }
}

function renderBanner() {
  const banner = $("banner");
  const player = state.players[state.current];
  if (state.over) {
    const best = state.standings.filter((s) => s.rank === 1).map((s) => s.name);
    banner.textContent = `${t("gameOver")} · ${t(best.length > 1 ? "winners" : "winner", { names: best.join(", ") })}`;
  } else if (canAct()) {
    banner.textContent = t("yourTurn", { name: player.name });
  } else {
    banner.textContent = t(player.kind === "bot" ? "botThinking" : "turnOf", { name: player.name });
  }
  banner.dataset.mine = canAct() ? "1" : "0";
}

function die(face, index, isHeld, enabled) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "die";
  button.dataset.fk = `die-${index}`;
  button.dataset.face = String(face ?? 0);
  button.setAttribute("aria-pressed", isHeld ? "true" : "false");
  button.setAttribute("aria-label", face ? t(isHeld ? "dieHeld" : "die", { i: index + 1, face }) : "?");
  button.disabled = !enabled;
  for (const cell of face ? PIPS[face] : []) {
    const pip = document.createElement("i");
    pip.style.gridArea = `${Math.ceil(cell / 3)} / ${((cell - 1) % 3) + 1}`;
    button.append(pip);
  }
  const digit = document.createElement("span");
  digit.className = "digit";
  digit.textContent = face ? String(face) : "?";
  button.append(digit);
  button.addEventListener("click", () => toggleHold(index));
  return button;
}

function renderDice() {
  const dice = state.turn.dice;
  const box = $("dice");
  box.setAttribute("aria-label", dice ? dice.join(" ") : "");
  box.replaceChildren(
    ...Array.from({ length: state.rules.dice }, (_, i) =>
      die(dice ? dice[i] : null, i, held.has(i), Boolean(dice) && canAct()),
    ),
  );
  const pad = $("pad");
  pad.hidden = !(state.pad && canAct());
  if (!pad.hidden) {
    const inputs = $("pad-dice");
    const existing = [...inputs.querySelectorAll("input")];
    const fresh = existing.length !== state.rules.dice || inputs.dataset.for !== heldFor;
    if (fresh) {
      inputs.dataset.for = heldFor;
      inputs.replaceChildren(
        ...Array.from({ length: state.rules.dice }, (_, i) => {
          const input = document.createElement("input");
          input.type = "number";
          input.min = "1";
          input.max = "6";
          input.inputMode = "numeric";
          input.setAttribute("aria-label", t("die", { i: i + 1, face: "" }));
          input.addEventListener("keydown", (event) => {
            if (event.key === "Enter") roll();
          });
          return input;
        }),
      );
    }
    // Held dice stay as they are: only the others are rolled again.
    [...inputs.querySelectorAll("input")].forEach((input, i) => {
      input.disabled = held.has(i);
      if (held.has(i)) input.value = String(dice[i]);
    });
  }
}

function renderControls() {
  const mine = canAct();
  for (const id of ["dice", "pad", "turn-notes"]) if (state.over) $(id).hidden = true;
  document.querySelector(".controls").hidden = state.over;
  const rollButton = $("roll");
  rollButton.textContent = state.pad ? t("enterRoll") : t("roll");
  rollButton.disabled = !mine || !state.can_roll;
  $("free").hidden = !state.rules.free_throws;
  $("free").disabled = !mine || !state.can_free;
  const strike = $("strike-mode");
  strike.disabled = !mine || !state.strikeable.length;
  strike.setAttribute("aria-pressed", strikeMode ? "true" : "false");
  $("hint").hidden = !(state.hints && mine && state.turn.dice);
  const info = [];
  if (!state.over) info.push(t("rollsLeft", { n: state.turn.rolls_left }));
  if (state.turn.free_throws) info.push(t("freeThrowsTaken", { n: state.turn.free_throws }));
  $("turn-info").textContent = info.join(" · ");
  const notes = [];
  if (state.turn.announced) notes.push(t("announced", { box: keyLabel(state.turn.announced) }));
  if (state.rules.sharp && state.turn.dice && state.turn.thrown_at_once) notes.push(t("sharpAtOnce"));
  if (strikeMode) notes.push(t("strikeOn"));
  $("turn-notes").textContent = notes.join(" · ");
  if (!mine || state.seq !== hintSeq) $("hints").hidden = true;
}

function cell(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined && text !== null) el.textContent = String(text);
  if (className) el.className = className;
  return el;
}

function actionButton(kind, key, text, label) {
  const button = cell("button", text, `act ${kind}`);
  button.type = "button";
  button.dataset.act = kind;
  button.dataset.box = key;
  button.dataset.fk = `${kind}-${key}`;
  button.setAttribute("aria-label", label);
  button.title = label;
  return button;
}

function boxCell(player, column, box) {
  const key = keyOf(column, box);
  const td = cell("td");
  td.dataset.box = key;
  const entry = player.entries[key];
  if (entry !== undefined) {
    td.textContent = entry === 0 ? "–" : String(entry);
    td.className = "filled";
    return td;
  }
  if (player.index !== state.current || !state.turn.dice || state.over) return td;
  const placement = state.placements[key];
  const shown = placement ? placement.points + (placement.bonus ? ` +${placement.bonus}` : "") : "";
  if (!canAct()) {
    if (placement) td.append(cell("span", shown, "preview"));
    return td;
  }
  const strikeable = state.strikeable.includes(key);
  const label = keyLabel(key);
  if (strikeMode && strikeable) {
    td.append(actionButton("strike", key, "✗", t("strike", { box: label })));
  } else if (placement) {
    td.append(actionButton("score", key, shown, t("score", { points: shown, box: label })));
  } else if (state.announce.includes(key)) {
    td.append(actionButton("announce", key, "!", t("announce", { box: label })));
  } else if (strikeable && !Object.keys(state.placements).length) {
    td.append(actionButton("strike", key, "✗", t("strike", { box: label })));
  }
  return td;
}

function sumRow(label, field, className) {
  const tr = cell("tr", null, `sum ${className || ""}`);
  tr.append(cell("th", t(label)));
  for (const player of state.players) {
    for (const column of player.columns) {
      const td = cell("td", column[field], player.index === state.current && !state.over ? "current" : "");
      td.dataset.sum = field;
      td.dataset.seat = String(player.index);
      tr.append(td);
    }
  }
  return tr;
}

function renderSheet() {
  const rules = state.rules;
  const columns = rules.columns;
  const multi = columns.length > 1;
  const table = $("sheet");
  table.replaceChildren();
  const head = cell("thead");
  const names = cell("tr");
  names.append(cell("th", ""));
  for (const player of state.players) {
    const th = cell("th", player.kind === "bot" ? `${player.name} (${t("bot")})` : player.name, "player");
    th.colSpan = columns.length;
    th.scope = "colgroup";
    if (player.index === state.current && !state.over) th.classList.add("current");
    if (mySeats.includes(player.index)) th.classList.add("me");
    names.append(th);
  }
  head.append(names);
  if (multi) {
    const ids = cell("tr");
    ids.append(cell("th", ""));
    for (const player of state.players) {
      for (const column of columns) {
        const th = cell("th", `${column.id}${ORDER_MARK[column.order] || ""}`, "column-id");
        th.title = `${t("column", { id: column.id })}: ${column.order}`;
        ids.append(th);
      }
    }
    head.append(ids);
  }
  table.append(head);
  const body = cell("tbody");
  const boxRow = (box) => {
    const tr = cell("tr", null, box.section);
    tr.append(cell("th", boxLabel(box)));
    for (const player of state.players) {
      for (const column of columns) {
        const td = boxCell(player, column, box);
        if (player.index === state.current && !state.over) td.classList.add("current");
        tr.append(td);
      }
    }
    return tr;
  };
  for (const box of rules.boxes.filter((b) => b.section === "upper")) body.append(boxRow(box));
  body.append(sumRow("upperSum", "upper_sum"), sumRow("bonus", "upper_bonus"), sumRow("upperTotal", "upper_total", "strong"));
  for (const box of rules.boxes.filter((b) => b.section === "lower")) body.append(boxRow(box));
  body.append(sumRow("lowerSum", "lower_sum"));
  if (rules.extra_bonus) body.append(sumRow("extraBonus", "extra_bonus"));
  if (rules.free_throws) body.append(sumRow("freeThrows", "free_throws"));
  if (rules.extra_bonus || rules.free_throws) body.append(sumRow("lowerTotal", "lower_total"));
  body.append(sumRow("upperTotal", "upper_total"), sumRow("total", "total", "strong"));
  if (multi) {
    const tr = cell("tr", null, "sum strong grand");
    tr.append(cell("th", t("grandTotal")));
    for (const player of state.players) {
      const td = cell("td", player.total);
      td.colSpan = columns.length;
      td.dataset.grand = String(player.index);
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
}

// "roll keep 3 3 = 1 3 3 4 6", "score chance", ... in the reader's language.
function actionText(text) {
  const [head, dice] = text.split(" = ");
  const words = head.split(" ");
  if (words[0] === "roll" || words[0] === "free") {
    const kept = words.slice(2).join(" ");
    const verb = words[0] === "free" ? t("act_free") : t("act_roll");
    if (dice === undefined) return kept ? `${t("act_keep")} ${kept}, ${verb}` : verb;
    return kept ? `${verb}: ${t("act_keep")} ${kept} → ${dice}` : `${verb} ${dice}`;
  }
  return `${t(`act_${words[0]}`)} ${keyLabel(words[1])}`;
}

function describe(entry) {
  const name = state.players[entry.seat]?.name ?? "?";
  return `${name}: ${actionText(entry.text)}`;
}

function renderLog() {
  const list = $("log");
  list.replaceChildren(...state.log.slice().reverse().map((entry) => {
    const li = cell("li", describe(entry));
    li.value = entry.seq;
    return li;
  }));
}

function renderRanking() {
  $("ranking").hidden = !state.over;
  if (!state.over) return;
  $("ranking-list").replaceChildren(
    ...state.standings.map((s) => {
      const li = cell("li", `${s.name} · ${t("points", { n: s.total })}`);
      li.value = s.rank;
      return li;
    }),
  );
  $("review-button").hidden = !state.hints;
}

function renderInvites() {
  const saved = localStorage.getItem(`kniffel.invites.${gameId}`);
  const invites = saved ? JSON.parse(saved) : [];
  $("invites").hidden = !invites.length || state.over;
  $("invite-list").replaceChildren(
    ...invites.map((invite) => {
      const li = cell("li");
      const a = cell("a", invite.name);
      a.href = invite.url;
      li.append(a);
      return li;
    }),
  );
}

// --- advice (shown only when the server has an advisor for these rules) -----------------------

async function showHints() {
  if (!canAct() || !state.hints) return;
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/hints`, {
    headers: { "x-kniffel-token": token },
  });
  const body = await response.json();
  if (!response.ok) return showError(body.message);
  hintSeq = body.seq;
  $("hint-list").replaceChildren(
    ...body.options.map((o) => cell("li", `${actionText(o.action)} · ${t("expected", { n: o.value.toFixed(1) })}`)),
  );
  $("hints").hidden = false;
}

async function showReview() {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/review`);
  const body = await response.json();
  if (!response.ok) return showError(body.message);
  $("review-list").replaceChildren(
    ...body.decisions
      .filter((d) => d.loss > 0)
      .map((d) =>
        cell("li", `${d.player}: ${actionText(d.chosen)} (${t("reviewLoss", { n: d.loss })}; ${t("best")}: ${actionText(d.best)})`),
      ),
  );
}

// --- input ------------------------------------------------------------------------------------

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  const key = event.key.toLowerCase();
  if (key === " " || key === "r") {
    // Space on a focused button presses that button, as everywhere; elsewhere it rolls.
    if (key === " " && target instanceof HTMLButtonElement) return;
    event.preventDefault();
    roll();
  } else if (/^[1-6]$/.test(key)) {
    event.preventDefault();
    toggleHold(Number(key) - 1);
  } else if (key === "f") {
    roll("free");
  } else if (key === "s") {
    if (canAct() && state.strikeable.length) setStrikeMode(!strikeMode);
  } else if (key === "h") {
    showHints();
  } else if (key === "l") {
    switchLanguage();
  }
}

function switchLanguage() {
  toggleLang();
  translatePage();
  setStatus($("connection").dataset.status || "connecting");
  render();
}

function init() {
  translatePage();
  $("lang").addEventListener("click", switchLanguage);
  $("roll").addEventListener("click", () => roll());
  $("free").addEventListener("click", () => roll("free"));
  $("strike-mode").addEventListener("click", () => setStrikeMode(!strikeMode));
  $("hint").addEventListener("click", showHints);
  $("review-button").addEventListener("click", showReview);
  $("sheet").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-act]");
    if (!button || !canAct()) return;
    send({ action: button.dataset.act, box: button.dataset.box });
  });
  document.addEventListener("keydown", onKey);
  document.documentElement.lang = lang();
  connect();
}

init();
