// The replay of one game (cdsim play --html): the data is embedded as JSON (cdsim/games/carpe_diem/view/replay.py);
// each step holds only what changed, so the states are rebuilt once here and drawn on demand.
"use strict";

const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const N = DATA.players.length;
const TILES = DATA.tiles;
// per player, from cdsim/games/carpe_diem/view/replay.py view() of the core's snapshot: pawn, scroll, stamp,
// 4 goods, coins, bread, stored, tiles built, features complete, VP held
const P = {pawn: 0, scroll: 1, stamp: 2, goods: 3, coins: 7, bread: 8, stored: 9, built: 10,
  features: 11, vp: 12};

const STATES = [];
{
  let current = {};
  for (const step of DATA.steps) {
    current = Object.assign({}, current, step.d);
    STATES.push(current);
  }
}

const seatName = (seat) => `seat ${seat + 1}`;
const seatDot = (seat, r, x, y, cls) =>
  `<g class="${cls || "disc"}"><circle cx="${f1(x)}" cy="${f1(y)}" r="${r}" fill="${SEAT_COLORS[seat]}"` +
  ` stroke="#fff" stroke-width="1.6"/><text x="${f1(x)}" y="${f1(y + r * .38)}" class="dn"` +
  ` font-size="${f1(r * 1.05)}" text-anchor="middle">${seat + 1}</text></g>`;

function stepTitle(i) {
  const step = DATA.steps[i];
  const phase = step.p + 1;
  const who = step.a >= 0 ? `${seatName(step.a)} (${DATA.players[step.a].strategy})` : "";
  switch (step.k) {
    case "setup": return "Setup: the districts, frames, cards and seal row are dealt";
    case "pawn": return `Setup: ${who} places its pawn (blind, R2.5)`;
    case "phase": return `Phase ${phase} begins: 4 tiles on each depot`;
    case "turn": return `Phase ${phase} · round ${step.r + 1} · ${who}`;
    case "scoring": return `Scoring phase ${phase}`;
    case "circle": return `Scoring phase ${phase} · ${who} takes a circle`;
    case "final": return "Final scoring";
    default: return step.k;
  }
}

// -- the central board ------------------------------------------------------------------------
function centralSVG(state, i) {
  const W = 470;
  const c = W / 2;
  const R = 150;
  const t = 29;
  const step = DATA.steps[i];
  const spot = (k, r) => {
    const a = -Math.PI / 2 + k * 2 * Math.PI / 7;
    return [c + r * Math.cos(a), c + r * Math.sin(a)];
  };
  let out = `<svg viewBox="0 0 ${W} ${W}" width="${W}" height="${W}" class="central">`;
  out += `<circle cx="${c}" cy="${c}" r="${R + 82}" fill="#e9dcbc" stroke="#b9a475" stroke-width="2"/>`;
  out += `<circle cx="${c}" cy="${c}" r="${R - 62}" fill="#f4ead2" stroke="#cdb98f"/>`;
  let ring = "";
  for (let k = 0; k < 7; k++) {
    const [x, y] = spot(k, R);
    ring += `${k ? "L" : "M"}${f1(x)} ${f1(y)}`;
  }
  out += `<path d="${ring}Z" fill="none" stroke="#a98f5d" stroke-width="3" stroke-dasharray="2 6"` +
    ` stroke-linecap="round"/>`;
  const pawns = Array.from({length: 7}, () => []);
  for (let s = 0; s < N; s++) {
    const pawn = state[`p${s}`][P.pawn];
    if (pawn >= 0) pawns[pawn].push(s);
  }
  for (let k = 0; k < 7; k++) {
    const [x, y] = spot(k, R);
    const depot = state.dp[k];
    const active = step.a >= 0 && state[`p${step.a}`][P.pawn] === k &&
      (step.k === "turn" || step.k === "pawn");
    out += `<g class="depot${active ? " active" : ""}" data-space="${k + 1}">` +
      `<rect x="${f1(x - 36)}" y="${f1(y - 36)}" width="72" height="72" rx="9" fill="#7a5c3a"` +
      ` stroke="${active ? SEAT_COLORS[step.a] : "#5b4328"}" stroke-width="${active ? 4 : 1.5}"/>`;
    for (let j = 0; j < 4; j++) {
      const tx = x - 31 + (j % 2) * (t + 3);
      const ty = y - 31 + Math.floor(j / 2) * (t + 3);
      if (j < depot.length) {
        const tile = TILES[depot[j]];
        out += `<g transform="translate(${f1(tx)} ${f1(ty)})"><title>${esc(tileTitle(tile))}</title>` +
          `${tileSVG(tile[1], tile[2], tile[3], t)}</g>`;
      } else {
        out += `<rect x="${f1(tx)}" y="${f1(ty)}" width="${t}" height="${t}" rx="2" fill="#6a4e30"` +
          ` stroke="#8d6e48" stroke-dasharray="3 2"/>`;
      }
    }
    out += "</g>";
    const [lx, ly] = spot(k, R - 52);
    out += `<text x="${f1(lx)}" y="${f1(ly + 4)}" class="space-no" text-anchor="middle">${k + 1}</text>`;
    pawns[k].forEach((s, n) => {
      const a = -Math.PI / 2 + k * 2 * Math.PI / 7;
      const spread = (n - (pawns[k].length - 1) / 2) * 0.16;
      const px = c + (R + 58) * Math.cos(a + spread);
      const py = c + (R + 58) * Math.sin(a + spread);
      const moving = s === step.a && (step.k === "turn" || step.k === "pawn");
      out += seatDot(s, 11, px, py, moving ? "disc pawn active" : "disc pawn");
    });
  }
  const phase = {final: "game over", setup: "setup", pawn: "setup", scoring: `scoring phase ${step.p + 1}`,
    circle: `scoring phase ${step.p + 1}`}[step.k] ||
    `phase ${step.p + 1}` + (step.r >= 0 ? ` · round ${step.r + 1}` : "");
  out += `<text x="${c}" y="${c - 18}" class="hub-title" text-anchor="middle">${esc(phase)}</text>`;
  out += `<text x="${c}" y="${c + 4}" class="hub" text-anchor="middle">start player: ` +
    `${esc(seatName(state.sp))}</text>`;
  out += `<text x="${c}" y="${c + 24}" class="hub" text-anchor="middle">tiles left: ` +
    `${state.dk[0]} light · ${state.dk[1]} dark</text>`;
  out += `<text x="${c}" y="${c + 42}" class="hub" text-anchor="middle">fountain deck: ` +
    `${state.dk[2]}</text>`;
  return out + "</svg>";
}

function sealHTML(state) {
  const t = 34;
  let out = `<svg viewBox="0 0 ${11 * (t + 4) + 4} ${t + 8}" width="${11 * (t + 4) + 4}"` +
    ` height="${t + 8}" class="seal">`;
  state.sl.forEach((tileIndex, k) => {
    const x = 4 + k * (t + 4);
    if (tileIndex === null) {
      out += `<rect x="${x}" y="4" width="${t}" height="${t}" rx="3" fill="#3d3a36"` +
        ` stroke="#77706a" stroke-dasharray="3 2"/>`;
      return;
    }
    const tile = TILES[tileIndex];
    out += `<g transform="translate(${x} 4)"><title>${esc(tileTitle(tile))}</title>` +
      `${tileSVG(tile[1], tile[2], tile[3], t)}<rect width="${t}" height="${t}" fill="none"` +
      ` stroke="#2b2b2b" stroke-width="2"/></g>`;
  });
  return out + "</svg>";
}

function cardGridHTML(state, i) {
  const step = DATA.steps[i];
  const prev = i > 0 ? STATES[i - 1].co : null;
  const W = 140;
  const H = 84;
  const G = 24;
  const fresh = DATA.circles.map((_, k) => step.k === "circle" && prev && state.co[k] >= 0 &&
    prev[k] !== state.co[k]);
  const scored = new Set();
  fresh.forEach((yes, k) => { if (yes) DATA.circles[k].forEach((slot) => scored.add(slot)); });
  let out = `<div class="grid" style="width:${3 * W + 2 * G}px;height:${4 * H + 3 * G}px">`;
  DATA.grid.forEach((id, slot) => {
    const x = (slot % 3) * (W + G);
    const y = Math.floor(slot / 3) * (H + G);
    const box = `left:${x}px;top:${y}px;width:${W}px;height:${H}px`;
    out += id === null ? `<div class="card empty" style="${box}">no card</div>` :
      cardHTML(id, DATA.cards[id], {style: box, cls: scored.has(slot) ? "scored" : ""});
  });
  DATA.circles.forEach(([a, b], k) => {
    const ax = (a % 3) * (W + G) + W / 2;
    const ay = Math.floor(a / 3) * (H + G) + H / 2;
    const bx = (b % 3) * (W + G) + W / 2;
    const by = Math.floor(b / 3) * (H + G) + H / 2;
    const owner = state.co[k];
    const label = owner >= 0 ? `${seatName(owner)}: ${DATA.grid[a]} and ${DATA.grid[b]}` :
      `free: ${DATA.grid[a]} and ${DATA.grid[b]}`;
    out += `<div class="circle${owner >= 0 ? " taken" : ""}${fresh[k] ? " fresh" : ""}" title="${esc(label)}"` +
      ` style="left:${(ax + bx) / 2 - 12}px;top:${(ay + by) / 2 - 12}px;` +
      `${owner >= 0 ? "background:" + SEAT_COLORS[owner] : ""}">${owner >= 0 ? owner + 1 : ""}</div>`;
  });
  return out + "</div>";
}

// -- the scroll track --------------------------------------------------------------------------
function trackSVG(state) {
  const spaces = DATA.scroll.length;
  const w = 27;
  const W = spaces * w + 20;
  const top = 24 + (N - 1) * 7;  // room for every disc stacked on one space
  const H = top + 34;
  let out = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" class="track">`;
  const stacks = Array.from({length: spaces}, () => []);
  for (let s = 0; s < N; s++) {
    const p = state[`p${s}`];
    stacks[p[P.scroll]].push([p[P.stamp], s]);
  }
  for (let k = 0; k < spaces; k++) {
    const x = 10 + k * w;
    out += `<rect x="${x}" y="${top}" width="${w - 2}" height="30" rx="4"` +
      ` fill="${k % 5 === 0 ? "#e2cf9f" : "#f3e8cc"}" stroke="#b49a66"/>` +
      `<text x="${x + (w - 2) / 2}" y="${top + 20}" class="track-no" text-anchor="middle">` +
      `${DATA.scroll[k]}</text>`;
    stacks[k].sort((a, b) => a[0] - b[0]).forEach(([, s], n) => {
      out += `<g><title>${esc(seatName(s))} on space ${k}${n ? " (on top of " + n + ")" : ""}</title>` +
        seatDot(s, 9, x + (w - 2) / 2, top - 11 - n * 7) + "</g>";
    });
  }
  return out + "</svg>";
}

// -- the players ------------------------------------------------------------------------------
function goalsDone(player, features) {
  const cells = {};
  for (const [kind, , , list] of features) {
    for (const cell of list) (cells[kind] = cells[kind] || new Set()).add(cell);
  }
  const done = new Set();
  player.frame.forEach(([, goals], side) => {
    goals.forEach(([kind, , line], g) => {
      if (cells[kind] && goalCells(side, line).some((cell) => cells[kind].has(cell))) {
        done.add(`${side}:${g}`);
      }
    });
  });
  return done;
}

function fountainCardHTML(id) {
  const [goal, vp] = DATA.fountains[id] || [0, 0];
  return `<div class="fcard" style="border-color:${KINDS[goal].color}"><b>${esc(id)}</b>` +
    `<span>${vp} VP per complete ${esc(kindName(goal))}</span></div>`;
}

function playerHTML(seat, state, i) {
  const player = DATA.players[seat];
  const p = state[`p${seat}`];
  const before = i > 0 ? STATES[i - 1][`p${seat}`] : p;
  const built = player.built.slice(0, p[P.built]);
  const fresh = new Set(player.built.slice(before[P.built], p[P.built]).map((b) => b[0]));
  const features = player.features.slice(0, p[P.features]);
  const completed = new Set(player.features.slice(before[P.features], p[P.features])
    .flatMap((f) => f[3]));
  const step = DATA.steps[i];
  const final = step.k === "final" ? DATA.final.seats[seat] : null;
  const board = player.board;
  const done = goalsDone(player, features);
  let frameVP = 0;
  player.frame.forEach(([, goals], side) => goals.forEach(([, vp], g) => {
    if (done.has(`${side}:${g}`)) frameVP += vp;
  }));
  const svg = districtSVG(board, player.frame, built,
    {t: 42, frame: 24, done, fresh, completed, tiles: TILES});
  const moved = (k) => k === P.pawn ? "" : p[k] > before[k] ? "up" : p[k] < before[k] ? "down" : "";
  const stat = (name, k, label) =>
    `<div class="stat" title="${esc(label || name)}">${icon(name)}<b class="${moved(k)}">` +
    `${k === P.pawn ? (p[k] >= 0 ? p[k] + 1 : "–") : p[k]}</b><span>${esc(label || name)}</span></div>`;
  const counts = {};
  for (const [kind] of features) counts[kind] = (counts[kind] || 0) + 1;
  const chips = Object.keys(counts).map((kind) => `<span class="chip" style="background:` +
    `${KINDS[kind].color}">${counts[kind]} ${esc(kindName(Number(kind)))}</span>`).join("");
  const classes = ["player"];
  if (step.a === seat && step.k !== "final") classes.push("acting");
  if (final && final.won) classes.push("winner");
  return `<section class="${classes.join(" ")}" data-seat="${seat + 1}" data-frame-vp="${frameVP}">` +
    `<header style="background:${SEAT_COLORS[seat]}"><span class="seat-no">Seat ${seat + 1}</span>` +
    `<span class="strategy">${esc(player.strategy)}</span>` +
    (state.sp === seat ? '<span class="badge">start player</span>' : "") +
    (final ? `<span class="badge">${final.won ? "winner · " : ""}rank ${final.rank}</span>` : "") +
    `<span class="vp" title="VP held: start + objective cards + scroll overflow">` +
    `${icon("vp", 20)}${final ? final.final : p[P.vp]}</span></header>` +
    `<div class="player-body">${svg}<div class="stats">` +
    `<div class="goods">${GOODS.map((g, k) => `<span title="${g}">${icon(g, 20)}` +
      `<b class="${moved(P.goods + k)}">${p[P.goods + k]}</b></span>`).join("")}</div>` +
    stat("coins", P.coins) + stat("bread", P.bread) + stat("stored", P.stored, "stored tiles") +
    stat("scroll", P.scroll, "scroll-track space") + stat("pawn", P.pawn, "patrician space") +
    `<div class="fountains"><h4>Fountain cards</h4>${(state[`f${seat}`] || []).map(fountainCardHTML)
      .join("") || '<span class="none">none yet</span>'}</div>` +
    `<div class="chips"><h4>Complete</h4>${chips || '<span class="none">nothing yet</span>'}</div>` +
    `<div class="board-no">board ${board ? board[0] : "–"} · frame parts ` +
    `${player.frame.map(([id]) => id).join(", ")}</div>` +
    "</div></div></section>";
}

// -- final scoring -----------------------------------------------------------------------------
const PART_COLORS = {start: "#b8a98a", cards: "#d07a3a", villas: "#c65a3d", leftovers: "#8b7d6b",
  scroll: "#c9a44c", fountains: "#2fa3b8", frame: "#4f7f4a"};

// One seat's bar: each part to its size on the scale all seats share (``scale``: the most
// any seat gained and the most any seat lost), gains right of a zero line, losses (failed
// cards) hatched to its left, and a mark at the seat's total.
function finalBar(s, parts, scale) {
  const pc = (v) => (100 * v / (scale.gain + scale.loss)).toFixed(2);
  const zero = scale.loss;
  let bar = `<i class="zero" style="left:${pc(zero)}%"></i>`;
  let gained = 0;
  let lost = 0;
  for (const k of parts) {
    const v = s.breakdown[k];
    if (v === 0) continue;
    const from = v > 0 ? zero + gained : zero - lost - (-v);
    if (v > 0) gained += v; else lost += -v;
    bar += `<span data-part="${k}" data-vp="${v}" class="${v < 0 ? "loss" : ""}" ` +
      `style="left:${pc(from)}%;width:${pc(Math.abs(v))}%;--part:${PART_COLORS[k]}" ` +
      `title="${k}: ${v}"></span>`;
  }
  return bar + `<i class="total-mark" style="left:${pc(zero + s.final)}%" ` +
    `title="total: ${s.final}"></i>`;
}

function finalHTML() {
  const seats = DATA.final.seats;
  const parts = DATA.breakdown;
  const sum = (s, sign) => parts.reduce((a, k) => a + Math.max(0, sign * s.breakdown[k]), 0);
  const scale = {gain: Math.max(1, ...seats.map((s) => sum(s, 1))),
    loss: Math.max(0, ...seats.map((s) => sum(s, -1)))};
  let out = '<section id="final" class="final"><h2>Final scoring</h2><table><thead><tr><th>seat</th>' +
    "<th>strategy</th>" + parts.map((k) => `<th>${k}</th>`).join("") +
    '<th>total</th><th>rank</th><th class="bars"></th></tr></thead><tbody>';
  seats.forEach((s, seat) => {
    out += `<tr data-seat="${seat + 1}" data-final="${s.final}" class="${s.won ? "won" : ""}">` +
      `<td><span class="seat-chip" style="background:${SEAT_COLORS[seat]}">${seat + 1}</span></td>` +
      `<td>${esc(DATA.players[seat].strategy)}</td>` +
      parts.map((k) => `<td data-part="${k}">${s.breakdown[k]}</td>`).join("") +
      `<td class="total">${s.final}</td><td>${s.rank}${s.won ? " \u2605" : ""}</td>` +
      `<td class="bars"><div class="bar">${finalBar(s, parts, scale)}</div></td></tr>`;
  });
  out += "</tbody></table>";
  out += '<p class="keys">' + parts.map((k) => `<span><i style="background:${PART_COLORS[k]}">` +
    `</i>${k}</span>`).join("") + '<span><i class="loss-key"></i>lost (left of the zero line)' +
    '</span><span><i class="total-key"></i>total</span></p>';
  if (DATA.final.tiebreak) out += "<p>Tied on VP: the scroll-track tie-break decided (R10.6).</p>";
  return out + "</section>";
}

// -- the page ---------------------------------------------------------------------------------
function draw(i) {  // step i as the page draws it; stepper.js does the rest
  const state = STATES[i];
  const step = DATA.steps[i];
  document.getElementById("central").innerHTML = centralSVG(state, i);
  document.getElementById("seal").innerHTML = sealHTML(state);
  document.getElementById("cards").innerHTML = cardGridHTML(state, i);
  document.getElementById("track").innerHTML = trackSVG(state);
  document.getElementById("players").innerHTML =
    Array.from({length: N}, (_, s) => playerHTML(s, state, i)).join("");
  document.getElementById("trace").innerHTML = step.t.map((line, k) =>
    `<div class="${k ? "sub" : "main"}">${esc(line)}</div>`).join("");
  document.getElementById("final-slot").innerHTML = step.k === "final" ? finalHTML() : "";
}

function init() {
  document.getElementById("defs").innerHTML = defsSVG();
  const strategies = DATA.players.map((p, s) => `${s + 1}: ${p.strategy}`).join(" · ");
  document.getElementById("meta").textContent =
    `seed ${DATA.seed}${DATA.setup !== null ? ", setup " + DATA.setup : ""} · ${N} players · ` +
    `${strategies} · component set ${DATA.components.digest}` +
    (DATA.components.default ? " (the reconstructed default)" : "") + ` · cdsim ${DATA.version}`;
  document.getElementById("legend").innerHTML = legendHTML();
  stepper({count: DATA.steps.length, draw, title: stepTitle, interval: 700});
}

init();
