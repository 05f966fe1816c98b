// What the pages keep in this browser (localStorage): the offline queue and last state of a score-pad
// table, the invite links, the list of games, the players' record (record.js).
// Stored data may come from another version of this page, or be damaged: each reader says what shape
// it needs, and what does not fit is dropped (with a message) instead of leaving the table blank.

import { t } from "/static/i18n.js";

let storageDropped = false;
let dropNotice = () => {};

// What to call (once) when something stored had to be dropped: the page says so.
export function onDropped(notice) {
  dropNotice = notice;
}

export function loadJson(key, fallback, fits = () => true) {
  let value;
  try {
    const text = localStorage.getItem(key);
    if (text === null) return fallback;
    value = JSON.parse(text);
  } catch {
    value = undefined; // not JSON, or storage is disabled
  }
  if (value !== undefined && fits(value)) return value;
  dropStored(key);
  return fallback;
}

export function dropStored(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage disabled: there is nothing to drop.
  }
  if (!storageDropped) dropNotice(t("What this browser had saved for this table could not be read and was dropped."));
  storageDropped = true;
}

const isCount = (value) => Number.isInteger(value) && value >= 0;
export const isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isDice = (value) => Array.isArray(value) && value.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);

// The offline queue as send() writes it: each entry a roll or free throw with the dice entered, or a
// box, made at a position. One entry that does not fit spoils the rest, which follow from it.
export function isQueue(value) {
  return Array.isArray(value) && value.every((entry) => {
    if (!isRecord(entry) || !isCount(entry.at) || !isCount(entry.seat) || !isRecord(entry.action)) return false;
    const { action, keep, dice, box } = entry.action;
    if (action === "roll" || action === "free") return isDice(dice) && (keep === undefined || isDice(keep));
    return ["score", "strike", "announce"].includes(action) && typeof box === "string";
  });
}

// The last state of a score-pad table as receive() writes it, with what drawing it reads.
export function isSavedState(value) {
  if (!isRecord(value) || !Array.isArray(value.seats) || !value.seats.every(isCount)) return false;
  const s = value.state;
  return (
    isRecord(s) && isCount(s.seq) && isCount(s.current) && isCount(s.round) &&
    isRecord(s.rules) && Array.isArray(s.rules.boxes) && Array.isArray(s.rules.columns) && isCount(s.rules.dice) &&
    Array.isArray(s.players) && s.current < s.players.length &&
    s.players.every((p) => isRecord(p) && typeof p.name === "string" && isRecord(p.entries)) &&
    s.players.every((p) => Array.isArray(p.columns)) &&
    isRecord(s.turn) && (s.turn.dice === null || isDice(s.turn.dice)) && Array.isArray(s.log) &&
    isRecord(s.placements) && Array.isArray(s.strikeable) && Array.isArray(s.announce) && Array.isArray(s.standings)
  );
}

// A stored list whose entries are read one by one: the entries that do not fit are left out.
export function loadList(key, fits) {
  return loadJson(key, [], Array.isArray).filter(fits);
}

// A stored list read entry by entry, `read` giving an entry's reading or null when it does not fit:
// the readings, and whether anything was dropped. What does not fit is removed from storage (the rest
// kept as it was), so that it is reported once.
export function readList(key, read) {
  let stored;
  try {
    const text = localStorage.getItem(key);
    if (text === null) return { items: [], dropped: false };
    stored = JSON.parse(text);
  } catch {
    stored = undefined; // not JSON, or storage is disabled
  }
  const entries = Array.isArray(stored) ? stored : [];
  const kept = entries.map((entry) => [entry, read(entry)]).filter(([, item]) => item);
  const dropped = kept.length < entries.length || !Array.isArray(stored);
  if (dropped) {
    try {
      if (kept.length) localStorage.setItem(key, JSON.stringify(kept.map(([entry]) => entry)));
      else localStorage.removeItem(key);
    } catch {
      // Storage disabled or full: the list is read again (and cleaned) next time.
    }
  }
  return { items: kept.map(([, item]) => item), dropped };
}

export const isInvite = (invite) => isRecord(invite) && typeof invite.name === "string" && typeof invite.url === "string";

export function saveJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the page still works, it just forgets on reload.
  }
}
