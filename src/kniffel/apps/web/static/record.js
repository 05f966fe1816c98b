// A player's record: the finished games of each person who played at this browser, kept here
// (localStorage) and never sent anywhere, with what they add up to. The figures mean what the terminal's
// record means (kniffel.services.record, `kniffel stats`): per player and rule set the games, wins, average and
// best score, Kniffels (five alike scored in its box, and every further one that earned the extra
// bonus), the upper bonus rate and the loss per choice in expected points over the reviewed games.
//
// The table page adds a game when it ends (keepGame: once per game and seat, however often the page is
// loaded; a game taken back from its end is taken out again), and the loss of each seat once the game's
// review has been shown (keepReview). The home page draws the record (recordview.js).

import { readList, saveJson } from "/static/storage.js";

export const RECORD_KEY = "kniffel.services.record";

const isCount = (value) => Number.isInteger(value) && value >= 0;
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isText = (value) => typeof value === "string" && value.length > 0;
const isTexts = (value) => isObject(value) && Object.values(value).every((v) => typeof v === "string");

// One stored game as this page reads it, or null when it does not fit (another version wrote it, or it
// was damaged): every figure the summaries add up must be there and make sense.
export function readGame(entry) {
  if (!isObject(entry) || !isText(entry.game) || !isCount(entry.seat) || !isText(entry.player)) return null;
  if (!isText(entry.rules) || !isTexts(entry.options ?? {}) || !isText(entry.finished)) return null;
  if (Number.isNaN(Date.parse(entry.finished))) return null;
  const { score, players, rank, kniffels, bonus } = entry;
  if (!Number.isInteger(score) || !isCount(players) || players < 1 || !isCount(rank) || rank < 1 || rank > players) return null;
  if (!isCount(kniffels) || typeof bonus !== "number" || !(bonus >= 0 && bonus <= 1)) return null;
  const reviewed = entry.decisions != null || entry.loss != null;
  if (reviewed && !(isCount(entry.decisions) && typeof entry.loss === "number" && Number.isFinite(entry.loss) && entry.loss >= 0)) return null;
  return {
    game: entry.game,
    seat: entry.seat,
    player: entry.player,
    finished: entry.finished,
    rules: entry.rules,
    options: entry.options ?? {},
    names: isTexts(entry.names) ? entry.names : {},
    five: isTexts(entry.five) ? entry.five : null,
    score,
    players,
    rank,
    kniffels,
    bonus,
    decisions: reviewed ? entry.decisions : null,
    loss: reviewed ? entry.loss : null,
  };
}

// Every recorded game, oldest first, and whether something unreadable was dropped (and removed).
export function loadRecord() {
  const { items, dropped } = readList(RECORD_KEY, readGame);
  return { games: items, dropped };
}

export function clearRecord() {
  try {
    localStorage.removeItem(RECORD_KEY);
  } catch {
    // Storage disabled: nothing was kept.
  }
}

let kept = false; // this page has kept its finished game

// Keep the finished game `state` (the server's) in the record of each person whose seat this browser
// holds (`seats`; bots have no record), once per game and seat. A finished game is final (no undo takes
// its last box back), so what is kept stays.
export function keepGame(id, state, seats) {
  if (!state.over || kept) return;
  const people = seats.filter((seat) => state.players[seat]?.kind === "human");
  if (!people.length) return; // no seat of this browser's (yet): look again next time
  kept = true;
  const { games } = loadRecord();
  const known = new Set(games.filter((g) => g.game === id).map((g) => g.seat));
  const fresh = people.filter((seat) => !known.has(seat)).map((seat) => entryOf(id, state, seat));
  if (fresh.length) saveJson(RECORD_KEY, [...games, ...fresh]);
}

function entryOf(id, state, seat) {
  const player = state.players[seat];
  const rank = state.standings.find((s) => s.name === player.name)?.rank ?? 1;
  const figures = state.figures?.[seat] ?? {};
  const five = state.rules.boxes.find((b) => b.id === state.rules.five_box);
  return {
    game: id,
    seat,
    player: player.name,
    finished: new Date().toISOString(),
    rules: state.rules.id,
    options: state.rules.options ?? {},
    names: state.rules.names ?? {},
    // the record's word for its five alike ("Yahtzees", "Yatzys"), else the box's own label
    five: state.rules.five_alike ?? (five ? { en: five.en, de: five.de } : null),
    score: player.total,
    players: state.players.length,
    rank,
    kniffels: figures.kniffels ?? 0,
    bonus: figures.bonus ?? 0,
  };
}

// The review of game `id` (the server's answer: each seat's graded choices and loss) gives the loss per
// choice of the seats recorded from it; a seat graded by anything but points keeps none.
export function keepReview(id, players) {
  if (!Array.isArray(players)) return;
  const { games } = loadRecord();
  let changed = false;
  for (const game of games) {
    const graded = game.game === id ? players.find((p) => isObject(p) && p.seat === game.seat) : null;
    if (!graded || graded.unit !== "points" || !isCount(graded.decisions) || typeof graded.loss !== "number") continue;
    if (game.decisions === graded.decisions && game.loss === graded.loss) continue;
    game.decisions = graded.decisions;
    game.loss = graded.loss;
    changed = true;
  }
  if (changed) saveJson(RECORD_KEY, games);
}

// The rule set a game was played by, as the record groups games: the id, and the options that differ
// from the rule set's defaults (`defaults`: option key -> default value, where known).
export function rulesetOf(game, defaults = {}) {
  const options = Object.entries(game.options)
    .filter(([key, value]) => defaults[key] !== value)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [game.rules, ...options.map(([key, value]) => `${key}=${value}`)].join(" ");
}

// Per player and rule set, in the order first played: what their games add up to (kniffel.services.record's
// summaries). `defaultsOf(rules)` gives a rule set's default options.
export function summaries(games, defaultsOf = () => ({})) {
  const groups = new Map();
  for (const game of games) {
    const key = JSON.stringify([game.player, rulesetOf(game, defaultsOf(game.rules))]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(game);
  }
  return [...groups.entries()].map(([key, list]) => {
    const [player, ruleset] = JSON.parse(key);
    const reviewed = list.filter((g) => g.loss !== null && g.decisions);
    const choices = reviewed.reduce((sum, g) => sum + g.decisions, 0);
    const sum = (figure) => list.reduce((total, g) => total + figure(g), 0);
    const last = list[list.length - 1];
    return {
      player,
      ruleset,
      names: last.names,
      five: last.five,
      games: list,
      count: list.length,
      average: sum((g) => g.score) / list.length,
      best: Math.max(...list.map((g) => g.score)),
      kniffels: sum((g) => g.kniffels),
      bonusRate: sum((g) => g.bonus) / list.length,
      won: list.filter((g) => g.players > 1 && g.rank === 1).length,
      reviewed: reviewed.length,
      lossPerChoice: choices ? reviewed.reduce((total, g) => total + g.loss, 0) / choices : null,
    };
  });
}
