// Carpe Diem's drawing, shared by its replay and its component sheet (inlined after the
// shared cdsim/view/pages/common.js). Plain JS, no library: every function returns SVG (or
// HTML) as a string. Kind codes are cdsim/games/carpe_diem/rules/kinds.py's.

const KINDS = [
  // name, colour, the good a landscape gives or the letter on a dwelling half
  {name: "meadow", color: "#a9cd73"},
  {name: "villa", color: "#c65a3d"},
  {name: "pond", color: "#3b8ed0"},
  {name: "herb garden", color: "#3f7f3a"},
  {name: "vineyard", color: "#7d3c91"},
  {name: "chicken yard", color: "#e6b94c"},
  {name: "merchant", color: "#ec8a1c", letter: "M"},
  {name: "baker", color: "#8b5a33", letter: "B"},
  {name: "administrator", color: "#27468c", letter: "A"},
  {name: "artisan", color: "#5f6b76", letter: "R"},
  {name: "market", color: "#d9a21b"},
  {name: "bakery", color: "#a4582a"},
  {name: "fountain", color: "#2fa3b8"},
];
const EDGE_CODES = ["G", "V", "P", "H", "W", "C", "dM", "dB", "dA", "dR"];
const GOODS = ["grapes", "herbs", "chickens", "fish"];
const SIZE = 6;

function kindName(kind) {
  return KINDS[kind] ? KINDS[kind].name : "kind " + kind;
}

function pretty(text) {  // a card's describe() text, for reading
  return String(text).replace(/->/g, "\u2192").replace(/_3plus/g, " of 3+ tiles")
    .replace(/_/g, " ");
}

// Patterns and symbols used by every SVG on the page (url(#...) works across inline SVGs).
function defsSVG() {
  const dot = (id, bg, fg, r, step) =>
    `<pattern id="${id}" width="${step}" height="${step}" patternUnits="userSpaceOnUse">` +
    `<rect width="${step}" height="${step}" fill="${bg}"/>` +
    `<circle cx="${step / 2}" cy="${step / 2}" r="${r}" fill="${fg}"/></pattern>`;
  return `<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>
<pattern id="k1" width="6" height="5" patternUnits="userSpaceOnUse"><rect width="6" height="5"
 fill="${KINDS[1].color}"/><path d="M0 4.5H6M3 0V4.5" stroke="#9c3f28" stroke-width=".8"/></pattern>
<pattern id="k2" width="14" height="8" patternUnits="userSpaceOnUse"><rect width="14" height="8"
 fill="${KINDS[2].color}"/><path d="M1 5q2.5-2.5 5 0t5 0" fill="none" stroke="#bfe3fb"
 stroke-width="1" opacity=".8"/></pattern>
<pattern id="k3" width="7" height="7" patternUnits="userSpaceOnUse"><rect width="7" height="7"
 fill="${KINDS[3].color}"/><path d="M2 5q1-3 3-3q-.5 2.5-3 3z" fill="#8cc06b"/></pattern>
${dot("k4", KINDS[4].color, "#b07ac4", 1.3, 5)}
${dot("k5", KINDS[5].color, "#fff6dc", 1, 6)}
<pattern id="k0" width="9" height="9" patternUnits="userSpaceOnUse"><rect width="9" height="9"
 fill="${KINDS[0].color}"/><path d="M2 6l1-2.4M6.5 8l.8-2" stroke="#8fb95a" stroke-width=".8"/>
</pattern>
<linearGradient id="parchment" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f6ecd3"/>
<stop offset="1" stop-color="#eadbb6"/></linearGradient>
<radialGradient id="glow"><stop offset=".55" stop-color="#fff3a0" stop-opacity=".0"/>
<stop offset="1" stop-color="#ffd23f" stop-opacity=".9"/></radialGradient>
</defs></svg>`;
}

// -- a tile -------------------------------------------------------------------------------
// Shapes are drawn for the north side in a unit square and turned to their side.
const TURN = (side, s) => side ? ` transform="rotate(${side * 90} ${s / 2} ${s / 2})"` : "";

function polygon(points, s) {
  return points.map(([x, y]) => `${f1(x * s)},${f1(y * s)}`).join(" ");
}

function landscapePart(kind, sides, s) {
  const fill = `url(#k${kind})`;
  const stroke = ` stroke="rgba(0,0,0,.3)" stroke-width=".8"`;
  const p = (x) => f1(x * s);
  if (sides.length === 1) {  // an end: a pool against the edge, meadow on either side
    return `<path d="M${p(.12)} 0H${p(.88)}C${p(.88)} ${p(.52)} ${p(.12)} ${p(.52)} ${p(.12)} 0Z"` +
      ` fill="${fill}"${stroke}${TURN(sides[0], s)}/>`;
  }
  if (sides.length === 2 && (sides[1] - sides[0] === 1 || sides[1] - sides[0] === 3)) {
    const first = sides[1] - sides[0] === 1 ? sides[0] : sides[1];  // the N+E bend, turned
    return `<path d="M${p(.12)} 0H${p(.88)}Q${p(1)} 0 ${p(1)} ${p(.12)}V${p(.88)}` +
      `C${p(.5)} ${p(.88)} ${p(.12)} ${p(.5)} ${p(.12)} 0Z" fill="${fill}"${stroke}${TURN(first, s)}/>`;
  }
  return villaPart(kind, sides, s);  // any other shape a component set may hold
}

// A villa part: a wing from each of its sides to the centre. Drawn twice, stroked then
// filled, so that only the outline of the whole part shows.
function villaPart(kind, sides, s) {
  const depth = sides.length === 1 ? .44 : .5;
  const wing = `<rect x="${f1(s * .1)}" y="0" width="${f1(s * .8)}" height="${f1(s * depth)}"`;
  const all = (extra) => sides.map((d) => `${wing}${extra}${TURN(d, s)}/>`).join("");
  return all(` fill="#8e3b26" stroke="#6e2a18" stroke-width="1.6"`) + all(` fill="url(#k${kind})"`);
}

function dwellingPart(kind, side, s) {
  const k = KINDS[kind];
  // half a house against the edge; its neighbour's half completes it
  const body = `<path d="M${f1(s * .24)} 0V${f1(s * .25)}H${f1(s * .76)}V0Z" fill="${k.color}"` +
    ` stroke="rgba(0,0,0,.45)" stroke-width=".8"${TURN(side, s)}/>`;
  const [dx, dy] = [[0, -1], [1, 0], [0, 1], [-1, 0]][side];
  const x = s / 2 + dx * s * .375;
  const y = s / 2 + dy * s * .375;
  return body + `<text x="${f1(x)}" y="${f1(y + s * .07)}" class="dl" font-size="${f1(s * .2)}"` +
    ` text-anchor="middle">${k.letter}</text>`;
}

function chimneysSVG(sides, n, s) {
  if (!n) return "";
  let cx = s / 2;
  let cy = s / 2;
  if (sides.length === 1) {
    const [dx, dy] = [[0, -1], [1, 0], [0, 1], [-1, 0]][sides[0]];
    cx += dx * s * .3;
    cy += dy * s * .3;
  }
  const w = s * .085;
  const h = s * .15;
  const gap = s * .045;
  const shown = Math.min(n, 4);
  const x0 = cx - (shown * w + (shown - 1) * gap) / 2;
  let out = "";
  for (let i = 0; i < shown; i++) {
    const x = x0 + i * (w + gap);
    out += `<rect x="${f1(x)}" y="${f1(cy - h / 2)}" width="${f1(w)}" height="${f1(h)}"` +
      ` fill="#4a2a1c" stroke="#f3d9c8" stroke-width=".6"/>`;
  }
  if (n > 4) {
    out += `<text x="${f1(cx)}" y="${f1(cy + h)}" class="tn" font-size="${f1(s * .2)}"` +
      ` text-anchor="middle">${n}</text>`;
  }
  return out;
}

function buildingSVG(kind, s) {
  const u = s / 10;
  const c = s / 2;
  if (kind === 10) {  // market: a stall under a striped awning
    return `<rect x="${f1(c - 2.6 * u)}" y="${f1(c - .4 * u)}" width="${f1(5.2 * u)}"` +
      ` height="${f1(3 * u)}" fill="#f7e6b5" stroke="#6b4a12" stroke-width=".7"/>` +
      `<path d="M${f1(c - 3.2 * u)} ${f1(c - .4 * u)}L${f1(c - 2.3 * u)} ${f1(c - 2.8 * u)}` +
      `H${f1(c + 2.3 * u)}L${f1(c + 3.2 * u)} ${f1(c - .4 * u)}Z" fill="${KINDS[10].color}"` +
      ` stroke="#6b4a12" stroke-width=".7"/>` +
      `<path d="M${f1(c - 1.1 * u)} ${f1(c - 2.8 * u)}l-.3 ${f1(2.4 * u)}M${f1(c + 1.1 * u)}` +
      ` ${f1(c - 2.8 * u)}l.3 ${f1(2.4 * u)}" stroke="#fff" stroke-width="${f1(.9 * u)}"/>` +
      `<circle cx="${f1(c)}" cy="${f1(c + 1.1 * u)}" r="${f1(.8 * u)}" fill="#d9a21b"/>`;
  }
  if (kind === 11) {  // bakery: a loaf
    return `<circle cx="${f1(c)}" cy="${f1(c)}" r="${f1(3.3 * u)}" fill="#f4e3c3"` +
      ` stroke="#7a4a22" stroke-width=".7"/>` +
      `<ellipse cx="${f1(c)}" cy="${f1(c)}" rx="${f1(2.6 * u)}" ry="${f1(1.6 * u)}"` +
      ` fill="${KINDS[11].color}"/>` +
      `<path d="M${f1(c - 1.3 * u)} ${f1(c + .9 * u)}l${f1(.8 * u)} ${f1(-1.8 * u)}m${f1(.9 * u)}` +
      ` ${f1(1.8 * u)}l${f1(.8 * u)} ${f1(-1.8 * u)}" stroke="#f1c48b" stroke-width=".9"/>`;
  }
  if (kind === 12) {  // fountain: a basin and its jet
    return `<circle cx="${f1(c)}" cy="${f1(c)}" r="${f1(3.4 * u)}" fill="#d9d4c7"` +
      ` stroke="#6c675c" stroke-width=".7"/>` +
      `<circle cx="${f1(c)}" cy="${f1(c)}" r="${f1(2.5 * u)}" fill="${KINDS[12].color}"/>` +
      `<circle cx="${f1(c)}" cy="${f1(c)}" r="${f1(1.4 * u)}" fill="none" stroke="#bff0f7"` +
      ` stroke-width=".8"/><circle cx="${f1(c)}" cy="${f1(c)}" r="${f1(.6 * u)}" fill="#fff"/>`;
  }
  return "";
}

// A tile as built: edges N E S W (kind codes), chimneys, building (0 or 10-12); size s px.
function tileSVG(edges, chimneys, building, s) {
  let out = `<rect width="${s}" height="${s}" fill="url(#k0)"/>`;
  const parts = {};
  edges.forEach((kind, side) => {
    if (kind) (parts[kind] = parts[kind] || []).push(side);
  });
  let villaSides = null;
  for (const key of Object.keys(parts)) {
    const kind = Number(key);
    const sides = parts[key];
    if (kind === 1) {
      out += villaPart(kind, sides, s);
      villaSides = sides;
    } else if (kind <= 5) {
      out += landscapePart(kind, sides, s);
    } else {
      out += sides.map((side) => dwellingPart(kind, side, s)).join("");
    }
  }
  if (villaSides) out += chimneysSVG(villaSides, chimneys, s);
  if (building) out += buildingSVG(building, s);
  return out + `<rect width="${s}" height="${s}" fill="none" stroke="rgba(40,50,20,.45)"` +
    ` stroke-width=".8"/>`;
}

function tileTitle(tile) {  // tile = [id, edges, chimneys, building, dark]
  const [id, edges, chimneys, building] = tile;
  let text = `${id}: ${edges.map((e) => EDGE_CODES[e]).join(" ")} (N E S W)`;
  if (chimneys) text += `, ${chimneys} chimney${chimneys > 1 ? "s" : ""}`;
  if (building) text += `, ${kindName(building)}`;
  return text;
}

// -- the district board ---------------------------------------------------------------------
function scrollToken(x, y, s) {
  const w = s * .5;
  const h = s * .3;
  const x0 = x + (s - w) / 2;
  const y0 = y + (s - h) / 2;
  return `<g class="scroll-token"><rect x="${f1(x0)}" y="${f1(y0)}" width="${f1(w)}" height="${f1(h)}"` +
    ` rx="2" fill="#f8efd6" stroke="#8a6b3a" stroke-width=".9"/>` +
    `<circle cx="${f1(x0)}" cy="${f1(y0 + h / 2)}" r="${f1(h / 2.4)}" fill="#e8d7aa" stroke="#8a6b3a"` +
    ` stroke-width=".9"/><circle cx="${f1(x0 + w)}" cy="${f1(y0 + h / 2)}" r="${f1(h / 2.4)}"` +
    ` fill="#e8d7aa" stroke="#8a6b3a" stroke-width=".9"/>` +
    `<path d="M${f1(x0 + w * .25)} ${f1(y0 + h * .4)}h${f1(w * .5)}M${f1(x0 + w * .25)}` +
    ` ${f1(y0 + h * .65)}h${f1(w * .35)}" stroke="#b59a66" stroke-width=".8"/></g>`;
}

function spadeMark(x, y, s) {
  const c = s / 2;
  return `<g class="spade" transform="translate(${f1(x)} ${f1(y)})">` +
    `<path d="M${f1(c)} ${f1(s * .2)}C${f1(s * .7)} ${f1(s * .33)} ${f1(s * .68)} ${f1(s * .5)}` +
    ` ${f1(c)} ${f1(s * .58)}C${f1(s * .32)} ${f1(s * .5)} ${f1(s * .3)} ${f1(s * .33)} ${f1(c)}` +
    ` ${f1(s * .2)}Z" fill="#7b6a58"/><rect x="${f1(c - s * .03)}" y="${f1(s * .55)}"` +
    ` width="${f1(s * .06)}" height="${f1(s * .2)}" fill="#7b6a58"/>` +
    `<rect x="${f1(c - s * .09)}" y="${f1(s * .73)}" width="${f1(s * .18)}" height="${f1(s * .05)}"` +
    ` rx="1" fill="#7b6a58"/></g>`;
}

// Where a frame goal sits: sides top, right, bottom, left; lines counted clockwise along
// the side from its clockwise-first corner (docs/rules.md C9, district.LINE_MASK).
function goalCells(side, line) {
  const cells = [];
  for (let i = 0; i < SIZE; i++) {
    if (side === 0) cells.push(i * SIZE + line);
    else if (side === 1) cells.push(line * SIZE + i);
    else if (side === 2) cells.push(i * SIZE + (SIZE - 1 - line));
    else cells.push((SIZE - 1 - line) * SIZE + i);
  }
  return cells;
}

function goalPosition(side, line, t, frame) {
  const along = frame + (side === 0 || side === 1 ? line : SIZE - 1 - line) * t + t / 2;
  const far = frame + SIZE * t + frame / 2;
  return [[along, frame / 2], [far, along], [along, far], [frame / 2, along]][side];
}

function diamond(x, y, r, kind, vp, cls) {
  const color = KINDS[kind] ? KINDS[kind].color : "#888";
  return `<g class="${cls}"><path d="M${f1(x)} ${f1(y - r)}L${f1(x + r)} ${f1(y)}L${f1(x)} ${f1(y + r)}` +
    `L${f1(x - r)} ${f1(y)}Z" fill="${color}" stroke="#fff" stroke-width="1.2"/>` +
    `<text x="${f1(x)}" y="${f1(y + r * .36)}" class="gv" font-size="${f1(r * .95)}"` +
    ` text-anchor="middle">${vp}</text></g>`;
}

// board = [id, spade, scrolls] or null; frame = [[part id, [[kind, vp, line], ...]] x4];
// built = [[cell, n, e, s, w, chimneys, building, tile type], ...];
// opts: t (tile px), frame (px), done (Set of "side:goal" satisfied), fresh (cells built this
// step), completed (cells of features completed this step), tiles (the tile table, for titles).
function districtSVG(board, frame, built, opts) {
  const t = opts.t;
  const fr = opts.frame;
  const size = SIZE * t + 2 * fr;
  let out = `<svg class="district" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}">`;
  out += `<rect x="1" y="1" width="${size - 2}" height="${size - 2}" rx="6" fill="#cbb58a"` +
    ` stroke="#8d7650" stroke-width="1.5"/>`;
  out += `<rect x="${fr - 2}" y="${fr - 2}" width="${SIZE * t + 4}" height="${SIZE * t + 4}"` +
    ` fill="#8d7650"/>`;
  const at = {};
  for (const b of built) at[b[0]] = b;
  for (let cell = 0; cell < SIZE * SIZE; cell++) {
    const x = fr + (cell % SIZE) * t;
    const y = fr + Math.floor(cell / SIZE) * t;
    const b = at[cell];
    if (b) {
      const tile = opts.tiles && b[7] >= 0 ? opts.tiles[b[7]] : null;
      const title = tile ? tileTitle(tile) : `${b.slice(1, 5).map((e) => EDGE_CODES[e]).join(" ")}`;
      out += `<g transform="translate(${x} ${y})"><title>${esc(title)}</title>` +
        tileSVG(b.slice(1, 5), b[5], b[6], t) + "</g>";
    } else {
      out += `<rect x="${x}" y="${y}" width="${t}" height="${t}" fill="url(#parchment)"` +
        ` stroke="#d8c69c" stroke-width=".8"/>`;
      if (board && board[2].includes(cell)) out += scrollToken(x, y, t);
      if (board && board[1] === cell) out += spadeMark(x, y, t);
    }
  }
  for (const cell of opts.completed || []) {  // a feature completed this step
    const x = fr + (cell % SIZE) * t;
    const y = fr + Math.floor(cell / SIZE) * t;
    out += `<rect class="completed" x="${x}" y="${y}" width="${t}" height="${t}" fill="#fff3b0"` +
      ` fill-opacity=".28" stroke="#fff" stroke-width="1.6" stroke-dasharray="4 3"/>`;
  }
  if (opts.fresh) {
    for (const cell of opts.fresh) {
      const x = fr + (cell % SIZE) * t;
      const y = fr + Math.floor(cell / SIZE) * t;
      out += `<rect class="fresh" x="${x + 1.5}" y="${y + 1.5}" width="${t - 3}" height="${t - 3}"` +
        ` rx="3" fill="none" stroke="#fff36b" stroke-width="3"/>`;
    }
  }
  frame.forEach(([partId, goals], side) => {
    goals.forEach(([kind, vp, line], g) => {
      const [x, y] = goalPosition(side, line, t, fr);
      const done = opts.done && opts.done.has(`${side}:${g}`);
      const cells = goalCells(side, line);
      const first = cells[0];
      const horizontal = side === 1 || side === 3;
      const lx = horizontal ? fr : fr + (first % SIZE) * t;
      const ly = horizontal ? fr + Math.floor(first / SIZE) * t : fr;
      out += `<g class="goal${done ? " done" : ""}"><title>${esc(`frame part ${partId}: ` +
        `${kindName(kind)} ${vp} VP, line ${line} of the ${["top", "right", "bottom", "left"][side]}` +
        ` side${done ? " (a complete " + kindName(kind) + " crosses it)" : ""}`)}</title>` +
        `<rect class="goal-line" x="${lx}" y="${ly}" width="${horizontal ? SIZE * t : t}"` +
        ` height="${horizontal ? t : SIZE * t}" fill="${KINDS[kind].color}"/>` +
        (done ? `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(fr * .52)}" fill="#ffe27a"` +
          ` stroke="#b8860b" stroke-width="1.2"/>` : "") +
        diamond(x, y, fr * .44, kind, vp, "gd") + "</g>";
    });
  });
  return out + "</svg>";
}

// -- small pictures for goods and supplies ----------------------------------------------------
function icon(name, px) {
  const s = px || 18;
  const wrap = (inner) => `<svg class="icon" viewBox="0 0 20 20" width="${s}" height="${s}"` +
    ` aria-label="${name}">${inner}</svg>`;
  switch (name) {
    case "grapes":
      return wrap([[7, 7], [13, 7], [10, 10], [6.5, 12.5], [13.5, 12.5], [10, 15.5]]
        .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="3" fill="#7d3c91" stroke="#4e1f5e"` +
          ` stroke-width=".7"/>`).join("") + `<path d="M10 4V1.5" stroke="#5c7a2a" stroke-width="1.4"/>`);
    case "herbs":
      return wrap(`<path d="M10 18V7" stroke="#2f5f2b" stroke-width="1.3"/><path d="M10 9C6 9 4 6 4 3c3` +
        ` 0 6 2 6 6zM10 12c4 0 6-3 6-6c-3 0-6 2-6 6zM10 15.5c-3.5 0-5.5-2-5.5-4.5c3 0 5.5 1.5 5.5` +
        ` 4.5z" fill="#4f9a3f" stroke="#2f5f2b" stroke-width=".6"/>`);
    case "chickens":
      return wrap(`<ellipse cx="10" cy="12" rx="6" ry="5" fill="#fff7e8" stroke="#8b6b3a"` +
        ` stroke-width=".8"/><circle cx="14" cy="7" r="3" fill="#fff7e8" stroke="#8b6b3a"` +
        ` stroke-width=".8"/><path d="M16.8 7l2 .8-2 .8z" fill="#f0a020"/><path d="M13 4.2l1-1.6` +
        ` 1 1.6z" fill="#d7263d"/><circle cx="14.6" cy="6.6" r=".6" fill="#333"/>`);
    case "fish":
      return wrap(`<path d="M2 10c3-5 9-5 12 0c-3 5-9 5-12 0z" fill="#3b8ed0" stroke="#1f5a8a"` +
        ` stroke-width=".8"/><path d="M14 10l5-4v8z" fill="#3b8ed0" stroke="#1f5a8a"` +
        ` stroke-width=".8"/><circle cx="6" cy="9.2" r=".9" fill="#fff"/>`);
    case "coins":
      return wrap(`<circle cx="10" cy="10" r="7.5" fill="#f2c230" stroke="#a67c00" stroke-width="1"/>` +
        `<circle cx="10" cy="10" r="5" fill="none" stroke="#c99a12" stroke-width=".8"/>`);
    case "bread":
      return wrap(`<path d="M2.5 13c0-5 4-8 7.5-8s7.5 3 7.5 8c0 1.5-1 2-2 2H4.5c-1 0-2-.5-2-2z"` +
        ` fill="#c98a4b" stroke="#7a4a22" stroke-width=".8"/><path d="M7 8.5l-1 3m4.5-4l-1 4m4.5-3` +
        `l-1 3" stroke="#f1d2a0" stroke-width="1"/>`);
    case "stored":
      return wrap(`<rect x="3" y="3" width="14" height="14" rx="1.5" fill="#6d5a45" stroke="#3d3024"` +
        ` stroke-width=".8"/><path d="M3 3l14 14M17 3L3 17" stroke="#8a7560" stroke-width=".8"/>`);
    case "vp":
      return wrap(`<path d="M10 1.5l2.5 5.2 5.7.8-4.1 4 1 5.6L10 14.4l-5.1 2.7 1-5.6-4.1-4` +
        ` 5.7-.8z" fill="#e9c46a" stroke="#a07a1c" stroke-width=".8"/>`);
    case "scroll":
      return wrap(`<rect x="4" y="6" width="12" height="8" rx="1" fill="#f8efd6" stroke="#8a6b3a"/>` +
        `<circle cx="4" cy="10" r="2.6" fill="#e8d7aa" stroke="#8a6b3a"/><circle cx="16" cy="10"` +
        ` r="2.6" fill="#e8d7aa" stroke="#8a6b3a"/>`);
    case "pawn":
      return wrap(`<circle cx="10" cy="6" r="3.5" fill="#555"/><path d="M4 18c0-5 3-8 6-8s6 3 6` +
        ` 8z" fill="#555"/>`);
    default:
      return "";
  }
}

function legendHTML() {
  const swatch = (kind) => {
    const e = kind <= 9 ? [kind, 0, 0, 0] : [0, 0, 0, 0];
    return `<svg viewBox="0 0 30 30" width="30" height="30">${tileSVG(e, kind === 1 ? 2 : 0,
      kind >= 10 ? kind : 0, 30)}</svg>`;
  };
  let out = '<div class="legend">';
  for (let kind = 1; kind < KINDS.length; kind++) {
    out += `<span>${swatch(kind)}${esc(kindName(kind))}${kind === 1 ? " (chimneys)" : ""}</span>`;
  }
  out += `<span><svg viewBox="0 0 30 30" width="30" height="30"><rect width="30" height="30"` +
    ` fill="url(#parchment)"/>${scrollToken(0, 0, 30)}</svg>scroll space</span>`;
  out += `<span><svg viewBox="0 0 30 30" width="30" height="30"><rect width="30" height="30"` +
    ` fill="url(#parchment)"/>${spadeMark(0, 0, 30)}</svg>spade space</span>`;
  out += `<span><svg viewBox="0 0 24 24" width="24" height="24">` +
    `${diamond(12, 12, 10, 1, 3, "gd")}</svg>frame goal (kind, VP)</span>`;
  return out + "</div>";
}

function provenanceBadge(provenance) {
  return `<span class="prov prov-${esc(provenance)}">${esc(provenance)}</span>`;
}

// An objective card, card = {deck, pay, text, provenance}; opts: style, provenance (shown).
function cardHTML(id, card, opts) {
  const o = opts || {};
  return `<div class="card ${card.pay ? "pay" : "have"} ${o.cls || ""}" data-card="${esc(id)}"` +
    (o.style ? ` style="${o.style}"` : "") + `><div class="card-head"><b>${esc(id)}</b>` +
    `<span>deck ${esc(card.deck)}</span></div>` +
    `<div class="card-text">${esc(pretty(card.text))}</div>` +
    (o.provenance ? provenanceBadge(card.provenance) : "") + "</div>";
}
