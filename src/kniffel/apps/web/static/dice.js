// The dice as they lie on the table. The server knows a throw's dice as a sorted list; this page keeps
// each die in its place: a throw leaves the dice it kept where they were (held still), the thrown ones
// fill the other places. Which dice lie where, and which are held, is kept in this browser for every
// position of the game lately shown (localStorage), so that a reload (a phone that locked) or an
// undo back to a position finds the dice where they lay, held as they were. The terminal game keeps
// its dice the same way (kniffel.apps.tui.dice.arranged).

import { isRecord, loadJson, saveJson } from "/static/storage.js";

const KEPT = 12; // positions remembered per game: enough to undo back to any of them

const isFaces = (value) => Array.isArray(value) && value.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
const isPlaces = (value) =>
  isRecord(value) &&
  Object.values(value).every(
    (p) => isRecord(p) && isFaces(p.faces) && Array.isArray(p.held) && p.held.every((i) => Number.isInteger(i) && i >= 0),
  );

// Where the `dice` of a throw that kept `keep` lie, and which are held: each kept die stays in its
// place and stays held (the held places are taken first, then any showing a kept face: a bot keeps
// faces, not places); the thrown dice fill the other places in order. `before` are the faces in their
// places before the throw (null before the turn's first). Where they cannot have given `dice`, the
// dice lie in order, the kept ones held. Returns {faces, held: Set of places, thrown: Set of places}.
export function arrange(before, held, dice, keep) {
  const order = [...dice].sort((a, b) => a - b);
  const left = [...keep];
  const stay = new Set();
  if (before && before.length === order.length) {
    const places = [...before.keys()].sort((a, b) => Number(held.has(b)) - Number(held.has(a)));
    for (const i of places) {
      const k = left.indexOf(before[i]);
      if (k >= 0) {
        left.splice(k, 1);
        stay.add(i);
      }
    }
  }
  if (!before || before.length !== order.length || left.length) {
    const rest = [...keep];
    const kept = new Set();
    order.forEach((face, i) => {
      const k = rest.indexOf(face);
      if (k >= 0) {
        rest.splice(k, 1);
        kept.add(i);
      }
    });
    return { faces: order, held: kept, thrown: new Set([...order.keys()].filter((i) => !kept.has(i))) };
  }
  const thrown = [...order];
  for (const i of stay) thrown.splice(thrown.indexOf(before[i]), 1);
  const faces = before.map((face, i) => (stay.has(i) ? face : thrown.shift()));
  return { faces, held: stay, thrown: new Set([...faces.keys()].filter((i) => !stay.has(i))) };
}

// The places of one game's dice, position by position, kept in this browser.
export class DicePlaces {
  constructor(gameId) {
    this.key = `kniffel.dice.${gameId}`;
    this.read = null; // read when first needed: by then the page says what it had to drop
  }

  get known() {
    if (this.read === null) this.read = loadJson(this.key, {}, isPlaces);
    return this.read;
  }

  // The faces and holds kept for position `seq`, if they are a way of laying out `dice`.
  at(seq, dice) {
    const kept = this.known[seq];
    if (!kept || !dice || kept.faces.length !== dice.length) return null;
    const sorted = [...kept.faces].sort((a, b) => a - b);
    if (sorted.some((face, i) => face !== dice[i])) return null;
    return { faces: kept.faces, held: new Set(kept.held.filter((i) => i < dice.length)) };
  }

  keep(seq, faces, held) {
    this.known[seq] = { faces, held: [...held].sort((a, b) => a - b) };
    for (const other of Object.keys(this.known)) if (Number(other) <= seq - KEPT || Number(other) > seq) delete this.known[other];
    saveJson(this.key, this.known);
  }
}
