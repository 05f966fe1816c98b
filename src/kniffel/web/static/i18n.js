// German and English texts of the web pages. Box labels come from the rule sets themselves.

const TEXT = {
  en: {
    title: "Kniffel",
    newGame: "New game",
    rules: "Rules",
    options: "Options",
    seats: "Players",
    seatName: "Name",
    human: "Human",
    bot: "Bot",
    addSeat: "Add player",
    remove: "Remove",
    hotseat: "Hot seat: everyone plays at this screen",
    pad: "Score pad: we roll real dice and enter them",
    create: "Create game",
    created: "Game created",
    inviteHelp: "Send each player their own link. Anyone with a link can play that seat.",
    openTable: "Open the table",
    copy: "Copy",
    copied: "Copied",
    spectate: "Watch",
    language: "Deutsch",
    roll: "Roll",
    freeThrow: "Free throw",
    rollsLeft: "Rolls left: {n}",
    freeThrowsTaken: "Free throws this turn: {n}",
    enterDice: "Enter the dice you rolled",
    enterRoll: "Enter roll",
    strikeMode: "Strike a box",
    strikeOn: "Striking: choose the box to cross out",
    held: "held",
    die: "Die {i}: {face}",
    dieHeld: "Die {i}: {face}, held",
    yourTurn: "Your turn, {name}",
    turnOf: "{name} is playing",
    botThinking: "{name} (bot) is playing",
    gameOver: "Game over",
    winner: "{names} wins!",
    winners: "Tie: {names}",
    round: "Round {n} of {of}",
    announced: "Announced: {box}",
    announce: "Announce {box}",
    score: "Enter {points} in {box}",
    strike: "Strike {box}",
    upperSum: "Upper sum",
    bonus: "Bonus",
    upperTotal: "Upper total",
    lowerSum: "Lower sum",
    extraBonus: "Extra bonus",
    freeThrows: "Free throws",
    lowerTotal: "Lower total",
    total: "Total",
    grandTotal: "Grand total",
    column: "Column {id}",
    log: "Game log",
    ranking: "Ranking",
    points: "{n} points",
    hints: "Hints",
    hint: "Hint",
    review: "Review",
    reviewLoss: "gave away {n}",
    best: "best",
    expected: "{n} points to come",
    invites: "Invite links",
    connecting: "Connecting…",
    reconnecting: "Connection lost, reconnecting…",
    connected: "Connected",
    spectator: "You are watching",
    shortcuts: "Keys: Space roll · 1-6 hold · F free throw · S strike · H hint · L language",
    sharpAtOnce: "All dice at once: figures score double",
    noGame: "This game does not exist.",
    act_roll: "rolls",
    act_keep: "keeps",
    act_free: "free throw",
    act_score: "scores",
    act_strike: "strikes",
    act_announce: "announces",
  },
  de: {
    title: "Kniffel",
    newGame: "Neues Spiel",
    rules: "Regeln",
    options: "Optionen",
    seats: "Mitspieler",
    seatName: "Name",
    human: "Mensch",
    bot: "Bot",
    addSeat: "Mitspieler hinzufügen",
    remove: "Entfernen",
    hotseat: "Alle spielen an diesem Bildschirm",
    pad: "Spielblock: wir würfeln echt und tragen die Würfel ein",
    create: "Spiel anlegen",
    created: "Spiel angelegt",
    inviteHelp: "Schicke jedem Mitspieler seinen eigenen Link. Wer den Link hat, spielt diesen Platz.",
    openTable: "Zum Spieltisch",
    copy: "Kopieren",
    copied: "Kopiert",
    spectate: "Zuschauen",
    language: "English",
    roll: "Würfeln",
    freeThrow: "Freiwurf",
    rollsLeft: "Noch {n} Würfe",
    freeThrowsTaken: "Freiwürfe in diesem Zug: {n}",
    enterDice: "Trage die gewürfelten Augen ein",
    enterRoll: "Wurf eintragen",
    strikeMode: "Feld streichen",
    strikeOn: "Streichen: wähle das Feld, das gestrichen wird",
    held: "gehalten",
    die: "Würfel {i}: {face}",
    dieHeld: "Würfel {i}: {face}, gehalten",
    yourTurn: "Du bist dran, {name}",
    turnOf: "{name} ist dran",
    botThinking: "{name} (Bot) ist dran",
    gameOver: "Spielende",
    winner: "{names} gewinnt!",
    winners: "Gleichstand: {names}",
    round: "Runde {n} von {of}",
    announced: "Angesagt: {box}",
    announce: "{box} ansagen",
    score: "{points} bei {box} eintragen",
    strike: "{box} streichen",
    upperSum: "Summe oben",
    bonus: "Bonus",
    upperTotal: "Gesamter oberer Teil",
    lowerSum: "Summe unten",
    extraBonus: "Extra-Bonus",
    freeThrows: "Freiwürfe",
    lowerTotal: "Gesamt unten",
    total: "Gesamtsumme",
    grandTotal: "Endsumme",
    column: "Spalte {id}",
    log: "Spielverlauf",
    ranking: "Rangliste",
    points: "{n} Punkte",
    hints: "Tipps",
    hint: "Tipp",
    review: "Auswertung",
    reviewLoss: "verschenkt {n}",
    best: "am besten",
    expected: "noch {n} Punkte erwartet",
    invites: "Einladungslinks",
    connecting: "Verbinde…",
    reconnecting: "Verbindung verloren, verbinde neu…",
    connected: "Verbunden",
    spectator: "Du schaust zu",
    shortcuts: "Tasten: Leertaste würfeln · 1-6 halten · F Freiwurf · S streichen · H Tipp · L Sprache",
    sharpAtOnce: "Alle Würfel auf einmal: Figuren zählen doppelt",
    noGame: "Dieses Spiel gibt es nicht.",
    act_roll: "würfelt",
    act_keep: "hält",
    act_free: "Freiwurf",
    act_score: "trägt ein",
    act_strike: "streicht",
    act_announce: "sagt an",
  },
};

const KEY = "kniffel.lang";

export function lang() {
  const saved = localStorage.getItem(KEY);
  if (saved === "de" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

export function setLang(value) {
  localStorage.setItem(KEY, value);
  document.documentElement.lang = value;
}

export function toggleLang() {
  setLang(lang() === "de" ? "en" : "de");
}

export function t(key, params = {}) {
  const text = TEXT[lang()][key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

export function boxLabel(box) {
  return lang() === "de" ? box.de : box.en;
}

// Fill every element carrying data-t="key" (text) or data-t-title / data-t-aria (attributes).
export function translatePage(root = document) {
  document.documentElement.lang = lang();
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-aria]")) el.setAttribute("aria-label", t(el.dataset.tAria));
}
