// The component sheet (cdsim components show --html): every piece of a component set drawn,
// with its count and provenance, from the JSON embedded by cdsim/view/pages/__init__.py.
"use strict";

const SET = JSON.parse(document.getElementById("replay-data").textContent);
const SIDES = ["top", "right", "bottom", "left"];

function tileCard(tile) {
  const [id, edges, chimneys, building, dark, count, provenance, codes] = tile;
  const s = 72;
  const notes = [];
  if (chimneys) notes.push(`${chimneys} chimney${chimneys > 1 ? "s" : ""}`);
  if (building) notes.push(kindName(building));
  return `<div class="tile-card${dark ? " dark" : ""}" data-tile="${esc(id)}">` +
    `<svg viewBox="0 0 ${s} ${s}" width="${s}" height="${s}"><title>${esc(tileTitle(tile))}</title>` +
    `${tileSVG(edges, chimneys, building, s)}</svg>` +
    `<div class="count">\u00d7${count}</div><div class="tid">${esc(id)}</div>` +
    `<div class="edges">${esc(codes)}${notes.length ? " · " + esc(notes.join(", ")) : ""}</div>` +
    `${provenanceBadge(provenance)}</div>`;
}

const NO_FRAME = [[0, []], [0, []], [0, []], [0, []]];

function boardCard([id, spade, scrolls, provenance]) {
  return `<div class="board-card" data-board="${id}"><b>board ${id}</b><br>` +
    districtSVG([id, spade, scrolls], NO_FRAME, [], {t: 30, frame: 10}) +
    `<br>${scrolls.length} scroll spaces ${provenanceBadge(provenance)}</div>`;
}

function partCard([id, goals, provenance]) {
  const frame = [[id, goals], [0, []], [0, []], [0, []]];
  const svg = districtSVG(null, frame, [], {t: 22, frame: 20}).replace('class="district"',
    'class="district show-lines"');
  const items = goals.map(([kind, vp, line]) =>
    `<li><b style="color:${KINDS[kind].color}">${esc(kindName(kind))}</b> ${vp} VP, line ${line}</li>`)
    .join("");
  return `<div class="part-card" data-part="${id}"><b>frame part ${id}</b> ${provenanceBadge(provenance)}` +
    `<div>${svg}</div><ul>${items}</ul></div>`;
}

function lineKey() {  // the line numbers along each side, clockwise
  const t = 22;
  const fr = 20;
  let out = districtSVG(null, NO_FRAME, [], {t, frame: fr}).replace("</svg>", "");
  for (let side = 0; side < 4; side++) {
    for (let line = 0; line < SIZE; line++) {
      const [x, y] = goalPosition(side, line, t, fr);
      out += `<text x="${x}" y="${y + 4}" font-size="11" text-anchor="middle" fill="#fff"` +
        ` font-weight="bold">${line}</text>`;
    }
  }
  for (let side = 0; side < 4; side++) {
    const [x, y] = goalPosition(side, 2.5, t, fr);
    const [dx, dy] = [[1, 0], [0, 1], [-1, 0], [0, -1]][side];
    const ix = x + (side === 1 ? -fr - 18 : side === 3 ? fr + 18 : 0);
    const iy = y + (side === 0 ? fr + 12 : side === 2 ? -fr - 12 : 0);
    out += `<text x="${ix}" y="${iy + 4}" font-size="11" text-anchor="middle" fill="#6b5634">` +
      `${SIDES[side]} ${dx + dy > 0 ? "\u2192" : "\u2190"}</text>`;
  }
  return `<div class="part-card"><b>line numbers by side</b><div>${out}</svg></div>` +
    "<ul><li>clockwise from each side's first corner</li></ul></div>";
}

function decksHTML() {
  const decks = {};
  for (const [id, card] of Object.entries(SET.cards)) (decks[card.deck] = decks[card.deck] || []).push(id);
  return Object.keys(decks).sort().map((deck) => `<div class="deck"><h3>Deck ${esc(deck)} ` +
    `<small>${decks[deck].length} cards</small></h3><div class="cardlist">` +
    decks[deck].map((id) => cardHTML(id, SET.cards[id], {provenance: true})).join("") +
    "</div></div>").join("");
}

function fountainCard([id, goal, vp, provenance]) {
  const s = 34;
  const swatch = goal <= 9 ? tileSVG([goal, 0, 0, 0], goal === 1 ? 2 : 0, 0, s) : tileSVG([0, 0, 0, 0], 0, goal, s);
  return `<div class="card fountain-card" style="border-left-color:${KINDS[goal].color}"` +
    ` data-card="${esc(id)}"><div class="card-head"><b>${esc(id)}</b><span>fountain card</span></div>` +
    `<div class="card-text"><svg viewBox="0 0 ${s} ${s}" width="${s}" height="${s}"` +
    ` style="float:right">${swatch}</svg>${vp} VP per complete ${esc(kindName(goal))}</div>` +
    `${provenanceBadge(provenance)}</div>`;
}

function scoringHTML() {
  const row = (label, values, start) => `<tr><th>${label}</th>${values.map((_, k) =>
    `<th>${k + start}</th>`).join("")}</tr><tr><th>VP</th>${values.map((v) => `<td>${v}</td>`)
    .join("")}</tr>`;
  const half = Math.ceil(SET.scroll.length / 2);
  return `<div data-table="scroll_track"><h3>Scroll track <small>VP of the space a disc ends ` +
    `on; each step past the last scores 1 VP</small></h3><table class="small-table">` +
    `${row("space", SET.scroll.slice(0, half), 0)}${row("space", SET.scroll.slice(half), half)}` +
    `</table></div><div data-table="villa_table"><h3 style="margin-top:14px">Villas <small>VP ` +
    `of a complete villa by its chimneys; past the table +${SET.villa_extra} a chimney</small>` +
    `</h3><table class="small-table">${row("chimneys", SET.villa.slice(0, 16), 0)}</table></div>`;
}

// Where each changed entry is drawn, by its table and id.
const DRAWN = {
  tile: (id) => `.tile-card[data-tile="${CSS.escape(String(id))}"]`,
  objective: (id) => `#decks .card[data-card="${CSS.escape(String(id))}"]`,
  fountain: (id) => `.fountain-card[data-card="${CSS.escape(String(id))}"]`,
  part: (id) => `.part-card[data-part="${CSS.escape(String(id))}"]`,
  board: (id) => `.board-card[data-board="${CSS.escape(String(id))}"]`,
  scroll_track: () => '[data-table="scroll_track"]',
  villa_table: () => '[data-table="villa_table"]',
};

function changeText([, , key, old, now]) {
  if (key) return `${key}: ${old} \u2192 ${now}`;
  return old === "none" ? "added" : "removed";
}

// The entries the set changes from its base: each drawn entry is outlined, with its changed
// keys and their old values beside it (and on hover); the list names them all, removed ones too.
function markChanges() {
  if (!SET.changes.length) return;
  const entries = new Map();
  for (const change of SET.changes) {
    const key = `${change[0]}\u0000${change[1]}`;
    if (!entries.has(key)) entries.set(key, []);
    entries.get(key).push(change);
  }
  const items = [];
  for (const changes of entries.values()) {
    const [table, id] = changes[0];
    const text = changes.map(changeText).join("; ");
    const name = id === null ? table : `${table} ${id}`;
    items.push(`<li data-change="${esc(name)}"><b>${esc(name)}</b>: ${esc(text)}</li>`);
    const drawn = document.querySelector(DRAWN[table](id));
    if (!drawn) continue;  // a removed entry is not drawn; the list names it
    drawn.classList.add("changed");
    drawn.title = `changed from ${SET.base}: ${text}`;
    drawn.insertAdjacentHTML("beforeend", `<div class="changed-note">${esc(text)}</div>`);
  }
  document.getElementById("changes").innerHTML = `<ul class="change-list">${items.join("")}</ul>`;
  document.getElementById("changes-section").hidden = false;
}

function init() {
  document.getElementById("defs").innerHTML = defsSVG();
  document.getElementById("meta").textContent = `${SET.source} · set ${SET.digest}` +
    (SET.default ? " · reconstructed where the rulebook prints nothing" : "") +
    (SET.changes.length ? ` · ${SET.changes.length} changed key${SET.changes.length > 1 ? "s" : ""}` +
      ` from ${SET.base}` : "");
  const light = SET.tiles.filter((t) => !t[4]);
  const dark = SET.tiles.filter((t) => t[4]);
  const total = (list) => list.reduce((a, t) => a + t[5], 0);
  const provenances = {};
  const count = (p) => { provenances[p] = (provenances[p] || 0) + 1; };
  SET.tiles.forEach((t) => count(t[6]));
  Object.values(SET.cards).forEach((c) => count(c.provenance));
  SET.fountains.forEach((f) => count(f[3]));
  SET.parts.forEach((p) => count(p[2]));
  SET.boards.forEach((b) => count(b[3]));
  const fact = (n, what) => `<span><b>${n}</b> ${what}</span>`;
  document.getElementById("summary").innerHTML =
    fact(total(light), `light tiles (${light.length} types)`) +
    fact(total(dark), `dark tiles (${dark.length} types)`) + fact(SET.boards.length, "district boards") +
    fact(SET.parts.length, "frame parts") + fact(Object.keys(SET.cards).length, "objective cards") +
    fact(SET.fountains.length, "fountain cards") +
    Object.entries(provenances).map(([p, n]) => fact(n, `entries tagged ${provenanceBadge(p)}`)).join("");
  document.getElementById("legend").innerHTML = legendHTML();
  document.getElementById("light").innerHTML = light.map(tileCard).join("");
  document.getElementById("dark").innerHTML = dark.map(tileCard).join("");
  document.getElementById("boards").innerHTML = SET.boards.map(boardCard).join("");
  document.getElementById("parts").innerHTML = lineKey() + SET.parts.map(partCard).join("");
  document.getElementById("decks").innerHTML = decksHTML();
  document.getElementById("fountains").innerHTML = SET.fountains.map(fountainCard).join("");
  document.getElementById("scoring").innerHTML = scoringHTML();
  markChanges();
  document.body.dataset.ready = "1";
}

init();
