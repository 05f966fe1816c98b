// The table: dice, the score sheets of every player, the log. The server holds the game; this page
// draws each state it receives (whole, or as a change to the last one) and sends the player's actions. One exception: in a score-pad
// game, actions entered while offline wait in this browser (localStorage) and are drawn on top of the
// last state the server sent; they are sent in order when the connection returns, each naming the
// position it was made at, so the server's seq check refuses them if the game moved on meanwhile.

import { Backoff, Coalesced, PREPARING, askJson, compilingNote, preparingOf } from "/static/ask.js";
import { chance, drawChart, renderChances } from "/static/chances.js";
import { $, element } from "/static/dom.js";
import { boxLabel, inLanguage, lang, loadWords, nt, number, percent, t, toggleLang, translatePage } from "/static/i18n.js";
import { DicePlaces, arrange } from "/static/dice.js";
import { keepGame, keepReview } from "/static/record.js";
import { showReview as renderReview } from "/static/review.js";
import { Seating } from "/static/seats.js";
import { dropStored, isInvite, isQueue, isRecord, isSavedState, loadJson, loadList, onDropped, saveJson } from "/static/storage.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";

const QUEUE_KEY = `kniffel.queue.${gameId}`;
const STATE_KEY = `kniffel.state.${gameId}`;
const GAMES_KEY = "kniffel.games";
const HINTS_KEY = "kniffel.hints";
const MAX_GAMES = 30;

let serverState = null; // the last state the server sent
let state = null; // what is drawn: serverState with the offline queue applied
let mySeats = [];
let queue = []; // [{action, seat, at}] made offline at position `at`, oldest first (read by init)
let waiting = false; // a queued action is on its way and the server has not answered yet
let answerDue = false; // the refusal of a queued action already known to be out of date is still to come
let welcomed = false;
let hintsOn = localStorage.getItem(HINTS_KEY) === "1";
let hintData = null; // {seq, options} for the position on screen
let hintAsked = -1;
const hintBackoff = new Backoff();
let chancesOff = false; // the server cannot tell chances for this table
// One ask for the chances at a time, for the newest position only (the page's allowance is shared by
// every tab of this address: asking on every change of a fast game ran into it).
const chancesAsker = new Coalesced(askChancesOf, new Backoff(2000, 30000));
let rematchTimer = 0;
let rematchId = null; // the rematch of this game, once someone has started it
let isHost = false;
const dicePlaces = new DicePlaces(gameId);
let seating = null; // online with friends (seats.js): made once the page's elements are there
// The dice on screen (dice.js): the position, the faces in their places (null before a throw), the
// places held, and the places a throw just filled (they tumble once).
let placed = { seq: -1, faces: null, held: new Set(), thrown: new Set() };
let strikeMode = false;
let armed = null; // the box a tap would enter 0 in, asked about first: "seq:key"
let socket = null;
let retry = 0;
let gone = false;
let errorTimer = 0;

// Pip positions on a 3x3 grid (cells 1..9, reading order) for each face.
const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
const ORDER_MARK = { "top-down": "↓", "bottom-up": "↑", announced: "!", free: "" };

// How a column is filled, in words.
function orderText(order) {
  if (order === "top-down") return t("top to bottom");
  if (order === "bottom-up") return t("bottom to top");
  if (order === "announced") return t("announced after the first roll");
  return t("any order");
}

// --- connection -------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(gameId)}?changes=1&lang=${lang()}`);
  setStatus(retry ? "reconnecting" : "connecting");
  socket.addEventListener("open", () => {
    retry = 0;
    welcomed = !token;
    // a seat's actions go out once the server has said whose seats this page holds: until then the
    // page says it is still connecting, rather than take a tap it would have to drop
    if (welcomed) setStatus("connected");
    else socket.send(JSON.stringify({ type: "hello", token, lang: lang() }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 4404) {
      gone = true;
      $("banner").textContent = t("This game does not exist.");
    }
    welcomed = false;
    waiting = false;
    answerDue = false;
    if (gone) return;
    setStatus("reconnecting");
    retry += 1;
    setTimeout(connect, Math.min(2000, 250 * 2 ** Math.min(retry, 3)));
  });
}

function setStatus(key) {
  const el = $("connection");
  el.dataset.status = key;
  showStatus();
}

function showStatus() {
  const el = $("connection");
  const offline = !navigator.onLine || el.dataset.status !== "connected";
  if (queue.length) {
    const n = queue.length;
    el.textContent = offline
      ? nt("Offline: {n} entry waiting to be sent", "Offline: {n} entries waiting to be sent", n)
      : nt("Sending {n} entry…", "Sending {n} entries…", n);
  } else if (!navigator.onLine) {
    el.textContent = t("Offline");
  } else if (el.dataset.status === "connected") {
    el.textContent = t("Connected");
  } else if (el.dataset.status === "reconnecting") {
    el.textContent = t("Connection lost, reconnecting…");
  } else {
    el.textContent = t("Connecting…");
  }
  document.body.dataset.pending = String(queue.length);
}

// Lines of the game log a state carries (the server's LOG_TAIL).
const LOG_TAIL = 60;

// A change message is the state without the rules and with only the log's new lines, following the
// state of position `base`; without that state at hand, ask for the whole one.
function applyChange(message) {
  if (!serverState || serverState.seq !== message.base) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "state" }));
    return null;
  }
  const next = message.state;
  next.rules = serverState.rules;
  next.log = serverState.log.filter((e) => e.seq <= message.base).concat(next.log).slice(-LOG_TAIL);
  return next;
}

function receive(message) {
  if (message.type === "change") {
    const next = applyChange(message);
    if (next) receive({ type: "state", state: next });
  } else if (message.type === "state") {
    serverState = message.state;
    settle();
    if (serverState.pad) saveJson(STATE_KEY, { state: serverState, seats: mySeats });
    update();
    flush();
  } else if (message.type === "welcome") {
    mySeats = message.seats;
    isHost = message.host;
    welcomed = true;
    setStatus("connected");
    update();
    flush();
  } else if (message.type === "error") {
    if (answerDue) {
      answerDue = false; // already told: the game went on without the queued actions
      return;
    }
    if (waiting) {
      dropQueue(message.message);
      update();
      return;
    }
    showError(message.message);
  }
}

// --- the offline queue (score-pad games) ---------------------------------------------------------

function saveQueue() {
  if (queue.length) saveJson(QUEUE_KEY, queue);
  else localStorage.removeItem(QUEUE_KEY);
}

function connected() {
  return navigator.onLine && socket && socket.readyState === WebSocket.OPEN && welcomed;
}

function dropQueue(reason) {
  showError(nt("{n} entry made offline was not accepted: {reason}", "{n} entries made offline were not accepted: {reason}", queue.length, { reason }));
  queue = [];
  waiting = false;
  saveQueue();
}

// Whether the server's log entry is the queued action (the same seat, kind, box or dice).
function isQueued(entry, queued) {
  return Boolean(entry) && entry.seat === queued.seat && entry.text.startsWith(actionString(queued.action));
}

// Take off the queue what the server has applied, also when its answer was lost with the connection.
// If the game went on another way (someone else moved first), the rest of the queue no longer fits.
function settle() {
  while (queue.length && serverState.seq > queue[0].at) {
    const entry = serverState.log.find((e) => e.seq === queue[0].at + 1);
    if (!isQueued(entry, queue[0])) {
      answerDue = waiting;
      dropQueue(t("the game went on without them"));
      return;
    }
    queue.shift();
    waiting = false;
  }
  saveQueue();
}

function flush() {
  if (!queue.length || waiting || !connected() || !serverState) return;
  const next = queue[0];
  waiting = true;
  // The position it was made at: the server refuses it if the game is elsewhere now.
  socket.send(JSON.stringify({ type: "action", seq: next.at, seat: next.seat, action: next.action }));
}

// The text of an action in the shared grammar ("roll keep 3 3 = 1 3 3 4 6", "score chance").
function actionString(action) {
  if (action.action === "roll" || action.action === "free") {
    const keep = action.keep && action.keep.length ? ` keep ${action.keep.join(" ")}` : "";
    return `${action.action}${keep}${action.dice ? ` = ${action.dice.join(" ")}` : ""}`;
  }
  return `${action.action} ${action.box}`;
}

// What the table looks like once the queued actions are made: dice entered, boxes filled (their
// points are known only when the server has scored them), the turn passed on.
function project(base, pending) {
  if (!pending.length) return base;
  const view = structuredClone(base);
  for (const { action, seat } of pending) {
    const player = view.players[view.current];
    if (action.action === "roll" || action.action === "free") {
      view.turn.dice = action.dice;
      if (action.action === "roll") {
        view.turn.rolls += 1;
        view.turn.rolls_left = Math.max(0, view.turn.rolls_left - 1);
      } else {
        view.turn.free_throws += 1;
      }
      const open = [];
      for (const column of view.rules.columns) {
        for (const box of view.rules.boxes) {
          const key = view.rules.columns.length > 1 ? `${column.id}:${box.id}` : box.id;
          if (player.entries[key] === undefined) open.push(key);
        }
      }
      view.placements = Object.fromEntries(open.map((key) => [key, { points: null, bonus: 0 }]));
      view.strikeable = open;
      view.announce = [];
      view.can_roll = view.turn.rolls_left > 0;
      view.can_free = false;
    } else {
      player.entries[action.box] = action.action === "score" ? "…" : 0;
      view.current = (view.current + 1) % view.players.length;
      view.turn = { dice: null, rolls: 0, rolls_left: view.rules.rolls, free_throws: 0, announced: null, thrown_at_once: false };
      view.placements = {};
      view.strikeable = [];
      view.announce = [];
      view.can_roll = true;
      view.can_free = false;
    }
    view.seq += 1;
    view.log.push({ seq: view.seq, seat, text: actionString(action), pending: true });
  }
  return view;
}

function update() {
  state = serverState ? project(serverState, queue) : null;
  showStatus();
  render();
}

function showError(text) {
  $("error").textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => ($("error").textContent = ""), 6000);
}

function send(action) {
  if (!state) return;
  if (state.pad && (queue.length || !connected())) {
    queue.push({ action, seat: state.current, at: state.seq });
    saveQueue();
    update();
    flush();
    return;
  }
  if (!connected()) return;
  socket.send(JSON.stringify({ type: "action", seq: state.seq, action }));
}

// --- reading the state ------------------------------------------------------------------------

// Whether this page moves now: its seat is to move, played by its person (not by a bot standing in).
function canAct() {
  // a score pad takes entries offline too; a table with dice acts once the server knows this page's seats,
  // and not for a seat a stand-in bot plays meanwhile
  return (
    state && !state.over && mySeats.includes(state.current) && state.players[state.current].kind === "human" &&
    (welcomed || state.pad)
  );
}

function boxOf(key) {
  const id = key.includes(":") ? key.split(":")[1] : key;
  return state.rules.boxes.find((b) => b.id === id);
}

function keyLabel(key) {
  const box = boxOf(key);
  const label = box ? boxLabel(box) : key;
  return key.includes(":") ? `${label} (` + t("Column {id}", { id: key.split(":")[0] }) + ")" : label;
}

function keyOf(column, box) {
  return state.rules.columns.length > 1 ? `${column.id}:${box.id}` : box.id;
}

// --- actions ----------------------------------------------------------------------------------

function keptDice() {
  return [...placed.held].map((i) => placed.faces[i]).sort((a, b) => a - b);
}

// The dice typed into the score pad, or null after saying which one is wrong and why.
function padDice() {
  const inputs = [...$("pad-dice").querySelectorAll("input")];
  for (const [i, input] of inputs.entries()) {
    const text = input.value.trim();
    const value = Number(text);
    const problem = !text
      ? t("Die {i} is missing: enter every die you rolled", { i: i + 1 })
      : !Number.isInteger(value) || value < 1 || value > 6
        ? t("Die {i} shows {value}, but a die shows 1 to 6", { i: i + 1, value: text })
        : null;
    input.setAttribute("aria-invalid", problem ? "true" : "false");
    if (problem) {
      showError(problem);
      input.focus();
      return null;
    }
  }
  return inputs.map((input) => Number(input.value)).sort((a, b) => a - b);
}

function roll(kind = "roll") {
  if (!canAct() || (kind === "roll" ? !state.can_roll : !state.can_free)) return;
  armed = null;
  const action = { action: kind, keep: state.turn.dice ? keptDice() : [] };
  if (state.pad) {
    const dice = padDice();
    if (!dice) return;
    action.dice = dice;
  }
  send(action);
}

function toggleHold(index) {
  if (!canAct() || !placed.faces || index >= placed.faces.length) return;
  if (placed.held.has(index)) placed.held.delete(index);
  else placed.held.add(index);
  dicePlaces.keep(placed.seq, placed.faces, placed.held);
  armed = null;
  render();
}

function setStrikeMode(on) {
  strikeMode = on;
  armed = null;
  render();
}

// A tap that would enter 0 asks first (a second tap on the box enters it), as the terminal's keys do;
// striking from the strike mode was asked for already.
function asksFirst(act, key) {
  if (act === "strike") return !strikeMode;
  const placement = state.placements[key];
  return act === "score" && Boolean(placement) && placement.points === 0 && !placement.bonus;
}

function enterInBox(act, key) {
  if (!canAct()) return;
  if (asksFirst(act, key) && armed !== `${state.seq}:${key}`) {
    armed = `${state.seq}:${key}`;
    return render();
  }
  armed = null;
  send({ action: act, box: key });
}

// The dice of the position on screen in their places: as kept in this browser for it (a reload, an
// undo back to it), else where the action that led to it left them (a throw fills the places not
// kept, an announcement moves nothing), else in order.
function placeDice() {
  const dice = state.turn.dice;
  if (placed.seq === state.seq && String(placed.faces && [...placed.faces].sort((a, b) => a - b)) === String(dice)) return;
  strikeMode = false;
  armed = null;
  const before = placed;
  placed = { seq: state.seq, faces: null, held: new Set(), thrown: new Set() };
  if (!dice) return;
  const kept = dicePlaces.at(state.seq, dice);
  if (kept) {
    placed = { seq: state.seq, faces: kept.faces, held: kept.held, thrown: new Set() };
    return;
  }
  const last = state.log[state.log.length - 1];
  const previous = before.seq === state.seq - 1 ? before : { faces: null, held: new Set() };
  const [head] = last && last.seq === state.seq ? last.text.split(" = ") : [""];
  if (/^(roll|free)\b/.test(head)) {
    const keep = head.split(" ").slice(2).map(Number);
    placed = { seq: state.seq, ...arrange(previous.faces, previous.held, dice, keep) };
  } else if (previous.faces && String([...previous.faces].sort((a, b) => a - b)) === String(dice)) {
    placed = { seq: state.seq, faces: previous.faces, held: previous.held, thrown: new Set() };
  } else {
    placed = { seq: state.seq, faces: [...dice], held: new Set(), thrown: new Set() };
  }
  dicePlaces.keep(placed.seq, placed.faces, placed.held);
}

// --- drawing ----------------------------------------------------------------------------------

function render() {
  if (!state) return;
  const focusKey = document.activeElement?.dataset?.fk;
  placeDice();
  seating.update(state, mySeats, isHost, canAct()); // the title, the turn's signal and timer, the host's panel
  // For scripts and tests driving the page: which position is on screen.
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.current = String(state.current);
  document.body.dataset.over = state.over ? "1" : "0";
  document.body.dataset.pending = String(queue.length);
  $("rules-name").textContent = inLanguage(state.rules.names);
  $("round").textContent = state.over ? "" : t("Round {n} of {of}", { n: state.round, of: state.rules.turns });
  renderBanner();
  renderDice();
  markKept(bestKept());
  renderControls();
  renderSheet();
  renderLog();
  renderRanking();
  renderInvites();
  rememberGame();
  if (serverState) keepGame(gameId, serverState, mySeats); // a finished game in its players' record
  askHints();
  askChances();
  if ($("position").open) situationAsker.want(state.seq);
  if (state.over) watchForRematch();
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
    const result = best.length > 1 ? t("Tie: {names}", { names: best.join(", ") }) : t("{names} wins!", { names: best[0] });
    banner.textContent = `${t("Game over")} · ${result}`;
  } else if (canAct()) {
    banner.textContent = t("Your turn, {name}", { name: player.name });
  } else if (player.stand_in === "overdue") {
    banner.textContent = t("Time is up: the quick bot finishes {name}'s turn", { name: player.name });
  } else if (player.stand_in === "away") {
    banner.textContent = t("A bot plays for {name}", { name: player.name });
  } else if (!mySeats.length) {
    banner.textContent = t("You are watching: {name} is playing", { name: player.name });
  } else {
    banner.textContent = player.kind !== "human" ? t("{name} (bot) is playing", { name: player.name }) : t("{name} is playing", { name: player.name });
  }
  banner.dataset.mine = canAct() ? "1" : "0";
}

function die(face, index, isHeld, enabled, rolling) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = rolling ? "die rolling" : "die";
  button.dataset.heldLabel = t("held");
  button.dataset.fk = `die-${index}`;
  button.dataset.face = String(face ?? 0);
  button.setAttribute("aria-pressed", isHeld ? "true" : "false");
  const label = isHeld ? t("Die {i}: {face}, held", { i: index + 1, face }) : t("Die {i}: {face}", { i: index + 1, face });
  button.setAttribute("aria-label", face ? label : "?");
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
  const dice = placed.faces;
  const box = $("dice");
  const thrown = placed.thrown; // they tumble once: drawn again, they lie still
  placed.thrown = new Set();
  box.setAttribute("aria-label", dice ? dice.join(" ") : "");
  box.dataset.held = String(placed.held.size);
  box.style.setProperty("--dice", String(state.rules.dice)); // the style sheet fits them to the width
  box.replaceChildren(
    ...Array.from({ length: state.rules.dice }, (_, i) =>
      die(dice ? dice[i] : null, i, placed.held.has(i), Boolean(dice) && canAct(), thrown.has(i)),
    ),
  );
  const pad = $("pad");
  pad.hidden = !(state.pad && canAct());
  if (!pad.hidden) {
    const inputs = $("pad-dice");
    const existing = [...inputs.querySelectorAll("input")];
    const fresh = existing.length !== state.rules.dice || inputs.dataset.for !== String(state.seq);
    if (fresh) {
      inputs.dataset.for = String(state.seq);
      inputs.replaceChildren(
        ...Array.from({ length: state.rules.dice }, (_, i) => {
          const input = document.createElement("input");
          input.type = "number";
          input.min = "1";
          input.max = "6";
          input.inputMode = "numeric";
          input.setAttribute("aria-label", t("Die {i}: {face}", { i: i + 1, face: "" }));
          input.addEventListener("keydown", (event) => {
            if (event.key === "Enter") roll();
          });
          return input;
        }),
      );
    }
    // Held dice stay as they are: only the others are rolled again.
    [...inputs.querySelectorAll("input")].forEach((input, i) => {
      input.disabled = placed.held.has(i);
      if (placed.held.has(i)) input.value = String(dice[i]);
    });
  }
}

// The keys of this table: as many dice as it has, a free throw only where the rules give them (the
// style sheet hides the line on touch screens, which have no keys).
// What a bot seat plays for, in a word or two (not "Bot (Bot)").
function botKind(kind) {
  if (/^bot:[1-8]$/.test(kind)) return t("level {n} bot", { n: kind.slice(4) });
  if (kind === "bot:optimal") return t("strong bot");
  if (kind === "bot:win") return t("bot playing to win");
  return t("quick bot");
}

function renderKeyHelp() {
  const keys = [t("Space roll"), t("1-{n} hold", { n: state.rules.dice })];
  if (state.rules.free_throws) keys.push(t("F free throw"));
  keys.push(t("S strike"));
  if (state.hints) keys.push(t("H hints on/off")); // only tables the solver covers have hints
  if (mySeats.length && !state.over) keys.push(t("U undo"));
  keys.push(t("L language"));
  $("key-help").textContent = `${t("Keys:")} ${keys.join(" · ")}`;
}

// Why Undo cannot take anything back now (null: it can). The server's game says whether its last
// action may be taken back at all (an entry or announcement; never a throw once its dice are seen,
// nothing in a finished game); a player takes back only their own, before anyone else acts.
function undoBlocker() {
  const last = state.log[state.log.length - 1];
  if (state.over) return t("The game is over: a finished game stays as it ended.");
  if (!last || last.seq !== state.seq) return t("Nothing to take back yet.");
  if (queue.length) return t("Undo waits until the entries made offline are sent.");
  if (!mySeats.includes(last.seat)) {
    const name = state.players[last.seat]?.name ?? "?";
    return t("{name} has acted since: only your own last action can be taken back.", { name });
  }
  if (state.can_undo === false) return t("A throw stays once its dice are seen: Undo takes back an entry.");
  return null;
}

function canUndo() {
  return Boolean(state) && mySeats.length > 0 && undoBlocker() === null;
}

function undo() {
  if (!state || !mySeats.length || !connected()) return;
  const why = undoBlocker();
  if (why) return showError(why);
  socket.send(JSON.stringify({ type: "undo", seq: state.seq }));
}

// What the marks of a multi-column sheet's column ids mean ("1↓ 2↑ 3!"), under the sheet.
function renderColumnLegend() {
  const columns = state.rules.columns;
  const legend = $("column-legend");
  legend.hidden = columns.length < 2;
  if (legend.hidden) return;
  const parts = columns.map((c) => `${c.id}${ORDER_MARK[c.order] || ""} ${orderText(c.order)}`);
  legend.textContent = `${t("Columns:")} ${parts.join(" · ")}`;
}

function renderControls() {
  const mine = canAct();
  renderKeyHelp();
  for (const id of ["dice", "pad", "turn-notes"]) if (state.over) $(id).hidden = true;
  document.querySelector(".controls").hidden = state.over;
  const rollButton = $("roll");
  rollButton.disabled = !mine || !state.can_roll;
  markBestRoll();
  $("free").hidden = !state.rules.free_throws;
  $("free").disabled = !mine || !state.can_free;
  const strike = $("strike-mode");
  strike.disabled = !mine || !state.strikeable.length;
  strike.setAttribute("aria-pressed", strikeMode ? "true" : "false");
  $("hint").hidden = !state.hints || !mySeats.length || state.over;
  $("hint").setAttribute("aria-pressed", hintsOn ? "true" : "false");
  $("undo").hidden = !mySeats.length || state.over;
  $("undo").disabled = !canUndo();
  $("undo").title = (mySeats.length && undoBlocker()) || t("Take back your last entry");
  renderColumnLegend();
  const info = [];
  const left = state.turn.rolls_left;
  if (!state.over) info.push(left ? nt("{n} roll left", "{n} rolls left", left) : t("No rolls left"));
  const free = state.turn.free_throws;
  if (free) info.push(nt("{n} free throw this turn", "{n} free throws this turn", free));
  $("turn-info").textContent = info.join(" · ");
  const notes = [];
  if (state.turn.announced) notes.push(t("Announced: {box}", { box: keyLabel(state.turn.announced) }));
  if (state.rules.sharp && state.turn.dice && state.turn.thrown_at_once) notes.push(t("All dice at once: figures score double"));
  if (strikeMode) notes.push(t("Striking: choose the box to cross out"));
  const zero = armed && armed.startsWith(`${state.seq}:`) ? armed.slice(armed.indexOf(":") + 1) : null;
  if (zero) notes.push(t("{box} pays 0 with these dice: tap it again to enter 0 there.", { box: keyLabel(zero) }));
  $("turn-notes").textContent = notes.join(" · ");
  // rules the solver does not cover: no hints or chances, and the table says why, once, to its players
  $("no-hints").hidden = state.hints || !mySeats.length || state.over;
  $("no-hints").textContent = t("No hints or chances of winning for {rules}: the solver covers the rule sets of one column.", { rules: inLanguage(state.rules.names) });
  const current = Boolean(hintData && hintData.seq === state.seq);
  $("hint-list").hidden = !current;
  $("hints").hidden = !(mine && hintsOn && (current || !$("hints-preparing").hidden));
}

function actionButton(kind, key, text, label) {
  const button = element("button", text, `act ${kind}`);
  button.type = "button";
  button.dataset.act = kind;
  button.dataset.box = key;
  button.dataset.fk = `${kind}-${key}`;
  button.setAttribute("aria-label", label);
  button.title = label;
  return button;
}

// The option the hints rate best for the dice on the table (null without hints for them).
function bestOption() {
  if (!hintsOn || !hintData || hintData.seq !== state.seq || !canAct()) return null;
  return hintData.options[0] || null;
}

// The box to fill if filling one is the best option now; while rolling again is better, none.
function bestBox() {
  const option = bestOption();
  return option && /^(score|strike) /.test(option.action) ? option.action.split(" ")[1] : null;
}

// While rolling again is the best option, the roll button says so (a star and its text, not only a
// colour); the box the hints would fill is starred only when filling it is best.
function markBestRoll() {
  const option = bestOption();
  const button = $("roll");
  const best = Boolean(option && option.action.startsWith("roll"));
  button.classList.toggle("best", best);
  button.textContent = `${best ? "★ " : ""}${state.pad ? t("Enter roll") : t("Roll")}`;
  if (best) {
    const why = t("best: {option}", { option: option.text });
    button.setAttribute("aria-label", `${button.textContent.slice(2)} (${why})`);
  } else button.removeAttribute("aria-label");
}

function boxCell(player, column, box) {
  const key = keyOf(column, box);
  const td = element("td");
  td.dataset.box = key;
  const entry = player.entries[key];
  if (entry !== undefined) {
    td.textContent = entry === 0 ? "–" : String(entry);
    td.className = "filled";
    return td;
  }
  if (player.index !== state.current || !state.turn.dice || state.over) return td;
  const placement = state.placements[key];
  const unknown = placement && placement.points === null; // entered offline: scored when synced
  const shown = !placement ? "" : unknown ? "?" : placement.points + (placement.bonus ? ` +${placement.bonus}` : "");
  if (!canAct()) {
    if (placement) td.append(element("span", shown, "preview"));
    return td;
  }
  const strikeable = state.strikeable.includes(key);
  const label = keyLabel(key);
  let button = null;
  if (strikeMode && strikeable) {
    button = actionButton("strike", key, "✗", t("Strike {box}", { box: label }));
  } else if (placement) {
    const name = unknown ? t("Enter in {box} (points when back online)", { box: label }) : t("Enter {points} in {box}", { points: shown, box: label });
    button = actionButton("score", key, shown, name);
  } else if (state.announce.includes(key)) {
    button = actionButton("announce", key, "!", t("Announce {box}", { box: label }));
  } else if (strikeable && !Object.keys(state.placements).length) {
    button = actionButton("strike", key, "✗", t("Strike {box}", { box: label }));
  }
  if (!button) return td;
  if (armed === `${state.seq}:${key}`) {
    button.textContent = "0?";
    button.classList.add("confirm");
    button.setAttribute("aria-label", t("Enter 0 in {box}? Tap again to enter it.", { box: label }));
  }
  if (key === bestBox() && button.dataset.act !== "announce") {
    // Marked by a star and a frame as well as colour.
    button.textContent = `★ ${button.textContent}`;
    button.setAttribute("aria-label", `${button.getAttribute("aria-label")} (${t("best for this roll")})`);
    td.classList.add("best");
  }
  td.append(button);
  return td;
}

// The labels' column is narrow: a row whose name is long takes its short one ("Ges. oben" for "Gesamter
// oberer Teil"), on a phone every row that has one (a box its usual short name where its label is long:
// "Kl. Straße" for "Kleine Straße"); the full name is a tooltip away.
const NARROW = window.matchMedia("(max-width: 800px)");
const SHORT_LABEL = 11;
const LONG_LABEL = 14;

function rowLabel(row, full) {
  const short = row.short ? inLanguage(row.short) : null;
  const wanted = NARROW.matches ? row.kind !== "box" || full.length > SHORT_LABEL : full.length > LONG_LABEL;
  const shown = short && wanted ? short : full;
  const th = element("th", shown);
  if (shown !== full) th.title = full;
  return th;
}

// A row of sums (row.name is the total's field in each of a player's columns).
function sumRow(row) {
  const tr = element("tr", null, `sum${row.strong ? " strong" : ""}${row.ends_section ? " end" : ""}${row.name === "total" ? " total" : ""}`);
  tr.append(rowLabel(row, inLanguage(row.label)));
  for (const player of state.players) {
    for (const column of player.columns) {
      const td = element("td", column[row.name], player.index === state.current && !state.over ? "current" : "");
      td.dataset.sum = row.name;
      td.dataset.seat = String(player.index);
      tr.append(td);
    }
  }
  return tr;
}

// A player's head: the name on a line of its own, never broken over two (shortened at a word, else with an
// ellipsis, where the column is narrow: fitNames), and under it what plays the seat if not its person.
function playerHead(player, columns) {
  const th = element("th", null, "player");
  const kind = player.kind !== "human" ? botKind(player.kind) : null;
  const name = element("span", player.name, "name");
  name.dataset.full = player.name;
  th.append(name);
  if (kind) th.append(element("span", kind, "kind"));
  th.title = kind ? `${player.name} (${kind})` : player.name;
  th.colSpan = columns;
  th.scope = "colgroup";
  if (player.index === state.current && !state.over) th.classList.add("current");
  if (mySeats.includes(player.index)) th.classList.add("me");
  return th;
}

// Each name as long as its column lets it be: whole, else its first words, else cut with an ellipsis.
function fitNames() {
  for (const name of $("sheet").querySelectorAll("thead .name")) {
    const words = name.dataset.full.split(" ");
    name.textContent = name.dataset.full;
    while (words.length > 1 && name.scrollWidth > name.clientWidth) {
      words.pop();
      name.textContent = words.join(" ");
    }
  }
}

function renderSheet() {
  const rules = state.rules;
  const columns = rules.columns;
  const multi = columns.length > 1;
  const table = $("sheet");
  table.replaceChildren();
  // A sheet of one column fits a phone's width, every player's column and total in view; a sheet of
  // several columns a player scrolls sideways, as the note under it says.
  table.classList.toggle("fit", !multi);
  table.style.setProperty("--players", String(state.players.length));
  document.querySelector(".sheet-wrap").classList.toggle("fit", !multi);
  const head = element("thead");
  const names = element("tr");
  names.append(element("th", ""));
  for (const player of state.players) names.append(playerHead(player, columns.length));
  head.append(names);
  if (multi) {
    const ids = element("tr");
    ids.append(element("th", ""));
    for (const player of state.players) {
      for (const column of columns) {
        const th = element("th", `${column.id}${ORDER_MARK[column.order] || ""}`, "column-id");
        th.title = t("Column {id}", { id: column.id }) + `: ${orderText(column.order)}`;
        ids.append(th);
      }
    }
    head.append(ids);
  }
  table.append(head);
  const body = element("tbody");
  const foot = element("tfoot");
  const boxRow = (box, row) => {
    const tr = element("tr", null, box.section);
    tr.append(rowLabel(row, boxLabel(box)));
    for (const player of state.players) {
      for (const column of columns) {
        const td = boxCell(player, column, box);
        if (player.index === state.current && !state.over) td.classList.add("current");
        tr.append(td);
      }
    }
    return tr;
  };
  // The rows are the library's sheet layout (kniffel.engine.sheet.sheet_layout), sent with the rules.
  for (const row of rules.layout) {
    if (row.kind === "box") {
      body.append(boxRow(rules.boxes.find((b) => b.id === row.name), row));
    } else if (row.kind === "sum") {
      // a sheet that fits the width keeps its total in a footer that stops above a phone's dice bar
      (row.name === "total" && !multi ? foot : body).append(sumRow(row));
    } else if (multi) {
      const tr = element("tr", null, "sum strong grand");
      tr.append(rowLabel(row, inLanguage(row.label)));
      for (const player of state.players) {
        const td = element("td", player.total);
        td.colSpan = columns.length;
        td.dataset.grand = String(player.index);
        tr.append(td);
      }
      body.append(tr);
    }
  }
  table.append(body);
  if (foot.children.length) table.append(foot);
  fitNames();
  const legend = $("sideways");
  const wrap = document.querySelector(".sheet-wrap");
  legend.hidden = wrap.scrollWidth <= wrap.clientWidth + 1;
}

// A line of the game log, one sentence of the reader's language. The server writes each action in the
// library's text form ("roll keep 3 3 = 1 3 3 4 6", "score chance").
function describe(entry) {
  const player = state.players[entry.seat]?.name ?? "?";
  const [head, shown] = entry.text.split(" = ");
  const words = head.split(" ");
  const kept = words.slice(2).join(" ");
  const dice = shown ?? "…";
  let text;
  if (words[0] === "free") {
    text = kept ? t("{player}: free throw, keeps {kept} → {dice}", { player, kept, dice }) : t("{player}: free throw → {dice}", { player, dice });
  } else if (words[0] === "roll") {
    text = kept ? t("{player}: keeps {kept} → {dice}", { player, kept, dice }) : t("{player}: rolls {dice}", { player, dice });
  } else if (words[0] === "score") {
    text = t("{player}: scores {box}", { player, box: keyLabel(words[1]) });
  } else if (words[0] === "strike") {
    text = t("{player}: strikes {box}", { player, box: keyLabel(words[1]) });
  } else {
    text = t("{player}: announces {box}", { player, box: keyLabel(words[1]) });
  }
  if (entry.points !== undefined) text += " · " + nt("{n} point", "{n} points", entry.points);
  if (entry.bonus) text += ` (+${entry.bonus} ${t("Bonus")})`;
  if (entry.pending) text += ` (${t("waiting to be sent")})`;
  return text;
}

// A line of the log whose lists of dice ("1 3 3 4 6") never break over two lines.
function logLine(text, className) {
  const li = element("li", null, className);
  let at = 0;
  for (const found of text.matchAll(/\b[1-6](?: [1-6])+\b/g)) {
    li.append(text.slice(at, found.index), element("span", found[0], "dice-list"));
    at = found.index + found[0].length;
  }
  li.append(text.slice(at));
  return li;
}

// The log, newest first; an action a player took back stays in it, struck out and said to be taken
// back, just before what came instead.
function renderLog() {
  const taken = state.taken_back || [];
  const lines = [];
  const takenBack = (seq) => {
    for (const entry of taken.filter((e) => e.seq === seq)) {
      const li = element("li", null, "taken-back");
      li.append(element("s", describe(entry)), " ", element("span", `(${t("taken back")})`));
      li.value = entry.seq;
      lines.push(li);
    }
  };
  for (const entry of state.log) {
    takenBack(entry.seq);
    const li = logLine(describe(entry), entry.pending ? "pending" : entry.points !== undefined ? "scored" : "");
    li.value = entry.seq;
    lines.push(li);
  }
  takenBack(state.seq + 1);
  $("log").replaceChildren(...lines.reverse());
}

// Once per game on this page: a shower of stars over the winner's ranking (the style sheet leaves it
// out for people who ask for reduced motion; the trophy and the ranking say it all the same).
function celebrate() {
  const box = $("celebration");
  if (box.dataset.game === gameId) return;
  box.dataset.game = gameId;
  box.replaceChildren(
    ...Array.from({ length: 18 }, (_, i) => {
      const star = element("span", i % 3 ? "★" : "🎲", "spark");
      star.style.left = `${(i * 53) % 100}%`;
      star.style.animationDelay = `${(i % 6) * 120}ms`;
      return star;
    }),
  );
  box.hidden = false;
  setTimeout(() => (box.hidden = true), 2600);
}

function renderRanking() {
  $("ranking").hidden = !state.over;
  if (!state.over) return;
  $("ranking-list").replaceChildren(
    ...state.standings.map((s) => {
      const points = nt("{n} point", "{n} points", s.total);
      const li = element("li", `${s.name} · ${points}`, s.rank === 1 ? "winner" : "");
      li.value = s.rank;
      return li;
    }),
  );
  celebrate();
  $("review-button").hidden = !state.hints;
  $("rematch").hidden = !(mySeats.length || isHost) || rematchId !== null;
}

// --- rematch, links and this browser's list of games ------------------------------------------

function gameUrl(id) {
  return `${location.origin}/g/${encodeURIComponent(id)}${token ? `#t=${token}` : ""}`;
}

function goToRematch(id) {
  // The creator's invite links lead to the same seats of the rematch: only the game id changes.
  const invites = loadList(`kniffel.invites.${gameId}`, isInvite);
  if (invites.length) {
    const moved = invites.map((i) => ({ ...i, url: i.url.replace(`/g/${gameId}`, `/g/${id}`) }));
    saveJson(`kniffel.invites.${id}`, moved);
  }
  location.assign(gameUrl(id));
}

async function startRematch() {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/rematch?lang=${lang()}`, {
    method: "POST",
    headers: { "x-kniffel-token": token },
  });
  const body = await response.json();
  if (!response.ok) return showError(body.message);
  goToRematch(body.id);
}

function watchForRematch() {
  if (rematchTimer) return;
  let pause = 2000; // a table left open looks less and less often
  const look = async () => {
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/rematch`);
      const body = response.ok ? await response.json() : { id: null };
      if (body.id) {
        rematchId = body.id;
        const link = $("rematch-link");
        link.href = gameUrl(body.id);
        link.textContent = mySeats.length || isHost ? t("Join the rematch") : t("Watch the rematch");
        link.onclick = (event) => {
          event.preventDefault();
          goToRematch(body.id);
        };
        $("rematch-ready").hidden = false;
        $("rematch").hidden = true;
        return;
      }
    } catch {
      // Offline: look again later.
    }
    pause = Math.min(30000, pause * 1.5);
    rematchTimer = setTimeout(look, pause);
  };
  rematchTimer = setTimeout(look, 0);
}

function rememberGame() {
  const games = loadList(GAMES_KEY, (g) => isRecord(g) && typeof g.id === "string" && g.id !== gameId);
  const entry = {
    id: gameId,
    url: gameUrl(gameId),
    rules: state.rules.name,
    players: state.players.map((p) => p.name),
    over: state.over,
    seen: Date.now(),
  };
  saveJson(GAMES_KEY, [entry, ...games].slice(0, MAX_GAMES));
}

function renderInvites() {
  const invites = state.over ? [] : loadList(`kniffel.invites.${gameId}`, isInvite);
  const watch = { name: t("Watch link (view only)"), url: `${location.origin}/g/${encodeURIComponent(gameId)}` };
  $("invite-list").replaceChildren(
    ...[...invites, watch].map((invite) => {
      const li = element("li");
      const a = element("a", invite.name);
      a.href = invite.url;
      if (invite === watch) a.id = "watch-link";
      li.append(a);
      return li;
    }),
  );
}

// --- advice (shown only when the server has an advisor for these rules) -----------------------

function toggleHints() {
  if (!state || !state.hints) return;
  hintsOn = !hintsOn;
  localStorage.setItem(HINTS_KEY, hintsOn ? "1" : "0");
  render();
}

// With hints on, every position of the player to move is rated by the server's advisor.
async function askHints() {
  if (!hintsOn || !canAct() || !state.hints || queue.length || !state.turn.dice || hintAsked === state.seq) return;
  hintAsked = state.seq;
  const answer = await askJson(`/api/games/${encodeURIComponent(gameId)}/hints?lang=${lang()}`, {
    headers: { "x-kniffel-token": token },
  });
  if (answer.preparing || answer.retry) {
    // the server solves the table the first time, or is busy: say so, ask again after a pause
    hintAsked = -1;
    showPreparing("hints", answer.preparing);
    showEstimate(answer.body);
    hintBackoff.later(() => state && askHints(), Boolean(answer.preparing));
    return;
  }
  if (!answer.ok) return showError(answer.body?.message ?? "");
  hintBackoff.reset();
  showPreparing("hints", null);
  const body = answer.body;
  if (!state || body.seq !== state.seq) return;
  showHintData(body);
}

// The hints of the position on screen (exact, or the quick bot's order): the list, the starred box or
// roll button, and the dice the best one keeps.
function showHintData(data) {
  hintData = data;
  renderHints();
  renderSheet();
  markBestRoll();
  markKept(bestKept());
}

// While the table is solved, the quick bot's order of the options (no figures: its scores are not
// points to come): a best move at once, starred as the exact hints star theirs, until they come.
function showEstimate(body) {
  const estimate = body && Array.isArray(body.estimate) ? body.estimate : [];
  if (!estimate.length || !state || body.seq !== state.seq) return;
  showHintData({ seq: body.seq, options: estimate, estimate: true });
}

// The dice a roll option keeps ("roll keep 6 6"), as indices of the dice on the table; null for others.
function keptBy(action) {
  const words = action.split(" ");
  if (!/^(roll|free)$/.test(words[0]) || !placed.faces) return null;
  const wanted = words.slice(2).map(Number);
  const indices = [];
  placed.faces.forEach((face, i) => {
    const k = wanted.indexOf(face);
    if (k >= 0) {
      wanted.splice(k, 1);
      indices.push(i);
    }
  });
  return indices;
}

// Take a hint: a roll holds the dice it keeps and rolls (a score pad only holds them: the roll is
// entered); an entry is made.
function takeHint(option) {
  if (!canAct()) return;
  const kept = keptBy(option.action);
  if (kept) {
    placed.held = new Set(kept);
    dicePlaces.keep(placed.seq, placed.faces, placed.held);
    if (state.pad) return render();
    return roll(option.action.startsWith("free") ? "free" : "roll");
  }
  armed = null;
  send(option.action);
}

function renderHints() {
  if (!hintData || !state) return;
  const estimate = Boolean(hintData.estimate);
  const pointsOnly = !estimate && state.players.length > 1 && hintData.options.every((o) => o.win === undefined);
  $("hints-note").hidden = !pointsOnly;
  $("hints-estimate").hidden = !estimate;
  $("hint-list").classList.toggle("estimate", estimate);
  $("hint-list").replaceChildren(
    ...hintData.options.map((o, n) => {
      let text = estimate ? o.text : `${o.text} · ` + t("{points} points to come", { points: number(o.value, 1) });
      if (o.win !== undefined) text += " · " + t("{chance} to win", { chance: chance(o.win) });
      const button = element("button", text, n === 0 ? "hint best" : "hint");
      button.type = "button";
      button.dataset.action = o.action;
      const point = () => markKept(keptBy(o.action));
      const leave = () => markKept(bestKept());
      button.addEventListener("click", () => takeHint(o));
      button.addEventListener("mouseenter", point);
      button.addEventListener("focus", point);
      button.addEventListener("mouseleave", leave);
      button.addEventListener("blur", leave);
      const li = element("li");
      li.append(button);
      return li;
    }),
  );
  $("hint-list").hidden = false;
  $("hints").hidden = false;
}

// The dice a hint keeps are marked (a dashed frame and "keep" over them): the best hint's while
// nothing else is pointed at, else those of the hint under the pointer or focus.
function markKept(indices) {
  const dice = [...$("dice").querySelectorAll(".die")];
  dice.forEach((die, i) => die.classList.toggle("keep", Boolean(indices && indices.includes(i))));
}

function bestKept() {
  const option = bestOption();
  return option ? keptBy(option.action) : null;
}

// While the server solves tables, the panel waiting for them says so, with how far it is.
function showPreparing(panel, preparing) {
  const el = $(`${panel}-preparing`);
  el.hidden = !preparing;
  if (!preparing) return;
  const what = {
    chances: t("Working out the chances of winning…"),
    hints: t("Solving the table for the hints…"),
    review: t("Working out the review…"),
  }[panel];
  const progress = preparing.progress === null ? "" : ` ${percent(preparing.progress)}`;
  el.querySelector(".what").textContent = preparing.note || `${what}${progress}${compilingNote(preparing)}`;
  const bar = el.querySelector("progress");
  bar.hidden = Boolean(preparing.note); // refused: nothing is under way
  if (preparing.progress === null) bar.removeAttribute("value");
  else bar.value = preparing.progress;
  if (panel !== "review") $(panel).hidden = false;
}

// Every player's chance of winning, for the position on screen (several players, rules the solver
// covers); the bars stay as they are until the new figures arrive.
function askChances() {
  if (chancesOff || !state.hints || state.players.length < 2 || queue.length) return;
  chancesAsker.want(state.seq);
}

// One ask for the chances (the page shows position `seq`): true once answered, false to ask again
// after a pause (busy, too many asks), PREPARING while the tables are solved (the panel says so, and
// the hints that they are for points only until then; asked again within a few seconds).
async function askChancesOf(seq) {
  const answer = await askJson(`/api/games/${encodeURIComponent(gameId)}/chances`);
  document.body.dataset.chancesAsks = String(Number(document.body.dataset.chancesAsks || 0) + 1);
  if (answer.status === 404) {
    chancesOff = true; // no chances for this table (one player, or rules the solver does not cover)
    showPreparing("chances", null);
    $("chances").hidden = true;
    return true;
  }
  if (answer.preparing || answer.retry || !answer.ok) {
    showPreparing("chances", answer.preparing);
    // queued behind other asks, nothing is solved for this page: back off as from a busy server
    return answer.preparing && !answer.body.preparing.queued ? PREPARING : false;
  }
  showPreparing("chances", null);
  if (state && answer.body.seq === state.seq) {
    renderChances(state.players, answer.body.chances);
    document.body.dataset.chancesSeq = String(state.seq);
  }
  return seq !== null;
}

// How this table's rules play, from the server's reading of the rule set (in the page's language).
async function showHowToPlay() {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/rules?lang=${lang()}`);
  const body = await response.json();
  if (!response.ok) return showError(body.message);
  const intro = t(
    "Each turn roll the dice up to {rolls} times, keeping the ones you like between rolls (tap them), then enter them in one free box of your sheet, or strike a box for 0. After {turns} rounds the highest total wins.",
    { rolls: state.rules.rolls, turns: body.turns },
  );
  const facts = document.createElement("dl");
  for (const [label, text] of body.facts) facts.append(element("dt", label), element("dd", text));
  const boxes = document.createElement("table");
  boxes.className = "rules-boxes";
  body.boxes.forEach(([label, scores], i) => {
    const row = document.createElement("tr");
    if (i === body.upper_boxes - 1) row.className = "end";
    row.append(element("th", label), element("td", scores));
    boxes.append(row);
  });
  $("how-to-play-body").replaceChildren(element("p", body.name, "rules-title"), element("p", intro), facts, boxes);
  const dialog = $("how-to-play");
  dialog.showModal();
  // It opens at its start, the introduction, not scrolled to the Close button at its end.
  $("how-to-play-title").focus();
  dialog.scrollTop = 0;
}

const reviewBackoff = new Backoff(2000, 15000);

async function showReview(tries = 0) {
  const answer = await askJson(`/api/games/${encodeURIComponent(gameId)}/review?lang=${lang()}`);
  // the server solves what the review needs (the first time), or is busy: say so, ask again later
  const waiting = answer.preparing || (answer.ok ? preparingOf({ preparing: answer.body.win_preparing }) : null);
  showPreparing("review", waiting);
  if (answer.retry && tries < 120) return reviewBackoff.later(() => state && showReview(tries + 1), Boolean(waiting));
  if (!answer.ok) return showError(answer.body?.message ?? "");
  const body = answer.body;
  keepReview(gameId, body.players); // the loss per choice of this browser's players, for their record
  // graded by points until the server has worked out the chances of winning: then ask again
  if (body.win_preparing && tries < 120) reviewBackoff.later(() => state && showReview(tries + 1), true);
  if (body.chances) drawChart(state.players, body.chances);
  // each player's figure: the average loss a decision and the level it matches, in the server's words
  $("review-figures").replaceChildren(...body.players.filter((p) => p.proficiency).map((p) => element("li", `${p.name}: ${p.proficiency.text}`)));
  // the server lists the decisions every front end lists (each against the best for its player's goal:
  // points, a target or winning), sums each player up and writes every figure; review.js shows them
  renderReview(body);
}

// --- the position as text ------------------------------------------------------------------------

// The position's text (kniffel.engine.situation.Situation), asked for while its panel is open: one ask at a
// time, for the newest position.
const situationAsker = new Coalesced(async (seq) => {
  const answer = await askJson(`/api/games/${encodeURIComponent(gameId)}/situation?lang=${lang()}`);
  if (answer.retry) return false;
  const text = answer.ok ? answer.body.situation : "";
  $("situation").value = text;
  $("situation").placeholder = answer.ok ? "" : answer.body?.message ?? "";
  $("analyse-link").href = text ? `/analysis#s=${encodeURIComponent(text)}` : "/analysis";
  document.body.dataset.situationSeq = String(answer.body?.seq ?? seq);
  return true;
});

async function copySituation() {
  const field = $("situation");
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy");
  }
  $("copy-situation").textContent = t("Copied");
  setTimeout(() => ($("copy-situation").textContent = t("Copy")), 2000);
}

// --- input ------------------------------------------------------------------------------------

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  const key = event.key.toLowerCase();
  if (key === " " || key === "r") {
    // Space on a focused button presses that button, as everywhere; elsewhere it rolls (and on a button
    // just disabled, as Undo is once it has taken its move back, a key would otherwise be lost).
    if (key === " " && target instanceof HTMLButtonElement && !target.disabled) return;
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
    toggleHints();
  } else if (key === "u") {
    undo();
  } else if (key === "l") {
    switchLanguage();
  }
}

async function switchLanguage() {
  await toggleLang();
  translatePage();
  setStatus($("connection").dataset.status || "connecting");
  // What the server says from now on comes in the new language: refusals, hints.
  if (socket && socket.readyState === WebSocket.OPEN && token) socket.send(JSON.stringify({ type: "hello", token, lang: lang() }));
  hintData = null;
  hintAsked = -1;
  if (state) render();
  document.body.dataset.lang = lang();
}

async function init() {
  onDropped(showError);
  seating = new Seating(gameId, token, showError);
  await loadWords();
  translatePage();
  document.body.dataset.lang = lang();
  $("lang").addEventListener("click", switchLanguage);
  $("roll").addEventListener("click", () => roll());
  $("free").addEventListener("click", () => roll("free"));
  $("strike-mode").addEventListener("click", () => setStrikeMode(!strikeMode));
  $("hint").addEventListener("click", toggleHints);
  $("undo").addEventListener("click", undo);
  $("position").addEventListener("toggle", () => state && $("position").open && situationAsker.want(state.seq));
  $("copy-situation").addEventListener("click", copySituation);
  $("rematch").addEventListener("click", startRematch);
  window.addEventListener("online", () => {
    showStatus();
    if (socket && socket.readyState === WebSocket.OPEN) flush();
  });
  window.addEventListener("offline", showStatus);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  queue = loadJson(QUEUE_KEY, [], isQueue);
  const cached = loadJson(STATE_KEY, null, isSavedState);
  if (cached) {
    // A score-pad table opened again without a connection: draw the last state and the queue.
    serverState = cached.state;
    mySeats = cached.seats;
    try {
      update();
    } catch {
      // Stored by another version, in a shape drawing cannot follow: wait for the server's state.
      serverState = null;
      mySeats = [];
      dropStored(STATE_KEY);
    }
  }
  $("review-button").addEventListener("click", () => showReview());
  $("how-to-play-button").addEventListener("click", showHowToPlay);
  $("sheet").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-act]");
    if (button) enterInBox(button.dataset.act, button.dataset.box);
  });
  document.addEventListener("keydown", onKey);
  // On a phone the dice and the roll button stay at the bottom of the screen: the sheet's totals stop
  // above them (the style sheet reads their height), never under them.
  new ResizeObserver(([entry]) => {
    document.documentElement.style.setProperty("--play-height", `${Math.ceil(entry.target.getBoundingClientRect().height)}px`);
  }).observe(document.querySelector(".play"));
  NARROW.addEventListener("change", () => state && renderSheet());
  window.addEventListener("resize", fitNames);
  connect();
}

init();
