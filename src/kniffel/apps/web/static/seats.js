// Playing online with friends: knowing it is your turn in another tab, a turn timer, and a table that does
// not stall when a friend leaves.
//
// * Your turn: the page's title says so, and (switched on at this browser) a short sound or a vibration
//   when the turn comes to you.
// * The turn timer the host set counts down beside the dice; when it runs out the quick bot finishes the
//   turn (the server decides, kniffel.apps.web.seating).
// * The host sees who is away and may hand an absent player's seat to a bot, and give it back; the
//   player, returning, finds a button to take the seat back.

import { $, element } from "/static/dom.js";
import { lang, nt, t } from "/static/i18n.js";
import { loadJson, saveJson } from "/static/storage.js";

const SIGNAL_KEY = "kniffel.signal";
const TIMERS = [30, 60, 120, 300];
const LOOK_AGAIN = 8000; // how often the host's panel looks who is at the table

// The host token of a game this browser created (home.js keeps it), or the page's own token if it is
// the host's.
export function hostTokenOf(gameId, token, isHost) {
  if (isHost) return token;
  const kept = loadJson(`kniffel.host.${gameId}`, null, (value) => typeof value === "string");
  return kept || "";
}

export class Seating {
  // gameId and the page's token; showError(text) says what went wrong.
  constructor(gameId, token, showError) {
    this.gameId = gameId;
    this.token = token;
    this.showError = showError;
    this.hostToken = "";
    this.mine = null; // whether it was this page's turn at the last state (null: no state yet)
    this.state = null;
    this.mySeats = [];
    this.seats = []; // the host's view: who is at the table
    this.tick = 0;
    this.look = 0;
    $("signal").checked = loadJson(SIGNAL_KEY, false, (v) => typeof v === "boolean");
    $("signal").addEventListener("change", () => saveJson(SIGNAL_KEY, $("signal").checked));
    $("timer-choice").addEventListener("change", () => this.setTimer());
    $("take-seat-back").addEventListener("click", () => {
      for (const player of this.handedSeats()) this.standIn(player.index, null, this.token);
    });
  }

  // Every state the page draws: the title, the signal, the timer, the host's panel, a stand-in's notice.
  update(state, mySeats, isHost, canAct) {
    this.state = state;
    this.mySeats = mySeats;
    this.hostToken = hostTokenOf(this.gameId, this.token, isHost);
    const mine = canAct;
    document.title = `${mine ? `● ${t("Your turn")} · ` : ""}Kniffel · ${state.rules.names[lang()] ?? state.rules.names.en}`;
    if (mine && this.mine === false) this.signal(); // the turn came to this page (not: the page opened)
    this.mine = mine;
    this.showTimer();
    this.showStandIn();
    this.showHost();
  }

  // A sound and a vibration, where this browser was asked for them (a switch beside the log).
  signal() {
    if (!$("signal").checked) return;
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch {
      // no sound here: the title says it
    }
    document.body.dataset.signals = String(Number(document.body.dataset.signals || 0) + 1);
  }

  // The time left of the turn under way, counted down each second.
  showTimer() {
    clearInterval(this.tick);
    const timer = this.state.timer;
    const el = $("turn-timer");
    const deadline = timer && !this.state.over ? timer.deadline : null;
    el.hidden = deadline === null;
    if (deadline === null) return;
    const draw = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const minutes = Math.floor(left / 60);
      const clock = `${minutes}:${String(left % 60).padStart(2, "0")}`;
      el.textContent = left ? t("{time} left for this turn", { time: clock }) : t("Time is up: the quick bot finishes the turn.");
      el.classList.toggle("urgent", left <= 10);
    };
    draw();
    this.tick = setInterval(draw, 1000);
  }

  // The seats of this page a bot was handed while their player was away.
  handedSeats() {
    return this.state.players.filter((p) => this.mySeats.includes(p.index) && p.stand_in === "away");
  }

  showStandIn() {
    const handed = this.handedSeats();
    const notice = $("stand-in-notice");
    notice.hidden = !handed.length || this.state.over;
    if (notice.hidden) return;
    const names = handed.map((p) => p.name).join(", ");
    $("stand-in-text").textContent = t("A bot plays for {name} while you were away.", { name: names });
  }

  // The host's panel: the turn timer, and who is away (their seat may go to a bot) or played by one.
  showHost() {
    const panel = $("host-panel");
    panel.hidden = !this.hostToken || this.state.over || this.state.hotseat;
    clearTimeout(this.look);
    if (panel.hidden) return;
    const choice = $("timer-choice");
    if (!choice.options.length) {
      choice.append(new Option(t("No timer"), ""), ...TIMERS.map((s) => new Option(s < 60 ? t("{n} s a turn", { n: s }) : nt("{n} minute a turn", "{n} minutes a turn", s / 60), String(s))));
    }
    choice.value = this.state.timer ? String(this.state.timer.seconds) : "";
    this.drawSeats();
    this.lookWhoIsHere();
  }

  async lookWhoIsHere() {
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(this.gameId)}/seats`, { headers: { "x-kniffel-token": this.hostToken } });
      if (response.ok) {
        this.seats = await response.json();
        this.drawSeats();
      }
    } catch {
      // offline: looked again later
    }
    clearTimeout(this.look);
    this.look = setTimeout(() => this.state && !$("host-panel").hidden && this.lookWhoIsHere(), LOOK_AGAIN);
  }

  drawSeats() {
    const list = $("away-list");
    const rows = [];
    for (const seat of this.seats) {
      if (!seat.person) continue;
      const name = this.state.players[seat.index]?.name ?? "?";
      const li = element("li");
      if (seat.stand_in) {
        li.append(element("span", t("A bot plays for {name}.", { name })), " ");
        const back = element("button", t("Give the seat back"));
        back.type = "button";
        back.dataset.seat = String(seat.index);
        back.addEventListener("click", () => this.standIn(seat.index, null, this.hostToken));
        li.append(back);
      } else if (!seat.present) {
        li.append(element("span", t("{name} is away.", { name })), " ");
        const hand = element("button", t("Let a bot play"));
        hand.type = "button";
        hand.dataset.seat = String(seat.index);
        hand.addEventListener("click", () => this.standIn(seat.index, "bot", this.hostToken));
        li.append(hand);
      } else {
        li.append(element("span", t("{name} is at the table.", { name }), "muted"));
      }
      rows.push(li);
    }
    list.replaceChildren(...rows);
  }

  async standIn(seat, kind, token) {
    if (seat === null || seat === undefined) return;
    const url = `/api/games/${encodeURIComponent(this.gameId)}/seats/${seat}/stand-in?lang=${lang()}`;
    const options = kind
      ? { method: "POST", headers: { "x-kniffel-token": token, "content-type": "application/json" }, body: JSON.stringify({ kind }) }
      : { method: "DELETE", headers: { "x-kniffel-token": token } };
    await this.ask(url, options);
    if (!$("host-panel").hidden) this.lookWhoIsHere();
  }

  async setTimer() {
    const value = $("timer-choice").value;
    const url = `/api/games/${encodeURIComponent(this.gameId)}/timer?lang=${lang()}`;
    const body = JSON.stringify({ seconds: value ? Number(value) : null });
    await this.ask(url, { method: "PUT", headers: { "x-kniffel-token": this.hostToken, "content-type": "application/json" }, body });
  }

  async ask(url, options) {
    try {
      const response = await fetch(url, options);
      if (!response.ok) this.showError((await response.json()).message ?? response.statusText);
    } catch {
      this.showError(t("Offline: try again once the connection is back."));
    }
  }
}
