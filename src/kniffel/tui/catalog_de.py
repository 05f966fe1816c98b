"""The full-screen game's words in German (registered on import)."""

from __future__ import annotations

from kniffel.i18n import register

CATALOG: dict[str, str] = {
    # keys
    "Roll": "Würfeln",
    "Hold": "Halten",
    "Fill box": "Eintragen",
    "Strike": "Streichen",
    "Announce": "Ansagen",
    "Free throw": "Freiwurf",
    "Undo": "Zurück",
    "Hints": "Tipps",
    "Chances": "Chancen",
    "Chances of winning: weighing...": "Gewinnchancen: werden abgewogen...",
    "Chances of winning: {shares}": "Gewinnchancen: {shares}",
    "chances of winning need several players and rules the exact solver covers": (
        "Gewinnchancen brauchen mehrere Spieler und Regeln, die der exakte Löser abdeckt"
    ),
    "Options (points to come, win chance)": "Möglichkeiten (kommende Punkte, Gewinnchance)",
    "Save": "Sichern",
    "Quit": "Ende",
    "Review": "Analyse",
    "Cancel": "Abbrechen",
    "Back": "Zurück",
    # the sheet
    "Box": "Feld",
    "Upper sum": "Summe oben",
    "Bonus": "Bonus",
    "Upper total": "Gesamt oben",
    "Extra bonus": "Extra-Bonus",
    "Free throws": "Freiwürfe",
    "Lower total": "Summe unten",
    "Total": "Gesamtsumme",
    "Grand total": "Endsumme",
    # the turn
    "Round {round} of {turns}": "Runde {round} von {turns}",
    "Game over": "Spiel vorbei",
    "{player} to move: roll (space)": "{player} ist am Zug: würfeln (Leertaste)",
    "{player} to move: {n} rolls left": "{player} ist am Zug: noch {n} Würfe",
    "{player} to move: 1 roll left": "{player} ist am Zug: noch 1 Wurf",
    "Announced: {box}": "Angesagt: {box}",
    "Free throws this turn: {n}": "Freiwürfe in diesem Zug: {n}",
    "A free throw is possible (f)": "Ein Freiwurf ist möglich (f)",
    "Announce a box (a) or roll on": "Ein Feld ansagen (a) oder weiterwürfeln",
    "held": "hält",
    "Space rolls, 1-{n} hold dice, enter scores, ? lists the keys.": (
        "Leertaste würfelt, 1-{n} halten Würfel, Enter trägt ein, ? zeigt alle Tasten."
    ),
    "Keys: space rolls (the held dice stay), 1-{n} or a click hold a die or let it go, the arrows move "
    "on the sheet, enter scores there, x strikes, a announces, f takes a free throw, u undoes, h shows "
    "every option with its value, w shows every player's chance of winning, r reviews the game, s saves, "
    "q leaves.": (
        "Tasten: Leertaste würfelt (gehaltene Würfel bleiben liegen), 1-{n} oder ein Klick halten einen "
        "Würfel oder geben ihn frei, die Pfeiltasten bewegen sich auf dem Block, Enter trägt dort ein, "
        "x streicht, a sagt an, f nimmt einen Freiwurf, u nimmt zurück, h zeigt jede Möglichkeit mit "
        "ihrem Wert, w zeigt die Gewinnchance jedes Spielers, r analysiert das Spiel, s sichert, q beendet."
    ),
    "Help": "Hilfe",
    "{player}: rolls {dice}": "{player}: würfelt {dice}",
    "{player}: keeps {kept} → {dice}": "{player}: hält {kept} → {dice}",
    "{player}: free throw → {dice}": "{player}: Freiwurf → {dice}",
    "{player}: announces {box}": "{player}: sagt {box} an",
    "{player}: strikes {box}": "{player}: streicht {box}",
    "{player}: scores {points} in {box}": "{player}: trägt {points} bei {box} ein",
    "Extra bonus: +{points}!": "Extra-Bonus: +{points}!",
    "Upper bonus: +{points}!": "Bonus oben: +{points}!",
    "{player} wins with {points} points.": "{player} gewinnt mit {points} Punkten.",
    "Tie: {players} share first place with {points} points.": (
        "Gleichstand: {players} teilen sich Platz eins mit {points} Punkten."
    ),
    "r: the review of the game; q: quit.": "r: Analyse des Spiels; q: Ende.",
    "Undone: {action} ({player}).": "Zurückgenommen: {action} ({player}).",
    "The bots' turns since then will be played again with the same dice.": (
        "Die Züge der Bots seitdem werden mit denselben Würfeln noch einmal gespielt."
    ),
    # mistakes
    "error: {message}": "Fehler: {message}",
    "move the cursor to a free box of {player}": "den Cursor auf ein freies Feld von {player} setzen",
    "roll first (space)": "erst würfeln (Leertaste)",
    "roll first: there is nothing to decide before the first throw": (
        "erst würfeln: vor dem ersten Wurf gibt es nichts zu entscheiden"
    ),
    "{box} does not take these dice; x strikes it": "{box} nimmt diese Würfel nicht; x streicht es",
    "expected {n} dice, e.g. {example}": "{n} Würfel erwartet, z. B. {example}",
    "nothing to undo": "nichts zurückzunehmen",
    "dice can't be re-rolled: only a score, strike or announcement can be undone": (
        "Würfe lassen sich nicht wiederholen: nur Eintragen, Streichen oder Ansagen kann "
        "zurückgenommen werden"
    ),
    # score pad, saving
    "Type the {n} dice you threw (esc: cancel)": "Die {n} geworfenen Würfel eingeben (Esc: abbrechen)",
    "Save the game to this file (esc: cancel)": "Das Spiel in diese Datei speichern (Esc: abbrechen)",
    "Saved to {path}; resume with: kniffel play --load {path}": (
        "Gespeichert in {path}; weiter mit: kniffel play --load {path}"
    ),
    "Game saved to {path}; resume with: kniffel play --load {path}": (
        "Spiel gespeichert in {path}; weiter mit: kniffel play --load {path}"
    ),
    "The game is saved in {path}.": "Das Spiel ist in {path} gespeichert.",
    "The game was not saved (play with --save FILE to keep it).": (
        "Das Spiel wurde nicht gespeichert (mit --save DATEI spielen, um es zu behalten)."
    ),
    "Loading the tables of the {bot} bot...": "Lade die Tabellen des Bots {bot}...",
    # hints and review
    "Thinking...": "Einen Moment...",
    "Options (expected points to come)": "Möglichkeiten (erwartete Punkte)",
    "best": "beste",
    "Values are estimates from single-column tables, not exact.": (
        "Die Werte sind Schätzungen aus Tabellen für einzelne Spalten, nicht exakt."
    ),
    "Reviewing the game...": "Werte das Spiel aus...",
    "No decisions to review yet.": "Noch keine Entscheidungen zum Auswerten.",
    "Review: expected points lost against the best decision": (
        "Auswertung: erwartete Punkte, die gegenüber der besten Entscheidung verloren gingen"
    ),
    "Decisions that cost points:": "Entscheidungen, die Punkte gekostet haben:",
    "No decision cost points.": "Keine Entscheidung hat Punkte gekostet.",
    "Player": "Spieler",
    "Decisions": "Entscheidungen",
    "Optimal": "Optimal",
    "Loss": "Verlust",
    "Accuracy": "Genauigkeit",
    "#": "#",
    "Round": "Runde",
    "Dice": "Würfel",
    "Chosen": "Gewählt",
    "Best": "Beste",
}

register("de", CATALOG)
