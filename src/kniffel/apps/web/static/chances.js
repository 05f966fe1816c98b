// Chances of winning as the table shows them: a bar beside each player, and in the review a line
// each through the game.

import { $, element } from "/static/dom.js";
import { percent, t } from "/static/i18n.js";

// A chance of winning: whole percents, tenths near certain and near hopeless.
export function chance(share) {
  return percent(share, chanceDecimals(share));
}

function chanceDecimals(share) {
  return share > 0.995 || share < 0.005 ? 1 : 0;
}

export function renderChances(players, chances) {
  $("chances").hidden = false;
  $("chance-list").replaceChildren(
    ...players.map((player, seat) => {
      const li = element("li", "", "chance");
      const name = element("span", player.name, "chance-name");
      const bar = document.createElement("span");
      bar.className = "chance-bar";
      bar.setAttribute("role", "meter");
      bar.setAttribute("aria-valuemin", "0");
      bar.setAttribute("aria-valuemax", "100");
      bar.setAttribute("aria-valuenow", String(Math.round(100 * chances[seat])));
      bar.setAttribute("aria-label", t("chance of winning of {name}", { name: player.name }));
      const fill = document.createElement("span");
      fill.className = "chance-fill";
      fill.style.width = `${(100 * chances[seat]).toFixed(1)}%`;
      bar.append(fill);
      li.dataset.chance = String(chances[seat]);
      li.append(name, bar, element("span", chance(chances[seat]), "chance-value"));
      return li;
    }),
  );
  // shown figures that add up to more than 100 % are explained, not left to look like a mistake
  const shown = (c) => Number((100 * c).toFixed(chanceDecimals(c)));
  $("tie-note").hidden = chances.reduce((sum, c) => sum + shown(c), 0) <= 100.05;
}

const SVG = "http://www.w3.org/2000/svg";

// The chances of every player through the game, a line each (turns across, 0-100 % up).
export function drawChart(players, chances) {
  const chart = $("review-chart");
  const width = 320;
  const height = 120;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("Chances of winning through the game"));
  const steps = Math.max(1, chances.length - 1);
  players.forEach((player, seat) => {
    const line = document.createElementNS(SVG, "polyline");
    const points = chances.map((row, i) => `${((i / steps) * width).toFixed(1)},${((1 - row[seat]) * height).toFixed(1)}`);
    line.setAttribute("points", points.join(" "));
    line.setAttribute("class", `chart-line seat-${seat % 8}`);
    const title = document.createElementNS(SVG, "title");
    title.textContent = player.name;
    line.append(title);
    svg.append(line);
  });
  const legend = element("p", "", "chart-legend");
  players.forEach((player, seat) => {
    legend.append(element("span", `${player.name} ${chance(chances[chances.length - 1][seat])}`, `seat-${seat % 8}`));
  });
  chart.replaceChildren(element("figcaption", t("Chances of winning through the game")), svg, legend);
  chart.hidden = false;
}
