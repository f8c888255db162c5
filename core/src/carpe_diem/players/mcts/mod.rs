//! mcts — a search player: determinized UCT over its own decisions (single-observer
//! information-set MCTS, after OpenSpiel's `mcts.py` and ISMCTS), with greedy rollouts.
//! Core only: there is no Python twin (`cdsim/games/carpe_diem/players/registry.py` names it core-only).
//!
//! - Hidden information is only the order of the light and dark tile decks and of the
//!   fountain deck (depots, seal row, card grid and districts are open; the decks'
//!   contents are what has not been seen). A search first lays each deck out in a fixed
//!   (sorted) order, and each simulation shuffles a copy from the seat's own stream: no
//!   decision depends on the real order, and a seed replays the same search.
//! - Searched decisions: move (R4.2-R4.4), take (R4.5), the artisan's seal tile (R6.3)
//!   and the scoring circle (R8.3). The rest follow the greedy profile's rule: the blind
//!   start (R2.5, nothing to simulate), the fountain cards (R6.5) and the payments (R8.4).
//! - A node is a decision of this seat; the other seats, and this seat outside the tree,
//!   play the greedy profile to the end of the game. Children are the top `top_k`
//!   options by the shared value model (rank 0 is greedy's own choice; a second
//!   orientation of a tile on a cell ranks after every first one), chosen by UCB1 over
//!   the times they were available (SO-ISMCTS); one edge is tried per simulation.
//! - Value backed up: the VP this seat gains during the game minus the most any other
//!   seat gains (final minus starting VP, R2.7). The copies play with every starting VP
//!   set to 0, so no decision can depend on them (`cdsim balance` stays exact).
//! - Budget: `playouts` simulations per searched decision; a take (or seal) continuing
//!   the same turn keeps the simulations already made below its node and adds the rest.
//!
//! Defaults, measured with `examples/mcts_strength.rs`: 120 playouts keep a 4-player game
//! with three greedy seats near 0.75 s on one core (release). At that budget few
//! candidates explored almost evenly (`top_k` 3, `c` 30 VP) beat wider or greedier
//! trees (`top_k` 6-10, `c` 3-10); at 400 playouts `top_k` 6 is no better than 3.

mod params;

pub use params::{MctsParams, SETTINGS};

use crate::carpe_diem::cards::Payment;
use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::{Action, GameState, List, Options, Pending, SPACES};

use crate::carpe_diem::players::evaluate::Evaluate;
use crate::carpe_diem::players::profile::Profile;
use crate::carpe_diem::players::scripted::{circle_outcome, scoring_params, ScriptedPlayer};
use crate::carpe_diem::players::value::{depot_value, Evaluator};
use crate::carpe_diem::players::{play_on, Params, Player, PlayerView, Strategy};
use crate::rng::{Generator, SeedSequence};
use crate::carpe_diem::scoring::breakdown;

/// The same play in another determinization: a tile is named by its type, not by its
/// slot in the depot or seal row (equal tiles are one option).
fn same(a: &Action, b: &Action) -> bool {
    match (a, b) {
        (Action::Take(a), Action::Take(b)) => {
            (a.tile_type, a.cell, a.edges) == (b.tile_type, b.cell, b.edges)
        }
        (Action::Seal(a), Action::Seal(b)) => {
            (a.tile_type, a.cell, a.edges) == (b.tile_type, b.cell, b.edges)
        }
        _ => a == b,
    }
}

const NO_NODE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Edge {
    action: Action,
    child: u32,
    visits: u32,
    /// Simulations in which this edge was among the node's candidates (SO-ISMCTS).
    available: u32,
    total: f64,
}

#[derive(Clone, Debug, Default)]
struct Node {
    edges: Vec<Edge>,
    visits: u32,
}

/// Where a search's chosen edge leads, for the next decision of the same turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TurnKey {
    phase: usize,
    round: usize,
    turn: usize,
    seat: usize,
}

impl TurnKey {
    fn of(state: &GameState, seat: usize) -> TurnKey {
        TurnKey {
            phase: state.phase,
            round: state.round,
            turn: state.turn,
            seat,
        }
    }
}

/// What the last search did: simulations kept from the turn's earlier search, simulations
/// made, and per candidate (best ranked first) its visits and mean margin.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchReport {
    pub inherited: u32,
    pub simulations: u32,
    pub edges: Vec<(u32, f64)>,
}

/// The search player.
pub struct MctsPlayer {
    pub params: MctsParams,
    /// The value model's weights (the greedy profile): candidate order and cheap rules.
    value: Params,
    cheap: ScriptedPlayer,
    /// The default policy, one greedy player per seat (made at the first search).
    rollout: Vec<Player>,
    /// One stream per seat for `run`; greedy players never draw from them.
    idle_streams: Vec<Generator>,
    nodes: Vec<Node>,
    /// The chosen edge's node and the turn it belongs to.
    follow: Option<(u32, TurnKey)>,
    buf: Options,
    payments: Vec<Payment>,
    /// (a repeat of an earlier option's cell, cards failed, value, option index).
    ranked: Vec<(bool, i32, f64, usize)>,
    path: Vec<(u32, usize)>,
    candidates: Vec<Action>,
    last: Option<SearchReport>,
    /// The evaluation of the leaves (`leaf`; `players::make` gives the learned one).
    leaf_value: Option<Box<dyn Evaluate>>,
}

impl MctsPlayer {
    pub fn new(params: MctsParams) -> MctsPlayer {
        let profile = Profile::greedy();
        let value = profile.params();
        MctsPlayer {
            params,
            value,
            cheap: ScriptedPlayer::new(profile, value),
            rollout: Vec::new(),
            idle_streams: Vec::new(),
            nodes: Vec::new(),
            follow: None,
            buf: Options::default(),
            payments: Vec::new(),
            ranked: Vec::new(),
            path: Vec::new(),
            candidates: Vec::new(),
            last: None,
            leaf_value: None,
        }
    }

    /// The player valuing its leaves (`leaf` > 0) by `evaluation`.
    pub fn with_leaf_value(mut self, evaluation: Box<dyn Evaluate>) -> MctsPlayer {
        self.leaf_value = Some(evaluation);
        self
    }

    /// The last decision's search (None when it had a single candidate, or was not
    /// searched).
    pub fn last_search(&self) -> Option<&SearchReport> {
        self.last.as_ref()
    }

    /// The decision pending in `state` (this seat's), its best `top_k` options in
    /// `self.candidates`, best first.
    fn rank(&mut self, state: &GameState, comps: &Components, seat: usize) {
        self.ranked.clear();
        self.candidates.clear();
        if !searched(&state.pending) {
            return;
        }
        let view = PlayerView { state, comps, seat };
        let ev = Evaluator::new(&view, &self.value);
        let scoring = scoring_params(&self.value, state);
        state.options(comps, &mut self.buf);
        let mut depots = [f64::NAN; SPACES];
        for (i, &o) in self.buf.iter().enumerate() {
            // (a repeat of an earlier option's cell, cards failed, value)
            let key = match o {
                Action::Move(m) => {
                    let dest = m.dest as usize;
                    if depots[dest].is_nan() {
                        depots[dest] = depot_value(&view, &ev, dest);
                    }
                    // as greedy's move: a bread move also spends a bread the card plan
                    // may need (R4.4, R7.1)
                    let cost = if m.bread {
                        self.value.bread_move_cost + ev.prices.plan.bread + ev.prices.plan.keep
                    } else {
                        0.0
                    };
                    (false, 0, depots[dest] - cost)
                }
                Action::Circle(c) => {
                    // as greedy's circle: the fewest failed cards first (R8.5)
                    let (failed, value) = circle_outcome(&view, &scoring, c, &mut self.payments);
                    (false, failed, value)
                }
                _ => match o.build() {
                    Some((_, cell)) if cell < 0 => (false, 0, self.value.store),
                    Some((tile, cell)) => {
                        let again = self.buf[..i].iter().any(|e| e.build() == Some((tile, cell)));
                        let ttype = &comps.tile_types[tile as usize];
                        (again, 0, ev.placement(ttype, cell as usize))
                    }
                    None => unreachable!("a searched decision moves, builds or takes a circle"),
                },
            };
            self.ranked.push((key.0, key.1, key.2, i));
        }
        // best first; equal values keep the engine's order (greedy's pick is first)
        self.ranked.sort_by(|a, b| {
            (a.0, a.1)
                .cmp(&(b.0, b.1))
                .then(b.2.total_cmp(&a.2))
                .then(a.3.cmp(&b.3))
        });
        self.ranked.truncate(self.params.top_k);
        self.candidates.extend(self.ranked.iter().map(|r| self.buf[r.3]));
    }

    /// The root of this decision's tree: the node the last search's choice led to when
    /// this decision continues the same turn, else a fresh tree.
    fn root(&mut self, state: &GameState, seat: usize) -> u32 {
        let continues = matches!(state.pending, Pending::Take { .. } | Pending::Seal { .. });
        if let Some((node, key)) = self.follow.take() {
            if continues && node != NO_NODE && key == TurnKey::of(state, seat) {
                return node;
            }
        }
        self.nodes.clear();
        self.nodes.push(Node::default());
        0
    }

    /// Search the pending decision; returns the chosen action (None: no option).
    fn search(&mut self, view: &PlayerView, rng: &mut Generator) -> Option<Action> {
        let (state, comps, seat) = (view.state, view.comps, view.seat);
        self.rank(state, comps, seat);
        self.last = None;
        if self.candidates.len() < 2 {
            self.follow = None;
            return self.candidates.first().copied();
        }
        let candidates = self.candidates.clone();
        self.ensure_rollout(state.n);
        let root = self.root(state, seat);
        let done = self.nodes[root as usize].visits;
        let seen = what_is_seen(state);
        for _ in done..self.params.playouts {
            self.simulate(&seen, comps, seat, root, rng);
        }
        // the most simulated candidate; then the better mean; then the better rank
        let node = &self.nodes[root as usize];
        let mut report = SearchReport {
            inherited: done,
            simulations: node.visits - done,
            edges: Vec::new(),
        };
        let mut best: Option<(Action, &Edge)> = None;
        for a in &candidates {
            let Some(e) = node.edges.iter().find(|e| same(&e.action, a)) else {
                report.edges.push((0, 0.0));
                continue;
            };
            report
                .edges
                .push((e.visits, e.total / f64::from(e.visits.max(1))));
            let better = best.is_none_or(|(_, b)| {
                let (n, m) = (f64::from(e.visits), f64::from(b.visits));
                e.visits > b.visits || (e.visits == b.visits && e.total * m > b.total * n)
            });
            if better {
                best = Some((*a, e));
            }
        }
        let (chosen, child) = best.map_or((candidates[0], NO_NODE), |(a, e)| (a, e.child));
        self.follow = Some((child, TurnKey::of(state, seat)));
        self.last = Some(report);
        Some(chosen)
    }

    /// The mean margin of `position` to `seat` by `playouts` simulations of a fresh tree
    /// (training labels, `learned::search_labels`). Simulation j draws the decks' orders
    /// from `(seed, j)` alone, so every position valued with one seed meets the same orders
    /// (common random numbers): their differences are the positions', not the draws'.
    pub fn position_value(
        &mut self,
        position: &GameState,
        comps: &Components,
        seat: usize,
        playouts: u32,
        seed: u64,
    ) -> f64 {
        self.ensure_rollout(position.n);
        self.nodes.clear();
        self.nodes.push(Node::default());
        self.follow = None;
        let seen = what_is_seen(position);
        let mut total = 0.0;
        for j in 0..playouts {
            let mut rng = Generator::new(&SeedSequence::new(u128::from(seed), &[u64::from(j)]));
            total += self.simulate(&seen, comps, seat, 0, &mut rng);
        }
        total / f64::from(playouts.max(1))
    }

    /// One greedy player per seat for the rollouts (made once per player count).
    fn ensure_rollout(&mut self, n: usize) {
        if self.rollout.len() != n {
            self.rollout = (0..n)
                .map(|_| Player::Scripted(Box::new(self.cheap.clone())))
                .collect();
            let idle = Generator::new(&SeedSequence::new(0, &[]));
            self.idle_streams = vec![idle; n];
        }
    }

    /// One simulation: a determinization, down the tree, one new edge, greedy to the end;
    /// returns the margin backed up.
    fn simulate(
        &mut self,
        seen: &GameState,
        comps: &Components,
        seat: usize,
        root: u32,
        rng: &mut Generator,
    ) -> f64 {
        let mut state = seen.clone();
        determinize(&mut state, rng);
        self.path.clear();
        let mut node = root;
        // this seat's searched decisions follow the tree; the rest, and everything once
        // out of it, the default policy
        let mine = |s: &GameState| s.pending.seat() == Some(seat) && searched(&s.pending);
        while !state.is_over() {
            if node == NO_NODE && self.params.leaf > 0 {
                self.play_to_leaf(&mut state, comps, seat);
                break;
            }
            let (players, streams, buf) =
                (&mut self.rollout, &mut self.idle_streams, &mut self.buf);
            if node == NO_NODE {
                play_on(&mut state, comps, players, streams, buf, |_| true);
                break;
            }
            if !mine(&state) {
                play_on(&mut state, comps, players, streams, buf, |s| !mine(s));
                continue;
            }
            self.rank(&state, comps, seat);
            if self.candidates.is_empty() {
                break; // unreachable: every searched decision has an option
            }
            let (edge, new, action) = self.select(node);
            self.path.push((node, edge));
            node = if new { NO_NODE } else { self.child(node, edge) };
            state.apply(comps, action);
        }
        let value = if self.params.leaf > 0 && !state.is_over() {
            self.leaf_margin(&state, comps, seat)
        } else {
            margin(&state, comps, seat)
        };
        self.nodes[root as usize].visits += 1;
        for &(n, e) in &self.path {
            let edge = &mut self.nodes[n as usize].edges[e];
            edge.visits += 1;
            edge.total += value;
            let child = edge.child;
            if child != NO_NODE {
                self.nodes[child as usize].visits += 1;
            }
        }
        value
    }

    /// Greedy play to the end of this seat's `leaf`-th turn (the one under way first).
    fn play_to_leaf(&mut self, state: &mut GameState, comps: &Components, seat: usize) {
        let (players, streams, buf) = (&mut self.rollout, &mut self.idle_streams, &mut self.buf);
        for turn in 0..self.params.leaf {
            if turn > 0 {
                play_on(state, comps, players, streams, buf, |s| s.pending.seat() != Some(seat));
            }
            play_on(state, comps, players, streams, buf, |s| s.pending.seat() == Some(seat));
        }
    }

    /// The leaf evaluation's value of a position to `seat` less the best other seat's
    /// (VP gained plus what it expects each to gain; never a total).
    fn leaf_margin(&mut self, state: &GameState, comps: &Components, seat: usize) -> f64 {
        let evaluation = self.leaf_value.as_mut()
            .expect("mcts.leaf values leaves by an evaluation: players::make gives one");
        let mut value = |s: usize| evaluation.value(state, comps, s);
        let mine = value(seat);
        let best_other = (0..state.n)
            .filter(|&s| s != seat)
            .map(&mut value)
            .fold(f64::NEG_INFINITY, f64::max);
        mine - best_other
    }

    /// The child node of an edge, made on its second visit.
    fn child(&mut self, node: u32, edge: usize) -> u32 {
        let child = self.nodes[node as usize].edges[edge].child;
        if child != NO_NODE {
            return child;
        }
        let child = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        self.nodes[node as usize].edges[edge].child = child;
        child
    }

    /// UCB1 over the node's candidates now (an untried one first, best ranked first);
    /// returns the edge index, whether it was untried, and the candidate it plays here
    /// (a tile named by its slot in this determinization).
    fn select(&mut self, node: u32) -> (usize, bool, Action) {
        let c = self.params.c;
        let edges = &mut self.nodes[node as usize].edges;
        let mut untried = None;
        let mut best = (f64::NEG_INFINITY, 0, self.candidates[0]);
        for a in &self.candidates {
            let i = match edges.iter().position(|e| same(&e.action, a)) {
                Some(i) => i,
                None => {
                    edges.push(Edge {
                        action: *a,
                        child: NO_NODE,
                        visits: 0,
                        available: 0,
                        total: 0.0,
                    });
                    edges.len() - 1
                }
            };
            let e = &mut edges[i];
            e.available += 1;
            if e.visits == 0 {
                untried = untried.or(Some((i, *a)));
                continue;
            }
            let n = f64::from(e.visits);
            let score = e.total / n + c * (f64::from(e.available).ln() / n).sqrt();
            if score > best.0 {
                best = (score, i, *a);
            }
        }
        match untried {
            Some((i, a)) => (i, true, a),
            None => (best.1, false, best.2),
        }
    }
}

fn searched(pending: &Pending) -> bool {
    matches!(
        pending,
        Pending::Move { .. } | Pending::Take { .. } | Pending::Seal { .. } | Pending::Circle { .. }
    )
}

/// The state as this seat may know it: each deck's contents in a fixed (sorted) order,
/// not the order it will be drawn in, and every starting VP 0 (R2.7: no decision may
/// depend on them).
fn what_is_seen(state: &GameState) -> GameState {
    let mut seen = state.clone();
    sort(&mut seen.light_deck);
    sort(&mut seen.dark_deck);
    sort(&mut seen.fountain_deck);
    for p in seen.players.iter_mut() {
        p.start_vp = 0;
    }
    seen
}

fn sort<const N: usize>(list: &mut List<N>) {
    let mut items = [0u8; N];
    let n = list.len();
    items[..n].copy_from_slice(list.as_slice());
    items[..n].sort_unstable();
    *list = List::from_slice(&items[..n]);
}

/// The hidden orders drawn anew: the light, dark and fountain decks shuffled
/// (Fisher-Yates from the seat's stream).
fn determinize(state: &mut GameState, rng: &mut Generator) {
    state.light_deck.shuffle(rng);
    state.dark_deck.shuffle(rng);
    state.fountain_deck.shuffle(rng);
}

/// This seat's VP gained minus the most any other seat gained (final minus start).
fn margin(state: &GameState, comps: &Components, seat: usize) -> f64 {
    let gained = |s: usize| {
        let p = &state.players[s];
        breakdown(comps, p).iter().sum::<i32>() - p.start_vp
    };
    let best_other = (0..state.n)
        .filter(|&s| s != seat)
        .map(gained)
        .max()
        .unwrap_or(0);
    f64::from(gained(seat) - best_other)
}

impl Strategy<GameState> for MctsPlayer {
    fn name(&self) -> &'static str {
        "mcts"
    }

    /// A searched decision's choice, or the greedy profile's rule for the others: the
    /// blind start (R2.5, nothing to simulate), the fountain cards (R6.5, the value
    /// model's card values) and the payments (R8.4, the best-valued one).
    fn choose(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator) -> usize {
        if !searched(&view.state.pending) {
            self.last = None;
            return self.cheap.choose(view, options, rng);
        }
        let found = self.search(view, rng);
        // greedy's choice when the searched one is not among the options
        found.and_then(|a| options.iter().position(|&o| o == a)).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carpe_diem::game::GameConfig;

    #[test]
    fn the_value_is_the_gain_over_the_best_other_gain() {
        // R2.7: gains, not totals (seat 0 starts 100 VP ahead); the best other seat, not
        // the sum or the mean of the others
        let comps = crate::carpe_diem::components::fixture();
        let mut config = GameConfig::new(3);
        config.start_vp = [100, 0, 5, 0];
        let (mut state, _) = GameState::new(&comps, &config, SeedSequence::new(3, &[]));
        for (p, vp) in state.players.iter_mut().zip([10, 5, 12]) {
            p.card_vp = vp;
        }
        assert_eq!(margin(&state, &comps, 0), -2.0);
        assert_eq!(margin(&state, &comps, 1), -7.0);
        assert_eq!(margin(&state, &comps, 2), 2.0);
    }
}
