// Asking the server for what it reads from solved tables (hints, chances, the review, an analysis).
//
// While a table is being solved such a route answers "preparing" instead of the figures, as
// {status: "preparing", preparing: {what, progress, seconds, compiling}} (kniffel.apps.web.advice.waiting; with
// queued: true when the server is too busy to start on it, advice.queued), or with
// {preparing: {...}} beside the answer's other fields (a review's win_preparing); preparingOf reads it.
// The page then says so with the progress and asks again after a pause that grows (backoff), as it does
// after "too many requests" (429) or "busy" (503).

import { t } from "/static/i18n.js";

const FIRST_PAUSE = 1500;
const LONGEST_PAUSE = 20000;
// While the server answers "preparing" it is solving for this page, and it gives up a solve nobody has
// asked about for 30 s (kniffel.apps.web.advice.ABANDON_AFTER): the page asks again within a few
// seconds, however long it has waited, so that the solve goes on and its result shows when it is there.
const PREPARING_PAUSE = 4000;

// What an answer says while its tables are solved: null when it is no such answer, else
// {progress: 0..1 or null, what: a sentence or "", compiling: seconds or null, note: a refusal or
// null}. compiling is set on the server's first use of a solver: it compiles the code the solve runs on
// first, and the progress waits.
export function preparingOf(body) {
  const found = body && typeof body === "object" ? body.preparing : null;
  if (!found || typeof found !== "object") return null;
  const progress = found.progress;
  const compiling = found.compiling;
  return {
    progress: typeof progress === "number" && Number.isFinite(progress) ? Math.min(1, Math.max(0, progress)) : null,
    what: typeof found.what === "string" ? found.what : "",
    compiling: typeof compiling === "number" && Number.isFinite(compiling) ? Math.max(0, compiling) : null,
    // the table cache's budget refused the solve: the server's note says so and how to raise it
    note: found.refused && typeof found.note === "string" ? found.note : null,
  };
}

// What a waiting panel adds on a first use, when the server compiles the solver before the solve can
// start: that it does, and for how long so far, rather than a progress that stands still ("" else).
export function compilingNote(preparing) {
  if (preparing.compiling === null) return "";
  const seconds = Math.round(preparing.compiling);
  // "0 s so far" reads like a clock that does not run: the count once there is one
  if (seconds < 1) return ` ${t("Compiling the solver first, only on its first use.")}`;
  return ` ${t("Compiling the solver first, only on its first use: {seconds} s so far", { seconds })}`;
}

// One GET of JSON: {status, body, preparing, retry} where retry says the server asked to be asked
// later (busy, too many requests, preparing). A lost connection counts as retry too.
export async function askJson(url, options = {}) {
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    return { status: 0, body: null, preparing: null, retry: true };
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const preparing = preparingOf(body);
  const retry = Boolean(preparing) || response.status === 429 || response.status === 503 || response.status >= 500;
  return { status: response.status, ok: response.ok && !preparing, body, preparing, retry };
}

// Pauses between asks that double up to a limit, and start again short once an answer came.
export class Backoff {
  constructor(first = FIRST_PAUSE, longest = LONGEST_PAUSE) {
    this.first = first;
    this.longest = longest;
    this.pause = first;
    this.timer = 0;
  }

  // Call `work` after the current pause (once: a later call replaces an earlier one); `preparing`: the
  // server said it is solving for this page, so after a few seconds at most.
  later(work, preparing = false) {
    clearTimeout(this.timer);
    this.timer = setTimeout(work, preparing ? Math.min(this.pause, PREPARING_PAUSE) : this.pause);
    this.pause = Math.min(this.longest, this.pause * 2);
  }

  reset() {
    clearTimeout(this.timer);
    this.pause = this.first;
  }
}

// Asks for the newest of a changing thing (the chances of the position on screen) with at most one
// ask in flight: a position that changes while an ask is out, or while the server asked for a pause, is
// asked for when that is over, and only the newest position is, however many went by meanwhile.
// What an ask of a Coalesced returns when the server is solving for it: ask again after a short pause.
export const PREPARING = "preparing";

export class Coalesced {
  constructor(ask, backoff = new Backoff()) {
    this.ask = ask; // async (key) => true when done with that key, false (or PREPARING): ask again after a pause
    this.backoff = backoff;
    this.busy = false; // an ask is out, or a pause is running
    this.wanted = null;
    this.done = null;
  }

  want(key) {
    this.wanted = key;
    if (!this.busy && key !== this.done) this.run();
  }

  async run() {
    this.busy = true;
    while (this.wanted !== null && this.wanted !== this.done) {
      const key = this.wanted;
      let finished = false;
      try {
        finished = await this.ask(key);
      } catch {
        finished = false;
      }
      if (finished !== true) {
        this.backoff.later(() => this.run(), finished === PREPARING);
        return; // still busy: the pause runs
      }
      this.done = key;
      this.backoff.reset();
    }
    this.busy = false;
  }
}
