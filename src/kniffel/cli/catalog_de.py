# ruff: noqa: E501  (a catalog reads best one sentence a line)
"""German words of the command line, registered with :mod:`kniffel.i18n` when the CLI is imported.

:data:`UI` holds what the command line writes itself: help texts (one paragraph a line), prompts,
tables and messages. :data:`ERRORS` holds the sentences of refusals, the library's and the command
line's, with their fields: :func:`kniffel.cli.language.error_text` reads a message as one of them.
The action grammar (``roll keep 3 3``, ``score chance``) is the same in every language: it is what
the prompt understands, so hints and examples keep it.
"""

from __future__ import annotations

from kniffel.i18n import register

HELP_DE = """\
Befehle (ein Feld ist seine Id, sein Name oder ein eindeutiger Anfang davon: "s full", "s 2:ch",
"s Dreierpasch"; jede Aktion, wie Tipps sie schreiben, wird verstanden: "roll keep 3 3", "score 2:chance"):
  roll, r               alle Würfel werfen (erster Wurf, oder alle neu)
  keep 3 3 5, k 3 3 5   diese Augen behalten (wie unter Würfel gezeigt), die anderen werfen
  score BOX, s BOX      die Würfel in das Feld BOX eintragen
  strike BOX, x BOX     0 in das Feld BOX eintragen (streichen)
  announce BOX, a BOX   ein Feld einer Ansage-Spalte ansagen (direkt nach dem ersten Wurf)
  free [keep 6 6], f    ein Freiwurf nach den regulären Würfen (Knöffel), mit den genannten Augen
  options, o            wohin die Würfel jetzt dürfen und was sie bringen
  hint [N]              die N besten Möglichkeiten (Standard 5) mit ihrem Wert, vom Löser
                        (und bei mehreren Spielern jeweils die Gewinnchance)
  chances, c            die Gewinnchance jedes Spielers von hier an (mehrere Spieler)
  review                jede Entscheidung bisher neben der besten, und was sie gekostet hat
  sheet, t              den Spielblock zeigen
  undo, u               die letzte Entscheidung zurücknehmen (eintragen, streichen, ansagen)
  save FILE             das Spiel in FILE speichern (weiter mit: kniffel play --load FILE)
  help, h, ?            dieser Text
  quit, q               aufhören (mit --save wird vorher gespeichert)"""

PAD_HELP_DE = """\
Spielblock (--pad): Sie werfen echte Würfel und tippen, was sie zeigen.
  1 3 3 5 6             die Augen, die jetzt liegen; was vorher schon lag, gilt als behalten
  roll 1 3 3 5 6        alle Würfel geworfen: jede Augenzahl tippen (auch: roll = 1 3 3 5 6)
  keep 3 3              3 3 behalten: das Programm fragt nach den Augen der geworfenen Würfel
  roll keep 3 3 = 1 3 3 4 6   3 3 behalten, der Wurf ergab 1 3 3 4 6
  free [keep 6 6]       ebenso für einen Freiwurf
  undo                  nimmt auch einen falsch getippten Wurf zurück"""

UI: dict[str, str] = {
    # --- help of the commands and options ---
    "Kniffel, Yahtzee, Yatzy and friends: rule sets, scoring and terminal play.": (
        "Kniffel, Yahtzee, Yatzy und Verwandte: Regelsätze, Wertung und Spielen im Terminal."
    ),
    "Show the version and exit.": "Die Version zeigen und beenden.",
    "Show this message and exit.": "Diese Hilfe zeigen und beenden.",
    "Language: en or de (default: from the locale, LANG).": (
        "Sprache: en oder de (Standard: aus der Locale, LANG)."
    ),
    "The built-in rule sets and their options; with an ID, that rule set in full: its sheet, how every "
    "box scores, bonuses, what a further five of a kind does, free throws and options.": (
        "Die eingebauten Regelsätze und ihre Optionen; mit einer ID dieser Regelsatz vollständig: sein "
        "Spielblock, wie jedes Feld zählt, Boni, was ein weiterer Fünferpasch bewirkt, Freiwürfe und Optionen."
    ),
    "A rule set to show in full (all are listed without).": (
        "Ein Regelsatz, der vollständig gezeigt wird (ohne: alle werden aufgelistet)."
    ),
    "Rule option key=value, repeatable (e.g. sharp=on).": (
        "Regeloption schlüssel=wert, wiederholbar (z. B. sharp=on)."
    ),
    "Print JSON instead of tables.": "JSON statt Tabellen ausgeben.",
    "Every box these dice may be scored in now, on this sheet, and what each pays.": (
        "Jedes Feld, in das diese Würfel jetzt auf diesem Spielblock dürfen, und was es bringt."
    ),
    'Boxes the rules forbid for this roll (the forced joker) are left out; "bonus" is what the roll earns '
    "on top in each box (an extra Kniffel).": (
        "Felder, die die Regeln für diesen Wurf verbieten (der Pflicht-Joker), fehlen; „Bonus“ ist, was der "
        "Wurf in jedem Feld zusätzlich bringt (ein weiterer Kniffel)."
    ),
    "The dice, if not given with --dice.": "Die Würfel, falls nicht mit --dice angegeben.",
    "Rule set id (see 'kniffel rules'); default: kniffel.": (
        "Id des Regelsatzes (siehe 'kniffel rules'); Standard: kniffel."
    ),
    "Filled boxes: box=points,... (a box by id or label; '-' for struck).": (
        "Gefüllte Felder: feld=punkte,... (ein Feld per Id oder Name; '-' für gestrichen)."
    ),
    "The dice: --dice 3 3 3 3 3, --dice 33333 or --dice 3,3,3,3,3.": (
        "Die Würfel: --dice 3 3 3 3 3, --dice 33333 oder --dice 3,3,3,3,3."
    ),
    "All dice came in one throw (the sharp option doubles).": (
        "Alle Würfel fielen in einem Wurf (die Option sharp verdoppelt)."
    ),
    "The box announced this turn.": "Das in diesem Zug angesagte Feld.",
    "Play a game in the terminal: humans and bots, 1 to 8 players. Type help during the game.": (
        "Ein Spiel im Terminal: Menschen und Bots, 1 bis 8 Spieler. Im Spiel zeigt help die Befehle."
    ),
    "A player, in turn order: a name for a human, 'bot' (bot:heuristic) or 'bot:optimal' for a bot. "
    "Repeat for each player (1 to 8).": (
        "Ein Spieler, in Zugreihenfolge: ein Name für einen Menschen, 'bot' (bot:heuristic) oder "
        "'bot:optimal' für einen Bot. Einmal je Spieler (1 bis 8)."
    ),
    "Seed for reproducible dice (and bots).": "Startwert für wiederholbare Würfe (und Bots).",
    "Print the result as JSON on stdout; a game with a human is shown on stderr, a game of bots only is "
    "not shown.": (
        "Das Ergebnis als JSON auf stdout ausgeben; ein Spiel mit einem Menschen wird auf stderr gezeigt, "
        "eines nur mit Bots nicht."
    ),
    "Resume a saved game (and keep saving to it unless --save names another file).": (
        "Ein gespeichertes Spiel fortsetzen (und weiter dorthin speichern, außer --save nennt eine andere "
        "Datei)."
    ),
    "Save the game to this file after every move.": "Das Spiel nach jedem Zug in diese Datei speichern.",
    "The line interface, not the full-screen game (always in scripts and pipes).": (
        "Die Zeilenansicht statt des Vollbildspiels (in Skripten und Pipes immer)."
    ),
    "Seconds between a bot's moves in the full-screen game.": (
        "Sekunden zwischen den Zügen eines Bots im Vollbildspiel."
    ),
    "Score pad: roll real dice and type what they show.": (
        "Spielblock: mit echten Würfeln werfen und eintippen, was sie zeigen."
    ),
    "The expected score of optimal play, solved exactly (one column of a multi-column sheet).": (
        "Die erwartete Punktzahl bei optimalem Spiel, exakt gelöst (eine Spalte eines mehrspaltigen Blocks)."
    ),
    'Tables are cached on disk ($KNIFFEL_CACHE_DIR or the user cache directory); "seconds" is the time of '
    "the dynamic programme alone, and for a cached table the time it took when it was built.": (
        "Tabellen werden auf der Platte zwischengespeichert ($KNIFFEL_CACHE_DIR oder das Cache-Verzeichnis "
        "des Benutzers); „seconds“ ist die Zeit der dynamischen Programmierung allein, bei einer "
        "gespeicherten Tabelle die Zeit ihrer Erstellung."
    ),
    "Multi-column rule sets: the column to solve (id, e.g. 1); needed when the columns differ.": (
        "Mehrspaltige Regelsätze: die zu lösende Spalte (Id, z. B. 1); nötig, wenn die Spalten sich "
        "unterscheiden."
    ),
    "Solve afresh; neither read nor write the table cache.": (
        "Neu lösen; den Tabellen-Cache weder lesen noch schreiben."
    ),
    "Every option in a situation with its value, best first.": (
        "Jede Möglichkeit einer Spielsituation mit ihrem Wert, die beste zuerst."
    ),
    "A value is the expected number of points still to come (this turn's included, the sheet's points "
    "excluded) when playing optimally from there, with --goal target:T the chance of finishing with at "
    'least T points, with --goal win the chance of finishing first. "roll keep D D" holds those dice and '
    'throws the others; "roll" throws all of them again ("free ..." for a free throw).': (
        "Ein Wert ist die erwartete Zahl der noch kommenden Punkte (dieser Zug eingeschlossen, die Punkte "
        "auf dem Block nicht) bei optimalem Weiterspiel, mit --goal target:T die Chance, mit mindestens "
        "T Punkten zu enden, mit --goal win die Chance, als Erster zu enden. „roll keep D D“ behält diese "
        "Würfel und wirft die anderen; „roll“ wirft alle neu („free ...“ für einen Freiwurf)."
    ),
    "What to play for: points (the most points on average; also: mean), target:T (the best chance of "
    "finishing with at least T points) or win (the best chance of finishing first, with --situation "
    "giving the other players' sheets).": (
        "Wofür gespielt wird: points (im Mittel die meisten Punkte; auch: mean), target:T (die beste "
        "Chance, mit mindestens T Punkten zu enden) oder win (die beste Chance, zu gewinnen; --situation "
        "gibt dann auch die Blöcke der anderen Spieler an)."
    ),
    "Regular throws still allowed this turn (0 to 2; default: all but the first, as right after a turn's "
    "first roll).": (
        "Reguläre Würfe, die in diesem Zug noch erlaubt sind (0 bis 2; Standard: alle außer dem ersten, wie "
        "direkt nach dem ersten Wurf eines Zuges)."
    ),
    "Whether the last throw was of all dice (sharp); default: only on a turn's first throw.": (
        "Ob der letzte Wurf alle Würfel umfasste (sharp); Standard: nur beim ersten Wurf eines Zuges."
    ),
    "Knöffel: free throws the column can still pay for, after those taken this turn (default: all).": (
        "Knöffel: Freiwürfe, die die Spalte nach denen dieses Zuges noch bezahlen kann (Standard: alle)."
    ),
    "Knöffel: free throws already taken this turn.": "Knöffel: in diesem Zug schon genommene Freiwürfe.",
    "Read one situation per line, as JSON or as a situation's text ('-' for stdin), and print one JSON "
    "line each; a bad line gets an error line and the batch goes on (exit 2).": (
        "Eine Situation je Zeile lesen, als JSON oder als Text einer Situation ('-' für stdin), und je eine "
        "JSON-Zeile ausgeben; eine fehlerhafte Zeile bekommt eine Fehlerzeile, und es geht weiter (Status 2)."
    ),
    "A whole situation as hints print it, of any rule set, e.g. "
    "'yahtzee | ones=3 yahtzee=50 | 2 2 3 5 5 | rolls left 1'.": (
        "Eine ganze Situation, wie Tipps sie schreiben, jedes Regelsatzes, z. B. "
        "'yahtzee | ones=3 yahtzee=50 | 2 2 3 5 5 | rolls left 1'."
    ),
    "Every decision of a saved game next to the best one, what it cost, and a grade per player.": (
        "Jede Entscheidung eines gespeicherten Spiels neben der besten, was sie gekostet hat, und eine Note "
        "je Spieler."
    ),
    "Loss is in expected points; accuracy is 100 * exp(-loss / (5 * turns)): 100 for optimal play, 82 when "
    "a player gives away 1 point a turn on average. Exact for the rule sets the solver covers; for the "
    "others the values are the optimal bot's estimates (the output says so).": (
        "Der Verlust ist in erwarteten Punkten; die Genauigkeit ist 100 * exp(-Verlust / (5 * Züge)): 100 "
        "bei optimalem Spiel, 82, wenn ein Spieler im Schnitt 1 Punkt je Zug verschenkt. Exakt für die "
        "Regelsätze, die der Löser abdeckt; sonst sind die Werte Schätzungen des optimalen Bots (die Ausgabe "
        "sagt es)."
    ),
    "A saved game (kniffel play --save FILE).": "Ein gespeichertes Spiel (kniffel play --save DATEI).",
    "List every decision, not only those that cost points.": (
        "Jede Entscheidung auflisten, nicht nur die, die Punkte gekostet haben."
    ),
    "Play many games with one strategy and report the distribution of final scores.": (
        "Viele Spiele mit einer Strategie spielen und die Verteilung der Endstände berichten."
    ),
    "bot:optimal (the solver's policy), bot (the heuristic), bot:win or bot:NAME; bot:optimal plays in "
    "compiled code, and so does bot on multi-column sheets without free throws.": (
        "bot:optimal (die Strategie des Lösers), bot (die Heuristik), bot:win oder bot:NAME; bot:optimal "
        "spielt in kompiliertem Code, ebenso bot auf mehrspaltigen Blöcken ohne Freiwürfe."
    ),
    "Number of games to play (1 to 10,000,000).": "Zahl der Spiele (1 bis 10.000.000).",
    "Seed; the same seed gives the same result.": "Startwert; derselbe Startwert gibt dasselbe Ergebnis.",
    "Draw a histogram of the final scores to this file (.png, .svg, .pdf).": (
        "Ein Histogramm der Endstände in diese Datei zeichnen (.png, .svg, .pdf)."
    ),
    "Write every game's final score to this CSV file (game, score).": (
        "Den Endstand jedes Spiels in diese CSV-Datei schreiben (game, score)."
    ),
    "Play in the browser: online tables with invite links, bots, hot seat and score pad.": (
        "Im Browser spielen: Online-Tische mit Einladungslinks, Bots, an einem Gerät und als Spielblock."
    ),
    "Address to listen on.": "Adresse, auf der der Server lauscht.",
    "Port to listen on.": "Port, auf dem der Server lauscht.",
    "SQLAlchemy URL (default: SQLite in the per-user data directory).": (
        "SQLAlchemy-URL (Standard: SQLite im Datenverzeichnis des Benutzers)."
    ),
    "Addresses or networks of reverse proxies whose X-Forwarded-For names the client, comma-separated (default: none; see docs/deploy.md).": (
        "Adressen oder Netze von Reverse-Proxys, deren X-Forwarded-For den Client nennt, durch Kommas getrennt (Standard: keine; siehe docs/deploy.md)."
    ),
    "Names the site answers to, comma-separated, e.g. kniffel.example.org (default: localhost and any IP address of this machine).": (
        "Namen, unter denen die Seite antwortet, durch Kommas getrennt, z. B. kniffel.example.org (Standard: localhost und jede IP-Adresse dieses Rechners)."
    ),
    "Bots against bots on the same dice: win rates with 95 % intervals, mean scores and a rating each.": (
        "Bots gegen Bots mit denselben Würfeln: Siegquoten mit 95-%-Intervallen, mittlere Endstände und eine "
        "Wertung je Bot."
    ),
    "A bot (bot, bot:optimal, bot:NAME); repeat for each player, at least two.": (
        "Ein Bot (bot, bot:optimal, bot:NAME); einmal je Spieler, mindestens zwei."
    ),
    "Games per pairing, each played twice, seats swapped.": (
        "Spiele je Paarung, jedes zweimal gespielt, mit getauschten Plätzen."
    ),
    "All players at one table, the seats rotated, not in pairs.": (
        "Alle Spieler an einem Tisch, die Plätze reihum getauscht, nicht paarweise."
    ),
    "Write the results to this CSV file.": "Die Ergebnisse in diese CSV-Datei schreiben.",
    "Draw win rates and ratings to this file (.png, .svg).": (
        "Siegquoten und Wertungen in diese Datei zeichnen (.png, .svg)."
    ),
    "Split the games into Ray tasks: 'local' (Ray on this machine) or a cluster's address "
    "(ray://host:10001). The same seed gives the same results. Needs the cluster extra of kniffel.": (
        "Die Spiele auf Ray-Aufgaben verteilen: 'local' (Ray auf diesem Rechner) oder die Adresse eines "
        "Clusters (ray://host:10001). Derselbe Startwert gibt dieselben Ergebnisse. Braucht das Extra "
        "cluster von kniffel."
    ),
    "ADDRESS|local": "ADRESSE|local",
    # --- Typer's own words ---
    "Usage: ": "Aufruf: ",
    "[OPTIONS]": "[OPTIONEN]",
    "KEY=VALUE": "SCHLÜSSEL=WERT",
    "BOX=POINTS,...": "FELD=PUNKTE,...",
    "BOX": "FELD",
    "DICE": "WÜRFEL",
    "FILE": "DATEI",
    "FILE.csv": "DATEI.csv",
    "PLAYER": "SPIELER",
    "COMMAND [ARGS]...": "BEFEHL [ARGUMENTE]...",
    "Options": "Optionen",
    "Arguments": "Argumente",
    "Commands": "Befehle",
    "Error": "Fehler",
    "Aborted.": "Abgebrochen.",
    "[default: {}]": "[Standard: {}]",
    "[env var: {}]": "[Umgebungsvariable: {}]",
    "[required]": "[nötig]",
    "Try [blue]'{command_path} {help_option}'[/] for help.": (
        "Hilfe: [blue]'{command_path} {help_option}'[/]"
    ),
    # --- play ---
    "kniffel: error: {message}": "kniffel: Fehler: {message}",
    "error: {message}": "Fehler: {message}",
    "Loading the tables of the {bot} bot...": "Lade die Tabellen des Bots {bot}...",
    "{rules}: type help for the commands.": "{rules}: help zeigt die Befehle.",
    "Bye.": "Tschüss.",
    "End of input.": "Ende der Eingabe.",
    "Interrupted.": "Abgebrochen.",
    "Game saved to {path}; resume with: kniffel play --load {path}": (
        "Spiel gespeichert in {path}; weiter mit: kniffel play --load {path}"
    ),
    "The game is saved in {path}.": "Das Spiel ist in {path} gespeichert.",
    "The game was not saved (play with --save FILE to keep it).": (
        "Das Spiel wurde nicht gespeichert (mit --save DATEI spielen, um es zu behalten)."
    ),
    "Final score": "Endstand",
    "Winner: {player}, with {points} points.": "Sieg: {player}, mit {points} Punkten.",
    "Tie: {players} share first place with {points} points.": (
        "Gleichstand: {players} teilen sich Platz eins mit {points} Punkten."
    ),
    "Review the game (y/N)? ": "Das Spiel auswerten (j/N)? ",
    "bonus": "Bonus",
    "upper bonus": "Bonus oben",
    "free throw, keep {kept} → {dice}": "Freiwurf, behält {kept} → {dice}",
    "free throw {dice}": "Freiwurf {dice}",
    "keep {kept} → {dice}": "behält {kept} → {dice}",
    "roll {dice}": "Wurf {dice}",
    "{box} announced": "{box} angesagt",
    "{box} struck": "{box} gestrichen",
    "{points} points in {box}": "{points} Punkte in {box}",
    "Round {round} of {turns}, {player} to play: roll (r) to throw.": (
        "Runde {round} von {turns}, {player} ist dran: roll (r) wirft."
    ),
    "1 roll left": "noch 1 Wurf",
    "{n} rolls left": "noch {n} Würfe",
    ", free throws this turn: {n}": ", Freiwürfe in diesem Zug: {n}",
    ", announced: {box}": ", angesagt: {box}",
    "Dice": "Würfel",
    "not rolled yet": "noch nicht geworfen",
    "Extra bonus: +{points}!": "Extra-Bonus: +{points}!",
    "Upper bonus: +{points}!": "Bonus oben: +{points}!",
    "Nothing thrown.": "Nichts geworfen.",
    "Type the {n} dice you threw (empty line: cancel): ": (
        "Die {n} geworfenen Würfel eintippen (leere Zeile: abbrechen): "
    ),
    " + {points} bonus": " + {points} Bonus",
    "no box takes these dice now": "kein Feld nimmt diese Würfel jetzt",
    "{n} roll(s) left: keep FACES or roll": "noch {n} Wurf/Würfe: keep AUGEN oder roll",
    "a free throw is possible: free [keep FACES]": "ein Freiwurf ist möglich: free [keep AUGEN]",
    "Loading the solver's tables...": "Lade die Tabellen des Lösers...",
    "Situation: {situation}": "Situation: {situation}",
    "Best options (value: expected points still to come):": (
        "Beste Möglichkeiten (Wert: erwartete noch kommende Punkte):"
    ),
    "best": "beste",
    "Reviewing the game...": "Werte das Spiel aus...",
    "No decisions to review yet.": "Noch keine Entscheidungen zum Auswerten.",
    "Saved to {path}; resume with: kniffel play --load {path}": (
        "Gespeichert in {path}; weiter mit: kniffel play --load {path}"
    ),
    "Undone for {player}: {action}.": "Zurückgenommen für {player}: {action}.",
    "The bots' turns since then will be played again with the same dice.": (
        "Die Züge der Bots seitdem werden mit denselben Würfeln noch einmal gespielt."
    ),
    "Values for this rule set are estimates built from single-column tables (bot:optimal's view), not "
    "exact.": (
        "Die Werte für diesen Regelsatz sind Schätzungen aus einspaltigen Tabellen (die Sicht von "
        "bot:optimal), nicht exakt."
    ),
    # --- review ---
    "Review: expected points lost against the best decision": (
        "Auswertung: erwartete Punkte, die gegenüber der besten Entscheidung verloren gingen"
    ),
    "Player": "Spieler",
    "Score": "Punkte",
    "Decisions": "Entscheidungen",
    "Optimal": "Optimal",
    "Loss": "Verlust",
    "Accuracy": "Genauigkeit",
    "Every decision": "Jede Entscheidung",
    "Decisions that cost points": "Entscheidungen, die Punkte gekostet haben",
    "No decision cost points.": "Keine Entscheidung hat Punkte gekostet.",
    "No decisions yet.": "Noch keine Entscheidungen.",
    "Round": "Runde",
    "Left": "Übrig",
    "Chosen": "Gewählt",
    "Best": "Beste",
    # --- advice and solving ---
    "Options, best first (value: expected points still to come)": (
        "Möglichkeiten, die beste zuerst (Wert: erwartete noch kommende Punkte)"
    ),
    "Action": "Aktion",
    "Value": "Wert",
    "Chance": "Chance",
    "Chances of winning after each round": "Gewinnchancen nach jeder Runde",
    "Chances of winning join the hints once their tables are ready (the first time they are solved in "
    "the background, in minutes; 'chances' waits for them).": (
        "Gewinnchancen erscheinen bei den Tipps, sobald ihre Tabellen bereit sind (beim ersten Mal werden "
        "sie im Hintergrund gelöst, in Minuten; 'chances' wartet auf sie)."
    ),
    "Chances of winning, each playing for points from here:": (
        "Gewinnchancen, wenn jeder von hier an auf Punkte spielt:"
    ),
    "Weighing the chances of winning (the first time: minutes)...": (
        "Wäge die Gewinnchancen ab (beim ersten Mal: Minuten)..."
    ),
    "Best options (value: expected points still to come; chance of winning):": (
        "Beste Möglichkeiten (Wert: erwartete noch kommende Punkte; Gewinnchance):"
    ),
    "Also grade each decision by the chance of winning it gave away, and show every player's chance "
    "after each turn (several players, rules the exact solver covers).": (
        "Jede Entscheidung auch nach der verschenkten Gewinnchance bewerten und die Chance jedes Spielers "
        "nach jedem Zug zeigen (mehrere Spieler, Regeln, die der exakte Löser abdeckt)."
    ),
    "Options, best first (chance of finishing with at least {target})": (
        "Möglichkeiten, die beste zuerst (Chance, mit mindestens {target} Punkten zu enden)"
    ),
    "Solving the chances of reaching {target} in {rules} (about {time}, in memory)": (
        "Löse die Chancen, {target} Punkte zu erreichen, in {rules} (etwa {time}, im Speicher)"
    ),
    "Solving the chances of {goal} in {rules}": "Löse die Chancen für {goal} in {rules}",
    "Options, best first (chance of winning)": "Möglichkeiten, die beste zuerst (Gewinnchance)",
    "states": "Zustände",
    # --- the table cache ---
    "The table cache: list what it holds, clear it, or solve the win tables before play.": (
        "Der Tabellen-Cache: zeigen, was er enthält, ihn leeren oder die Gewinntabellen vor dem Spiel lösen."
    ),
    "List what the table cache holds: rule set, kind, size and age of every table.": (
        "Zeigen, was der Tabellen-Cache enthält: Regelsatz, Art, Größe und Alter jeder Tabelle."
    ),
    "Delete tables from the cache (all of them without options); they are solved again when needed.": (
        "Tabellen aus dem Cache löschen (ohne Optionen alle); sie werden bei Bedarf neu gelöst."
    ),
    "Clear only the tables of this rule set (all options).": (
        "Nur die Tabellen dieses Regelsatzes löschen (alle Optionen)."
    ),
    "Clear only what this version no longer reads.": "Nur löschen, was diese Version nicht mehr liest.",
    "Solve a rule set's win tables now (what chances of winning, bot:win and target advice read early in a "
    "game), with progress, rather than in the background the first time a game needs them.": (
        "Die Gewinntabellen eines Regelsatzes jetzt lösen (was Gewinnchancen, bot:win und Rat für ein Ziel "
        "früh im Spiel lesen), mit Fortschrittsanzeige, statt im Hintergrund, wenn ein Spiel sie zum ersten "
        "Mal braucht."
    ),
    "Rule set id.": "Id des Regelsatzes.",
    "Rule option key=value, repeatable.": "Regeloption key=value, wiederholbar.",
    "The table cache: {path}": "Der Tabellen-Cache: {path}",
    "The table cache is empty: {path}": "Der Tabellen-Cache ist leer: {path}",
    "Rule set": "Regelsatz",
    "Kind": "Art",
    "Size": "Größe",
    "Age": "Alter",
    "{n} min": "{n} Min.",
    "{n} h": "{n} Std.",
    "{n} days": "{n} Tage",
    "expected scores": "erwartete Punkte",
    "win: target chances": "Gewinnen: Zielchancen",
    "win: final scores": "Gewinnen: Endpunktzahlen",
    "obsolete": "veraltet",
    "compiled kernels": "kompilierte Kernel",
    "obsolete compiled kernels": "veraltete kompilierte Kernel",
    "{size} in all. Clear it with: kniffel cache clear [--rules ID] [--obsolete]": (
        "Insgesamt {size}. Leeren mit: kniffel cache clear [--rules ID] [--obsolete]"
    ),
    "Cleared {count} tables, {size}.": "{count} Tabellen gelöscht, {size}.",
    "Left {rules} ({kind}): another process is writing it.": (
        "{rules} ({kind}) nicht gelöscht: ein anderer Prozess schreibt sie gerade."
    ),
    "The win tables of {rules} are ready.": "Die Gewinntabellen von {rules} sind bereit.",
    "Solving the win tables of {rules}": "Löse die Gewinntabellen von {rules}",
    "{what}: about {time}, {size} on disk.": "{what}: etwa {time}, {size} auf der Platte.",
    # --- tables solved in the background (kniffel.planning.worker) ---
    "Solving the win tables of {rules} (once; kept on disk)": (
        "Löse die Gewinntabellen von {rules} (einmal; sie bleiben auf der Platte)"
    ),
    "Solving the chances of a {rules} position": "Löse die Chancen einer {rules}-Stellung",
    "Solving the final scores of a {rules} position": "Löse die Endpunktzahlen einer {rules}-Stellung",
    "Solving the table of {rules}": "Löse die Tabelle von {rules}",
    "Loading the win tables of {rules}": "Lade die Gewinntabellen von {rules}",
    "{what}: about {cost}{done}. Points meanwhile.": "{what}: etwa {cost}{done}. Bis dahin Punkte.",
    "{time}, {size} on disk": "{time}, {size} auf der Platte",
    ", {percent} % done": ", {percent} % erledigt",
    "Chances of winning show once the win tables are solved ({what}: kniffel cache prepare --rules {rules}).": (
        "Gewinnchancen erscheinen, sobald die Gewinntabellen gelöst sind ({what}: kniffel cache prepare "
        "--rules {rules})."
    ),
    "Weighing the chances of winning...": "Die Gewinnchancen werden abgewogen...",
    "Type 'chances' again later.": "Später nochmals 'chances' eingeben.",
    "Solving {rules}": "Löse {rules}",
    "Solving {rules} (once, then cached)": "Löse {rules} (einmal, dann gespeichert)",
    "Solving the tables of {rules} (once, then cached)": (
        "Löse die Tabellen von {rules} (einmal, dann gespeichert)"
    ),
    "compiling the solver, first run only...": "übersetze den Löser, nur beim ersten Mal...",
    "sheets": "Spielblöcke",
    "games": "Spiele",
    ", one {order} column": ", eine Spalte ({order})",
    "cached table": "gespeicherte Tabelle",
    "solved": "gelöst",
    "{what}: expected score {score} ({how}, DP {seconds} s)": (
        "{what}: erwartete Punktzahl {score} ({how}, DP {seconds} s)"
    ),
    # --- score ---
    "{rules}, dice {dice}": "{rules}, Würfel {dice}",
    "No box takes these dice now.": "Kein Feld nimmt diese Würfel jetzt.",
    "Extra bonus for this roll: {points}": "Extra-Bonus für diesen Wurf: {points}",
    "Box": "Feld",
    "Label": "Name",
    "Points": "Punkte",
    "Bonus": "Bonus",
    # --- simulate ---
    "Playing {rules}": "Spiele {rules}",
    "{rules} ({strategy}): {games} games, mean {mean} (± {stderr}), sd {std}, {speed} games/s": (
        "{rules} ({strategy}): {games} Spiele, Mittel {mean} (± {stderr}), Standardabweichung {std}, "
        "{speed} Spiele/s"
    ),
    "Final scores: percentiles": "Endstände: Perzentile",
    "Histogram written to {path}": "Histogramm geschrieben nach {path}",
    "Scores written to {path}": "Endstände geschrieben nach {path}",
    "kniffel: interrupted after {done} of {total} games, stopped": (
        "kniffel: unterbrochen nach {done} von {total} Spielen, angehalten"
    ),
    "kniffel: interrupted after {done} of {total} games, its unfinished tasks cancelled": (
        "kniffel: unterbrochen nach {done} von {total} Spielen, die offenen Aufgaben abgebrochen"
    ),
    # --- tournament ---
    "Tournament {rules}": "Turnier {rules}",
    "{rules}: {games} games (one table, {deals} deals, seed {seed})": (
        "{rules}: {games} Spiele (ein Tisch, {deals} Würfelfolgen, Startwert {seed})"
    ),
    "{rules}: {games} games (every pairing, {deals} deals, seed {seed})": (
        "{rules}: {games} Spiele (jede Paarung, {deals} Würfelfolgen, Startwert {seed})"
    ),
    "Pairings": "Paarungen",
    "player": "Spieler",
    "opponent": "Gegner",
    "rating": "Wertung",
    "W/T/L": "S/U/N",
    "win rate": "Siegquote",
    "mean": "Mittel",
    "points": "Punkte",
    "W/T/L: games won, tied for first place, lost; points: the player's mean score less the opponent's. "
    "Each game is played once from every seat with the same dice (twice in a pairing, seats swapped). "
    "A shared first place counts as an equal share of a win (half a win each of two). Win rates with "
    "95 % Wilson intervals; ratings on the Elo scale (400 points = 10:1 odds), fitted by Bradley-Terry "
    "maximum likelihood, mean 1500, ± one standard error.": (
        "S/U/N: Spiele gewonnen, unentschieden (Platz eins geteilt), verloren; Punkte: der mittlere Endstand "
        "des Spielers weniger dem des Gegners. Jedes Spiel wird von jedem Platz aus einmal mit denselben Würfeln "
        "gespielt (in einer Paarung zweimal, mit getauschten Plätzen). Ein geteilter erster Platz zählt als "
        "gleicher Anteil eines Siegs (bei zweien je ein halber Sieg). Siegquoten mit 95-%-Intervallen nach "
        "Wilson; Wertungen auf der Elo-Skala (400 Punkte = Chancen 10:1), geschätzt nach Bradley-Terry mit "
        "größter Likelihood, Mittel 1500, ± ein Standardfehler."
    ),
    "Table written to {path}": "Tabelle geschrieben nach {path}",
    "Plot written to {path}": "Grafik geschrieben nach {path}",
    # --- rules ---
    "Rule sets (--rules ID; 'kniffel rules ID' shows one in full)": (
        "Regelsätze (--rules ID; 'kniffel rules ID' zeigt einen vollständig)"
    ),
    "Id": "Id",
    "Name, source, dice": "Name, Quelle, Würfel",
    "Columns": "Spalten",
    "Boxes": "Felder",
    "{dice} dice, {rolls} rolls": "{dice} Würfel, {rolls} Würfe",
    "Options (--option key=value)": "Optionen (--option schlüssel=wert)",
    "Option": "Option",
    "Values": "Werte",
    "Default": "Standard",
    "Rule sets": "Regelsätze",
    "Meaning": "Bedeutung",
    "all": "alle",
    "free": "frei",
    "top-down": "von oben nach unten",
    "bottom-up": "von unten nach oben",
    "announced": "angesagt",
    " per column": " je Spalte",
    "Source": "Quelle",
    "{dice} dice, up to {rolls} rolls a turn": "{dice} Würfel, bis zu {rolls} Würfe je Zug",
    "Sheet": "Spielblock",
    "column {column}: {order}": "Spalte {column}: {order}",
    "any order": "beliebige Reihenfolge",
    "top to bottom": "von oben nach unten",
    "bottom to top": "von unten nach oben",
    "announced after the first roll": "nach dem ersten Wurf angesagt",
    "Upper bonus": "Bonus oben",
    "{bonus} when the upper boxes reach {threshold}{per_column}": (
        "{bonus}, wenn die oberen Felder {threshold} erreichen{per_column}"
    ),
    "Five alike again": "Noch ein Fünferpasch",
    "Free throws": "Freiwürfe",
    "{n}{per_column}, at most {per_turn} a turn; each one unused is worth {points} at the end": (
        "{n}{per_column}, höchstens {per_turn} je Zug; jeder ungenutzte zählt am Ende {points}"
    ),
    "Sharp": "Scharf",
    "figures thrown with all dice in one throw score double": (
        "Figuren, die mit allen Würfeln in einem Wurf fallen, zählen doppelt"
    ),
    "off": "aus",
    "German": "Deutsch",
    "Scores": "Wertung",
    " (as a joker: {points})": " (als Joker: {points})",
    # The descriptions of the rule sets and how their boxes score come from the library, in English;
    # those of the default rule set are translated here.
    "sum of the ones": "Summe der Einser",
    "sum of the twos": "Summe der Zweier",
    "sum of the threes": "Summe der Dreier",
    "sum of the fours": "Summe der Vierer",
    "sum of the fives": "Summe der Fünfer",
    "sum of the sixes": "Summe der Sechser",
    "sum of all dice": "Summe aller Würfel",
    "sum of all dice for at least three alike": "Summe aller Würfel bei mindestens drei gleichen",
    "sum of all dice for at least four alike": "Summe aller Würfel bei mindestens vier gleichen",
    "25 for three of one face and two of another": "25 für drei gleiche und zwei andere gleiche",
    "30 for four consecutive faces": "30 für vier aufeinanderfolgende Augenzahlen",
    "40 for five consecutive faces": "40 für fünf aufeinanderfolgende Augenzahlen",
    "50 for five alike": "50 für fünf gleiche",
    "Kniffel as Schmidt prints it: 13 boxes, 35 bonus at 63, a further Kniffel earns 50 and must go to the matching upper box if free (forced joker).": (
        "Kniffel, wie Schmidt es druckt: 13 Felder, 35 Bonus ab 63, ein weiterer Kniffel bringt 50 und muss "
        "in das passende obere Feld, wenn es frei ist (Pflicht-Joker)."
    ),
    "once the Kniffel box is filled, a further five alike must go to the matching upper box if it is free, else to any free lower box at full value (full house 25, straights 30 and 40), else for 0 to a free upper box (forced joker; fill orders and announcements decide first); +50 while the Kniffel box holds points, none once it is struck": (
        "ist das Kniffel-Feld gefüllt, muss ein weiterer Fünferpasch in das passende obere Feld, wenn es frei "
        "ist, sonst in ein freies unteres Feld zum vollen Wert (Full House 25, Straßen 30 und 40), sonst für 0 "
        "in ein freies oberes Feld (Pflicht-Joker; Füllreihenfolge und Ansagen gehen vor); +50, solange das "
        "Kniffel-Feld Punkte hat, keine, sobald es gestrichen ist"
    ),
    "a further Kniffel: 50 on the back and the forced joker (Schmidt), or 100 in any free box, 100 + dice in an upper box, and any other Kniffel is also a full house (Kniffel article (English translation))": (
        "ein weiterer Kniffel: 50 auf der Rückseite und der Pflicht-Joker (Schmidt), oder 100 in jedem freien "
        "Feld, 100 + Augen in einem oberen Feld, und jeder weitere Kniffel ist auch ein Full House "
        "(Kniffel-Artikel)"
    ),
    "figures thrown with all dice in one throw score double (Kniffel article (English translation): the sharp variant)": (
        "Figuren, die mit allen Würfeln in einem Wurf fallen, zählen doppelt (Kniffel-Artikel: die scharfe "
        "Variante)"
    ),
    "fill every free column top to bottom; in the top-down columns five alike before the five-of-a-kind box counts as what the box asks for, as a full house too, and a further one counts 100 (Kniffel article (English translation): strict Kniffel)": (
        "jede freie Spalte von oben nach unten füllen; in diesen Spalten zählt ein Fünferpasch vor dem "
        "Kniffel-Feld als das, was das Feld verlangt, auch als Full House, und ein weiterer zählt 100 "
        "(Kniffel-Artikel: strenger Kniffel)"
    ),
    "five alike is always a valid full house (Super Kniffel / Yahtzee rules: 'Some players count a Yahtzee as being a valid Full House')": (
        "fünf gleiche sind immer ein gültiges Full House (Super-Kniffel-/Yahtzee-Regeln: 'Some players count "
        "a Yahtzee as being a valid Full House')"
    ),
    "English": "Englisch",
    # --- solve --distribution ---
    "Also the exact distribution of the final score: percentiles and the chance of reaching each score (a table of every state, built once, then cached).": (
        "Auch die exakte Verteilung der Endpunktzahl: Perzentile und die Chance, jede Punktzahl zu erreichen "
        "(eine Tabelle aller Stände, einmal berechnet, dann gespeichert)."
    ),
    "Draw the distribution to FILE (.png, .svg, .pdf; implies --distribution).": (
        "Die Verteilung in DATEI zeichnen (.png, .svg, .pdf; schließt --distribution ein)."
    ),
    "Score distributions of {rules} (once, then cached)": "Punkteverteilungen von {rules} (einmal, dann gespeichert)",
    "{what}: expected score {score}, standard deviation {std} (exact, optimal play)": (
        "{what}: erwartete Punktzahl {score}, Standardabweichung {std} (exakt, optimales Spiel)"
    ),
    "Final score under optimal play: percentiles": "Endpunktzahl bei optimalem Spiel: Perzentile",
    "Chance of reaching a score": "Chance, eine Punktzahl zu erreichen",
    "{what}: final score under optimal play": "{what}: Endpunktzahl bei optimalem Spiel",
    "final score": "Endpunktzahl",
    "probability": "Wahrscheinlichkeit",
    "chance of at least this score": "Chance auf mindestens diese Punktzahl",
}

ERRORS: dict[str, str] = {
    # --- the command line's own ---
    "--lang is one of {languages}, got {value}": "--lang ist eines von {languages}, nicht {value}",
    "unknown command {command}; type help for the list": "unbekannter Befehl {command}; help zeigt die Liste",
    "dice are numbers 1 to {faces}, got {word}": "Würfel sind Zahlen von 1 bis {faces}, nicht {word}",
    "a die shows 1 to {faces}, got {face}": "ein Würfel zeigt 1 bis {faces}, nicht {face}",
    "expected {n} dice, got {got}": "{n} Würfel erwartet, {got} bekommen",
    "name a box, e.g. 'chance'": "ein Feld nennen, z. B. 'chance'",
    "no box {box} in {rules}; did you mean {boxes}?": "kein Feld {box} in {rules}; gemeint: {boxes}?",
    "no box {box} in {rules}; 'kniffel rules ID' lists the boxes": (
        "kein Feld {box} in {rules}; 'kniffel rules ID' listet die Felder"
    ),
    "{text} could be {boxes}; type more of the name": "{text} könnte {boxes} sein; mehr vom Namen tippen",
    "{key} is not in column {column}": "{key} ist nicht in Spalte {column}",
    "name the players: --player NAME for a human, --player bot for a bot (1 to 8)": (
        "die Spieler nennen: --player NAME für einen Menschen, --player bot für einen Bot (1 bis 8)"
    ),
    "name a box, e.g. 'score chance'; options lists where the dice may go": (
        "ein Feld nennen, z. B. 'score chance'; options zeigt, wohin die Würfel dürfen"
    ),
    "roll the dice first": "erst würfeln",
    "roll first: there is nothing to decide before the first throw": (
        "erst würfeln: vor dem ersten Wurf gibt es nichts zu entscheiden"
    ),
    "hint N: N is a number of options, got {value}": "hint N: N ist eine Anzahl, nicht {value}",
    "hint N: N is at least 1": "hint N: N ist mindestens 1",
    "save FILE: name the file": "save DATEI: die Datei nennen",
    "nothing to undo": "nichts zurückzunehmen",
    "dice can't be re-rolled: only a score, strike or announcement can be undone": (
        "Würfe lassen sich nicht wiederholen: nur Eintragen, Streichen oder Ansagen kann zurückgenommen werden"
    ),
    "name the faces to keep, e.g. keep 6 6 (roll throws all dice)": (
        "die zu behaltenden Augen nennen, z. B. keep 6 6 (roll wirft alle Würfel)"
    ),
    "after '=' come the dice the throw gave, e.g. roll keep 3 3 = 1 3 3 4 6": (
        "nach '=' kommen die Würfel des Wurfs, z. B. roll keep 3 3 = 1 3 3 4 6"
    ),
    "write the kept dice after 'keep': roll keep 3 3 = 1 3 3 4 6": (
        "die behaltenen Würfel nach 'keep' schreiben: roll keep 3 3 = 1 3 3 4 6"
    ),
    "the program rolls the dice; to keep some, type keep 3 3 (or play with --pad)": (
        "das Programm würfelt; um Würfel zu behalten, keep 3 3 tippen (oder mit --pad spielen)"
    ),
    "--load takes the rules and players from the saved game; leave out --rules/--option/--player": (
        "--load nimmt Regeln und Spieler aus dem gespeicherten Spiel; --rules/--option/--player weglassen"
    ),
    "the sheet is full: no box is left to score in": "der Block ist voll: kein Feld ist mehr frei",
    "the sheet is full: there is nothing to advise": "der Block ist voll: es gibt nichts zu raten",
    "{key} is not in an announced column": "{key} ist nicht in einer Ansage-Spalte",
    "{key} is already filled": "{key} ist schon gefüllt",
    "rolls left must be 0 to {most}, got {value}": "übrige Würfe müssen 0 bis {most} sein, nicht {value}",
    "--games is at most {most}, got {value}": "--games ist höchstens {most}, nicht {value}",
    "at most {most} games a simulation, got {value}": "höchstens {most} Spiele je Simulation, nicht {value}",
    "--plot {path}: the file name ends in one of {suffixes}": (
        "--plot {path}: der Dateiname endet auf eines von {suffixes}"
    ),
    "--plot needs matplotlib: pip install matplotlib": "--plot braucht matplotlib: pip install matplotlib",
    "is a folder, not a file": "ist ein Ordner, keine Datei",
    "the folder {folder} does not exist": "der Ordner {folder} existiert nicht",
    "cannot be written": "kann nicht geschrieben werden",
    "No such file or directory": "Datei oder Ordner nicht gefunden",
    "Permission denied": "Keine Berechtigung",
    "Is a directory": "Ist ein Ordner",
    "{path}: not a saved game": "{path}: kein gespeichertes Spiel",
    "{path}: not a saved game ({reason})": "{path}: kein gespeichertes Spiel ({reason})",
    "{path}: damaged dice record": "{path}: beschädigte Würfelaufzeichnung",
    "{path}: damaged dice record (drawn {drawn}, at most {most})": (
        "{path}: beschädigte Würfelaufzeichnung ({drawn} gezogen, höchstens {most})"
    ),
    "{path}: damaged bot list": "{path}: beschädigte Bot-Liste",
    "{url}: the folder {folder} does not exist": "{url}: der Ordner {folder} existiert nicht",
    "{url}: unknown kind of database {kind}": "{url}: unbekannte Art von Datenbank {kind}",
    "{url}: cannot connect ({reason})": "{url}: keine Verbindung ({reason})",
    "{url} is not a database URL (e.g. sqlite:///games.sqlite3 or postgresql+psycopg://user@host/kniffel)": (
        "{url} ist keine Datenbank-URL (z. B. sqlite:///games.sqlite3 oder "
        "postgresql+psycopg://user@host/kniffel)"
    ),
    "--batch reads the situations from the file; leave out --sheet/--dice/--rolls-left": (
        "--batch liest die Situationen aus der Datei; --sheet/--dice/--rolls-left weglassen"
    ),
    "--option needs a rule set: kniffel rules ID --option key=value": (
        "--option braucht einen Regelsatz: kniffel rules ID --option schlüssel=wert"
    ),
    "--situation gives the rules, sheet, dice and rolls left itself; leave out {options}": (
        "--situation gibt Regeln, Block, Würfel und übrige Würfe selbst an; {options} weglassen"
    ),
    "free throws come after the regular rolls: rolls left must be 0": (
        "Freiwürfe kommen nach den regulären Würfen: übrige Würfe müssen 0 sein"
    ),
    "free throws left must be 0 to {most}, got {value}": "übrige Freiwürfe müssen 0 bis {most} sein, nicht {value}",
    "free throws used must be 0 to {most}, got {value}": "genommene Freiwürfe müssen 0 bis {most} sein, nicht {value}",
    "the web app needs the web extra: pip install 'kniffel[web]' ({reason})": (
        "die Web-App braucht das Extra web: pip install 'kniffel[web]' ({reason})"
    ),
    "{player} chose an illegal action ({action}): {reason}": "{player} wählte eine unerlaubte Aktion ({action}): {reason}",
    "a situation is a JSON object with sheet, dice and rolls_left": (
        "eine Situation ist ein JSON-Objekt mit sheet, dice und rolls_left"
    ),
    "a situation needs dice and rolls_left": "eine Situation braucht dice und rolls_left",
    "unknown field(s): {fields}": "unbekannte Felder: {fields}",
    "{key} must be a whole number, got {value}": "{key} muss eine ganze Zahl sein, nicht {value}",
    "thrown_at_once must be true or false, got {value}": "thrown_at_once ist true oder false, nicht {value}",
    "at most {n} free throw(s) per turn, got {value}": "höchstens {n} Freiwurf/Freiwürfe je Zug, nicht {value}",
    "{rules} fills its column {order}: {boxes} cannot be filled yet": (
        "{rules} füllt seine Spalte {order}: {boxes} kann noch nicht gefüllt werden"
    ),
    "{rules} fills column {column} {order}: {boxes} cannot be filled yet": (
        "{rules} füllt Spalte {column} {order}: {boxes} kann noch nicht gefüllt werden"
    ),
    "top-down": "von oben nach unten",
    "bottom-up": "von unten nach oben",
    "rolls left must be 0 to {most} once the dice are showing, got {value}": (
        "übrige Würfe müssen 0 bis {most} sein, sobald Würfel liegen, nicht {value}"
    ),
    "rolls left must be a whole number, got {value}": "übrige Würfe müssen eine ganze Zahl sein, nicht {value}",
    "before the first roll there are no dice, {rolls} rolls left and nothing else": (
        "vor dem ersten Wurf gibt es keine Würfel, {rolls} übrige Würfe und sonst nichts"
    ),
    "unknown bot {bot}; choose one of: {choices}": "unbekannter Bot {bot}; zur Wahl: {choices}",
    "chances of winning need several players and rules the exact solver covers": (
        "Gewinnchancen brauchen mehrere Spieler und Regeln, die der exakte Löser abdeckt"
    ),
    "--by-win needs a game of several players on rules the exact solver covers": (
        "--by-win braucht ein Spiel mehrerer Spieler mit Regeln, die der exakte Löser abdeckt"
    ),
    "unknown goal {goal}; choose mean or target:T (T the final score to reach)": (
        "unbekanntes Ziel {goal}; zur Wahl: mean oder target:T (T die zu erreichende Endpunktzahl)"
    ),
    "a target is a whole number of points, as in target:250; got {goal}": (
        "ein Ziel ist eine ganze Punktzahl, wie in target:250; erhalten: {goal}"
    ),
    # --- Typer's ---
    "Missing command.": "Befehl fehlt.",
    "No such option: {option}": "Unbekannte Option: {option}",
    "No such command {command}.": "Unbekannter Befehl {command}.",
    "Missing option {option}.": "Fehlende Option {option}.",
    "Missing argument {argument}.": "Fehlendes Argument {argument}.",
    "Got unexpected extra argument ({argument})": "Unerwartetes zusätzliches Argument ({argument})",
    "Option {option} requires an argument.": "Option {option} braucht einen Wert.",
    "Invalid value for {option}: {reason}": "Ungültiger Wert für {option}: {reason}",
    "{value} is not a valid integer.": "{value} ist keine ganze Zahl.",
    "{value} is not in the range {range}.": "{value} liegt nicht im Bereich {range}.",
    # --- the library's ---
    "unknown rule set {rules}; choose one of: {choices}": "unbekannter Regelsatz {rules}; zur Wahl: {choices}",
    "{rules} has no option {option}; options: {options}": "{rules} hat keine Option {option}; Optionen: {options}",
    "option {option} must be one of {values}, got {value}": "Option {option} muss eines von {values} sein, nicht {value}",
    "an option is key=value, got {value}": "eine Option ist schlüssel=wert, nicht {value}",
    "{rules} has no column {column}; columns: {columns}": "{rules} hat keine Spalte {column}; Spalten: {columns}",
    "{rules} has different columns ({columns}); choose one with --column": (
        "{rules} hat verschiedene Spalten ({columns}); eine mit --column wählen"
    ),
    "no box {box} in {rules}; boxes: {boxes}": "kein Feld {box} in {rules}; Felder: {boxes}",
    "dice must be a list of {n} faces, got {value}": "Würfel sind eine Liste von {n} Augenzahlen, nicht {value}",
    "a sheet entry is box=points, got {item}": "ein Eintrag ist feld=punkte, nicht {item}",
    "box {key} is given twice": "Feld {key} ist doppelt angegeben",
    "points for {key} must be a whole number, got {value}": "Punkte für {key} müssen eine ganze Zahl sein, nicht {value}",
    "{key} cannot hold {points} points under {rules}": "{key} kann unter {rules} nicht {points} Punkte haben",
    "a game has 1 to {most} players, got {n}": "ein Spiel hat 1 bis {most} Spieler, nicht {n}",
    "every player needs a name": "jeder Spieler braucht einen Namen",
    "player names must differ": "Spielernamen müssen sich unterscheiden",
    "the game is over": "das Spiel ist vorbei",
    "the game is over: no player is to move": "das Spiel ist vorbei: niemand ist am Zug",
    "no rolls left ({rolls} per turn): score or strike a box": (
        "keine Würfe mehr ({rolls} je Zug): ein Feld füllen oder streichen"
    ),
    "{rules} has no free throws": "{rules} hat keine Freiwürfe",
    "a free throw comes after the regular rolls": "ein Freiwurf kommt nach den regulären Würfen",
    "at most {n} free throw(s) per turn": "höchstens {n} Freiwurf/Freiwürfe je Zug",
    "no free throws left": "keine Freiwürfe mehr",
    "{box} is already announced": "{box} ist schon angesagt",
    "announce right after the first roll": "direkt nach dem ersten Wurf ansagen",
    "column {column} has no free throws left to pay for this turn's": (
        "Spalte {column} hat keine Freiwürfe mehr, um die dieses Zuges zu bezahlen"
    ),
    "{box} is announced: score it or strike a box": "{box} ist angesagt: eintragen oder ein Feld streichen",
    "{box} can only be filled after announcing it": "{box} kann nur nach einer Ansage gefüllt werden",
    "column {column} is filled {order}: {box} is not next": (
        "Spalte {column} wird {order} gefüllt: {box} ist nicht an der Reihe"
    ),
    "the joker rule sends these dice elsewhere: {boxes}": "die Joker-Regel schickt diese Würfel anderswohin: {boxes}",
    "{box} cannot be struck now; allowed: {boxes}": "{box} kann jetzt nicht gestrichen werden; erlaubt: {boxes}",
    "nothing to keep before the first roll": "vor dem ersten Wurf gibt es nichts zu behalten",
    "can only keep dice that are showing: {dice}": "nur liegende Würfel lassen sich behalten: {dice}",
    "keeping every die leaves nothing to roll; score or strike a box instead": (
        "wer alle Würfel behält, hat nichts zu werfen; stattdessen ein Feld füllen oder streichen"
    ),
    "the rolled dice must include the kept ones": "die geworfenen Würfel müssen die behaltenen enthalten",
    "{action} is not allowed now": "{action} ist jetzt nicht erlaubt",
    "a saved game is a JSON object": "ein gespeichertes Spiel ist ein JSON-Objekt",
    "unsupported save format {format}": "nicht unterstütztes Speicherformat {format}",
    "saved game lacks {field}": "dem gespeicherten Spiel fehlt {field}",
    "players and actions must be lists": "players und actions müssen Listen sein",
    "action {number}: a saved roll must record its dice": "Aktion {number}: ein gespeicherter Wurf braucht seine Würfel",
    "action {number} ({action}) is illegal: {reason}": "Aktion {number} ({action}) ist nicht erlaubt: {reason}",
    "the saved totals do not match the replayed game": "die gespeicherten Summen passen nicht zum nachgespielten Spiel",
    "not JSON: {reason}": "kein JSON: {reason}",
    "the saved rule set is damaged: {reason}": "der gespeicherte Regelsatz ist beschädigt: {reason}",
    "unknown action {action}; actions: {actions}": "unbekannte Aktion {action}; Aktionen: {actions}",
    "expected 'keep' after {word}, got {got}": "'keep' nach {word} erwartet, nicht {got}",
    "{word} takes one box, e.g. '{example}'": "{word} nimmt ein Feld, z. B. '{example}'",
    "dice are numbers 1-6, got {dice}": "Würfel sind Zahlen von 1 bis 6, nicht {dice}",
    "the number of games must be a positive whole number, got {value}": (
        "die Zahl der Spiele muss eine positive ganze Zahl sein, nicht {value}"
    ),
    "unknown strategy {strategy}; choose one of: {choices}": "unbekannte Strategie {strategy}; zur Wahl: {choices}",
    "the situation has no dice yet: advice starts after the turn's first roll": (
        "die Situation hat noch keine Würfel: Rat gibt es nach dem ersten Wurf eines Zuges"
    ),
    "a situation starts with its rule set id, e.g. 'kniffel'": "eine Situation beginnt mit der Id ihres Regelsatzes, z. B. 'kniffel'",
    "the situation must say how many rolls are left: 'rolls left N'": (
        "die Situation muss sagen, wie viele Würfe übrig sind: 'rolls left N'"
    ),
    "{rules}: column {column} is announced, which the exact solver does not handle (bots play it from the "
    "free column's table)": (
        "{rules}: Spalte {column} wird angesagt, was der exakte Löser nicht behandelt (Bots spielen sie mit "
        "der Tabelle der freien Spalte)"
    ),
    # --- tournament and cluster ---
    "a tournament needs at least 2 players, got {n}": "ein Turnier braucht mindestens 2 Spieler, nicht {n}",
    "a table seats at most {most} players, got {n}": "an einem Tisch sitzen höchstens {most} Spieler, nicht {n}",
    "the seed must be a whole number, got {value}": "der Startwert muss eine ganze Zahl sein, nicht {value}",
    "no games from deal 0 for the table {players}": "keine Spiele ab Würfelfolge 0 für den Tisch {players}",
    "the deals of the table {players} are not consecutive": (
        "die Würfelfolgen des Tisches {players} folgen nicht lückenlos aufeinander"
    ),
    "every table must play the same deals": "jeder Tisch muss dieselben Würfelfolgen spielen",
    "plotting needs matplotlib: pip install matplotlib": "Zeichnen braucht matplotlib: pip install matplotlib",
    "running on a cluster needs Ray: pip install 'kniffel[cluster]'": (
        "ein Cluster braucht Ray: pip install 'kniffel[cluster]'"
    ),
    "the cluster address is empty: give 'local' or the address of a Ray cluster": (
        "die Adresse des Clusters ist leer: 'local' oder die Adresse eines Ray-Clusters angeben"
    ),
    "cannot reach the Ray cluster at {address}: {reason}": (
        "der Ray-Cluster unter {address} ist nicht erreichbar: {reason}"
    ),
}


def register_catalog() -> None:
    """Register the German words (the help texts of the game included) with :mod:`kniffel.i18n`."""
    from kniffel.cli.play import HELP, PAD_HELP

    register("de", {**UI, HELP: HELP_DE, PAD_HELP: PAD_HELP_DE})
    register("de", ERRORS)
