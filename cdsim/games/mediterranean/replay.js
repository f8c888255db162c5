// The replay of one game of the Mediterranean trading game (cdsim play --game mediterranean
// --html): the data is embedded as JSON (cdsim/games/mediterranean/view.py); each step holds only
// what changed, so the states are rebuilt once here and drawn on demand. A rowing card laid
// face down (M5.1) arrives here only as "face down", still counted in its seat's hand, until
// every seat has laid one and the cards are turned up ("played").

const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const N = DATA.players.length;
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

// M5.2: the turned-up cards' wind modifiers summed; none until every seat has laid
function forecastText(forecast) {
  if (forecast === null || forecast === undefined) return "none yet";
  return forecast > 0 ? `+${forecast}` : String(forecast);
}

function stat(label, value, title) {
  return `<div class="stat" title="${esc(title || label)}"><b>${esc(String(value))}</b>` +
    `<span>${esc(label)}</span></div>`;
}

function registerText(register) {
  const count = (status) => register.filter((c) => c.status === status).length;
  return `${count("Open")} open, ${count("Delivered")} delivered, ${count("Lost")} lost`;
}

function playerHTML(s, state, i) {
  const seat = state.seats[s];
  const step = DATA.steps[i];
  const final = step.k === "final" ? DATA.final[s] : null;
  const classes = ["player", "seat"];
  if (step.a === s) classes.push("acting", "to-move");
  if (final && final.shared) classes.push("winner");
  const laid = seat.laid === "face down" ? "face down" : "none";
  return `<section class="${classes.join(" ")}" data-seat="${s + 1}" data-laid="${laid}" ` +
    `data-hand="${seat.hand.length}">` +
    `<header style="background:${seatColor(s)}">` +
    `<span class="seat-no">Seat ${s + 1}</span>` +
    `<span class="strategy">${esc(DATA.players[s].strategy)}</span>` +
    (final ? `<span class="badge">${final.shared ? "winner · " : ""}rank ${final.rank}</span>` : "") +
    `<span class="vp">${final ? final.final_vp : seat.points} VP</span></header>` +
    `<div class="player-body"><div class="stats">` +
    stat("gold", seat.gold) + stat("ship in", seat.ship) +
    stat("rowing cards in hand", seat.hand.length) +
    stat("rowing card laid", laid, "M5.1: laid face down, turned up when every seat has laid") +
    stat("played this round", seat.played.length) +
    stat("temple points by region", seat.temple.join(" / ")) +
    stat("tiles", seat.tiles.length) + stat("bonus tiles", seat.bonus.length) +
    stat("contracts", registerText(seat.register)) +
    "</div></div></section>";
}

function seaHTML(state) {
  const order = (state.order || []).map((s) => s + 1).join(", ");
  return `<div class="stats">` + stat("round", state.round) + stat("phase", state.phase) +
    stat("turn", state.turn) + stat("wind", state.wind) +
    stat("forecast", forecastText(state.forecast), "M5.2: the wind modifiers of the rowing " +
      "cards turned up this turn, summed and held to the track's ends (none until every seat " +
      "has laid one); after every seat has sailed the wind moves level with it (M5.10)") +
    stat("play order (seats)", order) +
    stat("contracts on offer", (state.row || []).length) + stat("coins in the supply", state.bank) +
    "</div>";
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
  document.getElementById("sea").innerHTML = seaHTML(state);
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
