// The review of a finished table (the server's answer to /api/games/ID/review): every player's summary as
// the terminal shows it, each figure with its unit and what loss and accuracy mean under it, then every
// decision the review lists, each once, with what it gave away (its unit: points or a chance) and the best
// choice for its player's goal.

import { element } from "/static/dom.js";
import { t } from "/static/i18n.js";

// A row a player: the name with what the player is graded by under it, then the figures.
function summaryTable(summary) {
  const table = element("table", null, "review-summary");
  const head = element("tr");
  summary.headers.forEach((header, i) => {
    const th = element("th", header);
    th.scope = "col";
    if (i) th.className = "figure";
    head.append(th);
  });
  table.append(element("thead"), element("tbody"));
  table.tHead.append(head);
  for (const row of summary.rows) {
    const tr = element("tr");
    const [name, ...figures] = row.cells;
    const who = element("th", null);
    who.scope = "row";
    who.append(element("span", name, "name"), element("span", row.goal, "goal muted small"));
    tr.append(
      who,
      ...figures.map((figure, i) => {
        const td = element("td", figure, "figure");
        td.dataset.label = summary.headers[i + 1]; // a phone writes each figure under its name
        return td;
      }),
    );
    table.tBodies[0].append(tr);
  }
  return table;
}

// The decisions of the answer, each once (by its place in the game), in the order played.
export function decisionsOnce(decisions) {
  const bySeq = new Map();
  for (const d of decisions) if (!bySeq.has(d.seq)) bySeq.set(d.seq, d);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

export function showReview(body) {
  const summary = document.getElementById("review-summary");
  if (body.summary) {
    summary.replaceChildren(summaryTable(body.summary), ...body.summary.notes.map((note) => element("p", note, "muted small")));
  } else summary.replaceChildren();
  document.getElementById("review-list").replaceChildren(
    ...decisionsOnce(body.decisions).map((d) => {
      const li = element("li", null);
      li.dataset.seq = String(d.seq);
      const where = `${t("Round {n}", { n: d.round })} · ${d.player} · ${d.dice.join(" ")}: `;
      li.append(where, element("strong", d.chosen_text), ` (${t("gave away {n}", { n: d.loss_text })}; ${t("best")}: ${d.best_text})`);
      return li;
    }),
  );
}
