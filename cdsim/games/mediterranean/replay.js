// The replay of one game of the Mediterranean trading game (cdsim play --game mediterranean
// --html): the data is embedded as JSON (cdsim/games/mediterranean/view.py); each step holds only
// what changed, so the states are rebuilt once here and drawn on demand. The map is drawn from
// the component set (DATA.board, the core's frame): the cities, their regions and the routes
// with their distance tiles. A rowing card laid face down (M5.1) arrives here only as
// "face down", still counted in its seat's hand, until every seat has laid one and the cards
// are turned up ("played"); a face-down contract of the row arrives only as its coins.

const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const N = DATA.players.length;
const BOARD = DATA.board;
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

// a fifth seat's colour: the four shared seat colours seat at most 4 players
const FIFTH_SEAT_COLOR = "#2a9d8f";

function seatColor(s) {
  return s < SEAT_COLORS.length ? SEAT_COLORS[s] : FIFTH_SEAT_COLOR;
}

// the regions' colours (MC2 names them) in tones that carry white writing; another name
// is drawn as the browser reads it
const TONES = {red: "#c0392b", green: "#3e8e41", blue: "#2f6db5", purple: "#7b4aa0",
  yellow: "#d4a017", orange: "#e67e22", brown: "#8b5a33", black: "#333", white: "#bbb"};
const REGION = new Map(BOARD.regions.map((r) => [r.name, TONES[r.colour] || r.colour]));
const regionColor = (name) => REGION.get(name) || "#8d7650";
const GOLD_TEMPLE = "gold";

// -- the map ----------------------------------------------------------------------------------
// The rulebook prints no map (MC2, MC3): the set names the cities and the routes, not where
// they lie. A city of the built-in set stands near its place on the real sea (longitude,
// latitude, nudged apart where two crowd, and the side its name is written on); a city this
// table does not know is put on a ring around the sea, in the set's order.
const PLACES = {
  "Carthago Nova": [-1.2, 37.4, "s"], "Saguntum": [-0.4, 39.6, "w"], "Tarraco": [1.4, 41.3, "n"],
  "Roma": [12.3, 42.0, "n"], "Neapolis": [14.6, 40.7, "e"], "Syracusae": [15.3, 37.0, "e"],
  "Carthago": [10.2, 36.8, "w"], "Leptis Magna": [14.0, 32.6, "s"], "Cyrene": [21.8, 32.6, "s"],
  "Alexandria": [29.9, 31.2, "s"], "Tyros": [35.4, 33.2, "e"], "Antiochia": [36.2, 36.4, "n"],
  "Pergamum": [27.2, 39.4, "n"], "Athenae": [24.4, 38.5, "n"], "Corinthus": [21.3, 37.6, "w"],
  "Crete": [24.9, 35.0, "s"],
};
// the built-in regions' names where the sea leaves room for them; another region's name
// goes under its cities
const REGION_PLACES = {"Hispania": [4.6, 39.4], "Italia": [8.6, 39.9], "Africa": [18.0, 31.2],
  "Graecia": [24.6, 41.0], "Aegyptus": [31.6, 35.9]};
const project = (lon, lat) => [50 + (lon + 2) * 23.5, 40 + (42.6 - lat) * 30];
const MAP_W = 1000;
const MAP_H = 430;
const MAP = (() => {
  const at = new Map();
  const unknown = BOARD.cities.filter((c) => !PLACES[c.name]);
  for (const c of BOARD.cities) {
    const p = PLACES[c.name];
    if (p) {
      const [x, y] = project(p[0], p[1]);
      at.set(c.name, {x, y, side: p[2]});
    }
  }
  unknown.forEach((c, k) => {
    const a = 2 * Math.PI * k / unknown.length - Math.PI / 2;
    at.set(c.name, {x: MAP_W / 2 + 400 * Math.cos(a), y: MAP_H / 2 + 160 * Math.sin(a),
      side: Math.sin(a) < 0 ? "n" : "s"});
  });
  return at;
})();

// the shortest way between two cities over the routes' distance tiles (M5.5): the routes'
// numbers, in order (ties broken by the set's order of the routes)
function shortestWay(miles, from, to) {
  const dist = new Map([[from, 0]]);
  const via = new Map();
  const todo = new Set(BOARD.cities.map((c) => c.name));
  while (todo.size) {
    let here = null;
    for (const c of todo) if (dist.has(c) && (here === null || dist.get(c) < dist.get(here))) here = c;
    if (here === null || here === to) break;
    todo.delete(here);
    BOARD.routes.forEach((r, k) => {
      const there = r.a === here ? r.b : r.b === here ? r.a : null;
      const d = dist.get(here) + miles[k];
      if (there !== null && todo.has(there) && !(dist.get(there) <= d)) {
        dist.set(there, d);
        via.set(there, [here, k]);
      }
    });
  }
  const way = [];
  for (let c = to; c !== from && via.has(c); c = via.get(c)[0]) way.unshift(via.get(c)[1]);
  return way;
}

// each seat's ship keeps its own place beside a city, so ships in one city never hide
// each other: a ring around the city, leaving free the side its name is written on
function shipPlace(city, seat) {
  const p = MAP.get(city);
  const away = {n: -Math.PI / 2, s: Math.PI / 2, e: 0, w: Math.PI}[p.side];
  const a = away + Math.PI * (0.45 + 1.1 * seat / Math.max(N - 1, 1));
  return [p.x + 30 * Math.cos(a), p.y + 27 * Math.sin(a)];
}

function shipSVG(x, y, seat, acting, city) {
  return `<g class="ship${acting ? " acting" : ""}" data-seat="${seat + 1}" ` +
    `data-city="${esc(city)}" transform="translate(${f1(x)} ${f1(y)})">` +
    `<title>seat ${seat + 1}'s ship in ${esc(city)}</title>` +
    (acting ? '<ellipse cx="0" cy="-2" rx="17" ry="14" fill="#ffe04a" opacity=".85"/>' : "") +
    '<path d="M0 -4V-15L9 -5Z" fill="#fffaf0" stroke="#33291d" stroke-width=".8"/>' +
    `<path d="M-12 -4H12L8 7H-8Z" fill="${seatColor(seat)}" stroke="#33291d" stroke-width="1"/>` +
    '<text class="ship-no" x="0" y="5" text-anchor="middle">' + (seat + 1) + "</text></g>";
}

function label(name, p) {
  const [dx, dy, anchor] = {n: [0, -15, "middle"], s: [0, 22, "middle"], e: [13, 4, "start"],
    w: [-13, 4, "end"]}[p.side];
  return `<text class="city-name" x="${f1(p.x + dx)}" y="${f1(p.y + dy)}" ` +
    `text-anchor="${anchor}">${esc(name)}</text>`;
}

function mapSVG(state, i) {
  const step = DATA.steps[i];
  const miles = state.miles || [];
  const way = step.k === "sail" && step.from ? shortestWay(miles, step.from, step.to) : [];
  const routes = BOARD.routes.map((r, k) => {
    const [a, b] = [MAP.get(r.a), MAP.get(r.b)];
    const open = r.kind !== "coastal";
    const [mx, my] = [(a.x + b.x) / 2, (a.y + b.y) / 2];
    return `<g class="route${way.includes(k) ? " sailed" : ""}" data-route="${k}">` +
      `<title>${esc(r.a)} \u2013 ${esc(r.b)}: ${esc(r.kind)}, ${miles[k]} miles</title>` +
      `<line x1="${f1(a.x)}" y1="${f1(a.y)}" x2="${f1(b.x)}" y2="${f1(b.y)}" ` +
      `stroke="${open ? "#1d4f7a" : "#4f86b0"}" stroke-width="${open ? 2 : 2.5}"` +
      `${open ? ' stroke-dasharray="7 5"' : ""}/>` +
      `<rect x="${f1(mx - 10)}" y="${f1(my - 8)}" width="20" height="16" rx="${open ? 8 : 3}" ` +
      `fill="#fffaf0" stroke="${open ? "#1d4f7a" : "#4f86b0"}"/>` +
      `<text class="miles" x="${f1(mx)}" y="${f1(my + 4)}" text-anchor="middle">${miles[k]}</text></g>`;
  }).join("");
  const sailed = way.map((k) => {
    const r = BOARD.routes[k];
    const [a, b] = [MAP.get(r.a), MAP.get(r.b)];
    return `<line x1="${f1(a.x)}" y1="${f1(a.y)}" x2="${f1(b.x)}" y2="${f1(b.y)}"/>`;
  }).join("");
  const cities = BOARD.cities.map((c) => {
    const p = MAP.get(c.name);
    const start = c.name === BOARD.start;
    const marked = step.to === c.name ? " chosen" : "";
    return `<g class="city${marked}" data-city="${esc(c.name)}"><title>${esc(c.name)}: ` +
      `${c.region ? esc(c.region) : "no region (the ships' start)"}</title>` +
      (marked ? `<circle cx="${f1(p.x)}" cy="${f1(p.y)}" r="16" fill="none" ` +
        `stroke="${seatColor(step.a)}" stroke-width="3" stroke-dasharray="5 3"/>` : "") +
      (start ? `<rect class="dot" x="${f1(p.x - 9)}" y="${f1(p.y - 9)}" width="18" height="18" rx="3" ` +
        `fill="#f6ecd3" stroke="#5b3a22" stroke-width="1.5"/>` :
        `<circle class="dot" cx="${f1(p.x)}" cy="${f1(p.y)}" r="9" fill="${regionColor(c.region)}" ` +
        `stroke="#fff" stroke-width="2"/>`) +
      label(c.name, p) + "</g>";
  }).join("");
  const regions = BOARD.regions.map((r) => {
    const mine = BOARD.cities.filter((c) => c.region === r.name).map((c) => MAP.get(c.name));
    if (!mine.length) return "";
    const known = REGION_PLACES[r.name];
    const [x, y] = known ? project(known[0], known[1]) :
      [mine.reduce((s, p) => s + p.x, 0) / mine.length,
        mine.reduce((s, p) => s + p.y, 0) / mine.length + 30];
    return `<text class="region-name" data-region="${esc(r.name)}" x="${f1(x)}" ` +
      `y="${f1(y)}" text-anchor="middle" ` +
      `fill="${regionColor(r.name)}">${esc(r.name.toUpperCase())}</text>`;
  }).join("");
  const ships = (state.seats || []).map((s, seat) => {
    const [x, y] = shipPlace(s.ship, seat);
    return shipSVG(x, y, seat, step.a === seat, s.ship);
  }).join("");
  const legend = `<g class="map-legend" transform="translate(14 ${MAP_H - 44})">` +
    `<line x1="0" y1="6" x2="26" y2="6" stroke="#4f86b0" stroke-width="2.5"/>` +
    `<text x="32" y="10">coastal space</text>` +
    `<line x1="0" y1="24" x2="26" y2="24" stroke="#1d4f7a" stroke-width="2" stroke-dasharray="7 5"/>` +
    `<text x="32" y="28">open sea</text>` +
    `<text x="120" y="10">the number on a route: its distance tile, in miles (M2.3)</text>` +
    `<text x="120" y="28">wind ${state.wind} \u00b7 forecast ${forecastText(state.forecast)}</text></g>`;
  return `<svg class="sea-map" width="${MAP_W}" height="${MAP_H}" viewBox="0 0 ${MAP_W} ${MAP_H}" ` +
    `role="img" aria-label="the map">` +
    `<rect width="${MAP_W}" height="${MAP_H}" rx="10" fill="#d7e9f3"/>` + regions +
    // the step's sail: a band in the seat's colour under the routes' lines and tiles
    (sailed ? `<g class="way" stroke-linecap="round" stroke="${seatColor(step.a)}" ` +
      `stroke-width="11" opacity=".8">${sailed}</g>` : "") + routes + cities + ships + legend +
    "</svg>";
}

// -- the words --------------------------------------------------------------------------------
// M5.2: the turned-up cards' wind modifiers summed; none until every seat has laid
function forecastText(forecast) {
  if (forecast === null || forecast === undefined) return "none yet";
  return forecast > 0 ? `+${forecast}` : String(forecast);
}

const signed = (n) => n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";

function stat(label, value, title) {
  return `<div class="stat" title="${esc(title || label)}"><b>${esc(String(value))}</b>` +
    `<span>${esc(label)}</span></div>`;
}

// a contract's reward (M1.3): gold, or temple points in its city's region
function reward(c) {
  return c.gold > 0 ? `${c.gold} gold` :
    `${c.temple} temple point${c.temple === 1 ? "" : "s"} in ${c.region}`;
}

function contractHTML(c) {
  return `<span class="contract"><span class="good">${esc(c.good)}</span> to <b class="to" ` +
    `style="color:${regionColor(c.region)}">${esc(c.city)}</b>: ${esc(reward(c))}</span>`;
}

// a rowing card's face: the crew's rowing power and the wind modifier (M1.2)
function cardHTML(id) {
  const [power, wind] = BOARD.rowing[id];
  return `<span class="rcard" title="rowing power ${power}, wind ${signed(wind)}">` +
    `<b>${power}</b><i>${signed(wind)}</i></span>`;
}

const MARK = {open: "\u25cb", delivered: "\u2713", lost: "\u2717", empty: "\u00b7"};

function registerHTML(seat, column) {
  return '<ol class="register">' + seat.register.map((c, k) =>
    `<li class="${c.status}${k === column ? " chosen" : ""}" data-status="${c.status}">` +
    `<span class="mark" title="${c.status}">${MARK[c.status]}</span>` +
    (c.status === "empty" ? '<span class="none">empty</span>' :
      contractHTML(c) + (c.status === "open" ? "" : ` <i>(${c.status})</i>`)) + "</li>").join("") +
    "</ol>";
}

// the register column the step's decision fills (a contract taken) or delivers (a sail)
function chosenColumn(seat, step) {
  if (step.column !== undefined) return step.column;
  if (!step.delivers) return -1;
  return seat.register.findIndex((c) => c.status === "open" && c.city === step.to &&
    c.good === step.delivers);
}

function playerHTML(s, state, i) {
  const seat = state.seats[s];
  const step = DATA.steps[i];
  const final = step.k === "final" ? DATA.final[s] : null;
  const classes = ["player", "seat"];
  if (step.a === s) classes.push("acting", "to-move");
  if (final && final.shared) classes.push("winner");
  const laid = seat.laid === "face down" ? "face down" : "none";
  const tiles = seat.tiles.map(([temple, round, points]) =>
    `<span class="chip" style="background:${temple === GOLD_TEMPLE ? "#b8860b" :
      regionColor(temple)}" title="${esc(temple)} temple, round ${round}">` +
    `${temple === GOLD_TEMPLE ? "gold temple" : esc(temple)} ${round}: ${points}</span>`).join("") +
    seat.bonus.map((p) => `<span class="chip bonus" title="a bonus tile (M6.1)">bonus ${p}</span>`)
      .join("");
  return `<section class="${classes.join(" ")}" data-seat="${s + 1}" data-laid="${laid}" ` +
    `data-hand="${seat.hand.length}">` +
    `<header style="background:${seatColor(s)}">` +
    `<span class="seat-no">Seat ${s + 1}</span>` +
    `<span class="strategy">${esc(DATA.players[s].strategy)}</span>` +
    (final ? `<span class="badge">${final.shared ? "winner · " : ""}rank ${final.rank}</span>` : "") +
    `<span class="vp">${final ? final.final_vp : seat.points} VP</span></header>` +
    `<div class="player-body"><div class="stats">` +
    stat("gold", seat.gold) + stat("ship in", seat.ship) +
    `<h4>rowing cards in hand (power, wind)</h4><div class="hand">` +
    (seat.hand.length ? seat.hand.map(cardHTML).join("") : '<span class="none">none</span>') +
    "</div>" +
    stat("rowing card laid", laid, "M5.1: laid face down, turned up when every seat has laid") +
    `<h4>played this round</h4><div class="hand">` +
    (seat.played.length ? seat.played.map(cardHTML).join("") : '<span class="none">none</span>') +
    "</div>" +
    `<h4>tiles won</h4><div>${tiles || '<span class="none">none yet</span>'}</div>` +
    `</div><div class="contracts"><h4>contract register</h4>` +
    registerHTML(seat, step.a === s ? chosenColumn(seat, step) : -1) +
    "</div></div></section>";
}

function seaHTML(state) {
  const order = (state.order || []).map((s) => s + 1).join(", ");
  return `<div class="stats sea-stats">` + stat("round", state.round) + stat("phase", state.phase) +
    stat("turn", state.turn) + stat("wind", state.wind) +
    stat("forecast", forecastText(state.forecast), "M5.2: the wind modifiers of the rowing " +
      "cards turned up this turn, summed and held to the track's ends (none until every seat " +
      "has laid one); after every seat has sailed the wind moves level with it (M5.10)") +
    stat("play order (seats)", order) + stat("coins in the supply", state.bank) +
    stat("bonus tiles left", state.bonus_left) + "</div>";
}

function rowHTML(state, step) {
  const row = state.row || [];
  if (!row.length) return '<p class="none">no contract on offer</p>';
  return '<div class="row">' + row.map((o, k) => {
    const chosen = o.face_up && o.city === step.to && o.good === step.good;
    return `<div class="offer${o.face_up ? "" : " down"}${chosen ? " chosen" : ""}" ` +
      `data-offer="${k}">` + (o.face_up ? contractHTML(o) + " " + cardHTML(o.rowing) :
        '<span class="back">face down</span>') +
      (o.coins ? ` <span class="coins">${o.coins} coin${o.coins === 1 ? "" : "s"} on it</span>` : "") +
      "</div>";
  }).join("") + "</div>";
}

// M6.2-M6.6: each temple's standing, the seats with points best first (a tie: the token
// lower in the stack, the earlier arrival), the gold temple's by coins (a tie: the earlier
// in the play order); this round's points tiles and the later rounds'
function templesHTML(state) {
  // the round whose tiles lie on the temples (at the end every tile is given out)
  const round = state.phase === "Over" ? BOARD.rounds.length :
    Math.min(state.round || 1, BOARD.rounds.length) - 1;
  const seats = state.seats || [];
  const place = (s) => (state.order || []).indexOf(s);
  return '<table class="temples"><thead><tr><th>temple</th><th>points tiles by round</th>' +
    "<th>standing (seat: points)</th></tr></thead><tbody>" + BOARD.temples.map((temple, t) => {
    const gold = temple === GOLD_TEMPLE;
    const ranked = seats.map((s, k) => ({k, v: gold ? s.gold : s.temple[t],
      tie: gold ? place(k) : s.arrived[t]}))
      .filter((e) => e.v > 0).sort((a, b) => b.v - a.v || a.tie - b.tie);
    const tiles = BOARD.points[t].map((pts, r) => `<span class="${r === round ? "now" :
      r < round ? "past" : ""}">${BOARD.rounds[r]}: ${pts.join(" \u00b7 ")}</span>`).join(" ");
    return `<tr data-temple="${esc(temple)}"><th style="color:${gold ? "#b8860b" :
      regionColor(temple)}">${gold ? "gold temple (coins)" : esc(temple)}</th>` +
      `<td class="ptiles">${tiles}</td><td>` + (ranked.length ? ranked.map((e) =>
        `<span class="chip" style="background:${seatColor(e.k)}">${e.k + 1}: ${e.v}</span>`)
        .join("") : '<span class="none">no one yet</span>') + "</td></tr>";
  }).join("") + "</tbody></table>";
}

function finalHTML() {
  const parts = DATA.breakdown;
  let out = '<section id="final" class="final"><h2>Final scoring</h2><table><thead><tr>' +
    "<th>seat</th><th>strategy</th>" +
    parts.map((k, i) => `<th title="${esc(k)}">${esc(DATA.words[i])}</th>`).join("") +
    "<th>total</th><th>gold</th><th>rank</th></tr></thead><tbody>";
  DATA.final.forEach((s, seat) => {
    out += `<tr data-seat="${seat + 1}" data-final="${s.final_vp}" class="${s.shared ? "won" : ""}">` +
      `<td>${seat + 1}</td><td>${esc(DATA.players[seat].strategy)}</td>` +
      parts.map((k) => `<td data-part="${k}">${s.breakdown[k]}</td>`).join("") +
      `<td class="total">${s.final_vp}</td><td>${s.gold}</td>` +
      `<td>${s.rank}${s.shared ? " \u2605" : ""}</td></tr>`;
  });
  out += "</tbody></table>";
  if (DATA.final.filter((s) => s.shared).length > 1) {
    out += "<p>Tied on points: the victory is shared (M8.2); the rank lists the earlier seat " +
      "in the final play order first.</p>";
  }
  return out + "</section>";
}

function stepTitle(i) {
  const step = DATA.steps[i];
  const state = STATES[i];
  if (step.k === "final") return "End of the game: final scoring";
  return `Round ${state.round} · ${state.phase} · seat ${step.a + 1} ` +
    `(${DATA.players[step.a].strategy}) · ${DATA.decisions[step.k] || step.k}`;
}

// -- the page ---------------------------------------------------------------------------------
function draw(i) {  // step i as the page draws it; stepper.js does the rest
  const state = STATES[i];
  const step = DATA.steps[i];
  document.getElementById("map").innerHTML = mapSVG(state, i);
  document.getElementById("sea").innerHTML = seaHTML(state);
  document.getElementById("row").innerHTML = rowHTML(state, step);
  document.getElementById("temples").innerHTML = templesHTML(state);
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
  document.getElementById("legend").textContent =
    "The rulebook gives no starting VP: everyone starts with 5 gold in a random seat order.";
  stepper({count: DATA.steps.length, draw, title: stepTitle, interval: 500});
}

init();
