// The replay of one game of The Castles of Tuscany (cdsim play --game castles --html): the
// data is embedded as JSON (cdsim/games/castles/view.py); each step holds only what changed, so the
// states are rebuilt once here and drawn on demand. A step is one decision, drawn in the state
// it was taken in; the last step is the end of the game with the final scoring.

const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const N = DATA.players.length;
// T1.1: the eight colours, each a hex type, in the core's order (castles::Colour)
const COLOURS = {castle: "#2e6b35", city: "#c0392b", estate: "#2aa198", farm: "#93c95f",
  quarry: "#8c8c8c", village: "#e67e22", monastery: "#f1c40f", cart: "#d9c8a0"};
const COLOUR_NAMES = Object.keys(COLOURS);
// the light colours carry dark writing
const INK = {farm: "#1d3510", monastery: "#4a3b00", cart: "#3b2a18"};
const TOKENS = ["card", "storage", "marble", "worker", "harvest"];
const CROP_MARK = {vineyard: "V", boar: "B", olive: "O", grain: "G"};
const STATES = [];
{
  let state = {seats: []};
  for (const step of DATA.steps) {
    const d = step.d;
    const seats = state.seats.slice();
    for (const [seat, changed] of Object.entries(d.seats || {})) {
      seats[Number(seat)] = Object.assign({}, seats[Number(seat)] || {}, changed);
    }
    state = Object.assign({}, state, d, {seats});
    STATES.push(state);
  }
}

const hexPoints = (x, y, r) => Array.from({length: 6}, (_, k) => {
  const a = Math.PI / 3 * k;
  return `${f1(x + r * Math.cos(a))},${f1(y + r * Math.sin(a))}`;
}).join(" ");

function hexTileSVG(tile, r) {  // one display or storage tile, a hex of its colour
  const size = 2 * r + 4;
  const crops = (tile.crops || []).map((c) => CROP_MARK[c]).join("");
  return `<svg class="tile" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<title>${esc(tile.colour)}${crops ? " (" + esc(tile.crops.join(", ")) + ")" : ""}` +
    `${tile.neutral ? ", neutral back" : ""}</title>` +
    `<polygon points="${hexPoints(size / 2, size / 2, r)}" fill="${COLOURS[tile.colour]}" ` +
    `stroke="${tile.neutral ? "#5b3a22" : "#fff"}" stroke-width="1.5"/>` +
    (crops ? `<text x="${size / 2}" y="${size / 2 + 4}" text-anchor="middle" font-size="10" ` +
      `fill="#1d3510">${crops}</text>` : "") + "</svg>";
}

// A seat's board as laid (T2.6): flat-topped hexes, odd columns half a hex lower (TC8).
function boardSVG(seat, before) {
  if (!seat.board || !seat.board.length) {
    return '<div class="none">pieces not laid yet</div>';
  }
  const r = 19;
  const h = Math.sqrt(3) * r;
  const place = (s) => [s.col * 1.5 * r, (s.row + (s.col % 2 ? 0.5 : 0)) * h];
  const xs = seat.board.map((s) => place(s)[0]);
  const ys = seat.board.map((s) => place(s)[1]);
  const [x0, y0] = [Math.min(...xs) - r - 2, Math.min(...ys) - h / 2 - 2];
  const width = Math.max(...xs) - x0 + r + 2;
  const height = Math.max(...ys) - y0 + h / 2 + 2;
  const farms = new Map((seat.farms || []).map(([space, crops, wood]) => [space, [crops, wood]]));
  const fresh = before && before.filled !== undefined ? seat.filled & ~before.filled : 0;
  const cells = seat.board.map((s, i) => {
    const [x, y] = place(s);
    const covered = (seat.filled >>> i) & 1;
    const farm = farms.get(i);
    const marks = farm ? farm[0].map((c) => CROP_MARK[c]).join("") + (farm[1] ? "W" : "") : "";
    return `<g class="space${covered ? " covered" : ""}${(fresh >>> i) & 1 ? " fresh" : ""}" ` +
      `data-space="${s.name}"><title>${s.name}: ${s.colour}${covered ? ", covered" : ", free"}` +
      `${marks ? " (" + marks + ")" : ""}</title>` +
      `<polygon points="${hexPoints(x - x0, y - y0, r - 1)}" fill="${COLOURS[s.colour]}" ` +
      `fill-opacity="${covered ? 1 : 0.25}" stroke="${covered ? "#3b2a18" : COLOURS[s.colour]}" ` +
      `stroke-width="${(fresh >>> i) & 1 ? 3 : 1}"/>` +
      `<text x="${f1(x - x0)}" y="${f1(y - y0 + 3)}" text-anchor="middle" font-size="9" ` +
      `fill="${covered ? INK[s.colour] || "#fff" : "#6b5634"}">${marks || s.name}</text></g>`;
  }).join("");
  return `<svg class="board" width="${f1(width)}" height="${f1(height)}" ` +
    `viewBox="0 0 ${f1(width)} ${f1(height)}">${cells}</svg>`;
}

function stat(label, value, title) {
  return `<div class="stat" title="${esc(title || label)}"><b>${value}</b><span>${esc(label)}</span></div>`;
}

function handHTML(hand) {
  const chips = hand.map((k, c) => k ? `<span class="chip" style="background:` +
    `${COLOURS[COLOUR_NAMES[c]]};color:${INK[COLOUR_NAMES[c]] || "#fff"}" title="${COLOUR_NAMES[c]} cards">${k} ${COLOUR_NAMES[c]}</span>`
    : "").join("");
  return chips || '<span class="none">no cards</span>';
}

function storageHTML(storage) {
  return storage.map((x, k) => `<span class="slot" title="storage ${k + 1}">` +
    (x === null ? '<span class="none">empty</span>' : x === "wood" ? "wooden hex" :
      hexTileSVG(x.tile, 10)) + "</span>").join(" ");
}

function playerHTML(s, state, i) {
  const seat = state.seats[s];
  const before = i > 0 ? STATES[i - 1].seats[s] : null;
  const step = DATA.steps[i];
  const final = step.k === "final" ? DATA.final[s] : null;
  const classes = ["player"];
  if (step.a === s) classes.push("acting");
  if (final && final.won) classes.push("winner");
  const tokens = seat.tokens.map((k, t) => k ? `${k} ${TOKENS[t]}` : "").filter(Boolean)
    .join(", ");
  return `<section class="${classes.join(" ")}" data-seat="${s + 1}" data-red="${seat.red}" ` +
    `data-green="${seat.green}">` +
    `<header style="background:${SEAT_COLORS[s]}"><span class="seat-no">Seat ${s + 1}</span>` +
    `<span class="strategy">${esc(DATA.players[s].strategy)}</span>` +
    (state.turn === s && !final ? '<span class="badge">to play</span>' : "") +
    (final ? `<span class="badge">${final.won ? "winner · " : ""}rank ${final.rank}</span>` : "") +
    `<span class="vp" title="red VP (scored); green VP wait for the next scoring">` +
    `${final ? final.final_vp : seat.red} VP</span></header>` +
    `<div class="player-body">${boardSVG(seat, before)}<div class="stats">` +
    stat("red VP", seat.red, "red track: VP scored") +
    stat("green VP", seat.green, "green track: VP at the next scoring") +
    stat("workers", seat.workers) + stat("marble", seat.marble) +
    stat("tiles left", seat.stack_left, "tiles left in its stacks") +
    stat("placed", `${seat.placed_tiles}+${seat.placed_wood}`, "tiles + wooden hexes placed") +
    `<h4>Hand</h4><div class="hand">${handHTML(seat.hand)}</div>` +
    `<h4>Storage</h4><div class="storage">${storageHTML(seat.storage)}</div>` +
    `<h4>Tokens</h4><div>${tokens || '<span class="none">none</span>'}</div>` +
    "</div></div></section>";
}

function marketHTML(state) {
  const slots = state.display.map((t, k) => `<span class="slot" title="display slot ${k + 1}">` +
    `<small>${k + 1}</small>${t ? hexTileSVG(t, 14) : '<span class="none">–</span>'}</span>`).join("");
  const claims = state.colour_claims.map((k, c) => k ? `${COLOUR_NAMES[c]} ${k}` : "")
    .filter(Boolean).join(", ");
  const supply = state.bonus_supply.map((k, t) => `${TOKENS[t]} ${k}`).join(", ");
  const phase = `phase ${state.phase}${state.final_round ? " (final round)" : ""}` +
    `${state.triggered ? ", end triggered" : ""}`;
  return `<div class="display">${slots}</div>` +
    `<div class="stats">${stat("phase", state.phase, phase)}` +
    stat("game cards", state.deck, "game cards in the draw pile") +
    stat("harvest cards", state.harvest) + stat("neutral tiles", state.reserve) +
    stat("set aside", state.aside) +
    `<h4>Bonus tokens</h4><div>${supply}</div>` +
    `<h4>Colour bonuses claimed</h4><div>${claims || '<span class="none">none yet</span>'}</div>` +
    "</div>";
}

function finalHTML() {
  const parts = DATA.breakdown;
  let out = '<section id="final" class="final"><h2>Final scoring</h2><table><thead><tr>' +
    "<th>seat</th><th>strategy</th>" +
    parts.map((k, i) => `<th title="${esc(k)}">${esc(DATA.words[i])}</th>`).join("") +
    "<th>total</th><th>rank</th></tr></thead><tbody>";
  DATA.final.forEach((s, seat) => {
    out += `<tr data-seat="${seat + 1}" data-final="${s.final_vp}" class="${s.won ? "won" : ""}">` +
      `<td><span class="seat-chip" style="background:${SEAT_COLORS[seat]}">${seat + 1}</span></td>` +
      `<td>${esc(DATA.players[seat].strategy)}</td>` +
      parts.map((k) => `<td data-part="${k}">${s.breakdown[k]}</td>`).join("") +
      `<td class="total">${s.final_vp}</td><td>${s.rank}${s.won ? " \u2605" : ""}</td></tr>`;
  });
  out += "</tbody></table>";
  if (DATA.tiebreak) {
    out += "<p>Tied on VP: the most empty spaces, then the most green VP decided (T11.4).</p>";
  }
  return out + "</section>";
}

function stepTitle(i) {
  const step = DATA.steps[i];
  const state = STATES[i];
  if (step.k === "final") return "End of the game: final scoring";
  return `Phase ${state.phase} · seat ${step.a + 1} (${DATA.players[step.a].strategy}) · ${step.k}`;
}

// -- the page ---------------------------------------------------------------------------------
function draw(i) {  // step i as the page draws it; stepper.js does the rest
  const state = STATES[i];
  const step = DATA.steps[i];
  document.getElementById("market").innerHTML = marketHTML(state);
  document.getElementById("players").innerHTML =
    Array.from({length: N}, (_, s) => playerHTML(s, state, i)).join("");
  const chose = step.k === "final" ? step.t :
    `seat ${step.a + 1} ${step.t}` + (step.n > 1 ? ` (one of ${step.n} options)` : "");
  document.getElementById("trace").innerHTML = `<div class="main">${esc(chose)}</div>`;
  document.getElementById("final-slot").innerHTML = step.k === "final" ? finalHTML() : "";
}

function init() {
  const strategies = DATA.players.map((p, s) => `${s + 1}: ${p.strategy}`).join(" · ");
  document.getElementById("meta").textContent =
    `seed ${DATA.seed}${DATA.setup !== null ? ", setup " + DATA.setup : ""} · ${N} players · ` +
    `${strategies} · component set ${DATA.components.digest}` +
    (DATA.components.default ? " (the built-in set)" : "") + ` · cdsim ${DATA.version}`;
  document.getElementById("legend").innerHTML = COLOUR_NAMES.map((c) =>
    `<span>${hexTileSVG({colour: c}, 8)}${c}</span>`).join("") +
    "<span>crops: V vineyard, B boar, O olive, G grain; W a wooden hex</span>";
  stepper({count: DATA.steps.length, draw, title: stepTitle, interval: 500});
}

init();
