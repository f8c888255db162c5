//! mcts for any game: plain UCT over the `Game` trait (OpenSpiel's `mcts.py` with a
//! rollout evaluator), determinized (each simulation first draws anew what the seat
//! cannot know, `Game::determinize`), so it searches what its seat may know, not the
//! future. A game registers it as its `mcts`; Carpe Diem keeps its own search
//! (`players::mcts`), which knows that game's decisions.
//!
//! - A node is a decision point on the path from the root, whoever decides there; its
//!   edges are the options met there (equal actions are one edge whatever the
//!   determinization), chosen by UCB1 over the simulations they were available in
//!   (SO-ISMCTS), an untried one first in the engine's order. One edge is added per
//!   simulation; from there the rollout policy (random unless the game supplies another)
//!   plays every seat to the end.
//! - Value: each seat's share of the win on VP gained in play (final less starting VP:
//!   1 for the best gain, split on a tie, 0 otherwise), never the totals, so no decision
//!   depends on the starting VP and a run can be re-ranked under others. With a `margin`
//!   above 0 that share is blended with the seat's share of all VP gained (a graded value,
//!   for games where a few simulations per option seldom change the winner).
//! - The choice: the most simulated option at the root, then the better mean, then the
//!   engine's order. A seed replays the same search.

use crate::games::{Game, Outcome};
use crate::players::settings::{overridden, Field, Kind, Setting};
use crate::players::{play_on, RandomPlayer, Strategy, View};
use crate::rng::{Generator, SeedSequence};

/// The search's settings (`--strategy-params mcts.playouts=N,mcts.c=X`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctParams {
    /// Simulations per decision (>= 1).
    pub playouts: u32,
    /// UCB1 exploration constant, in shares of a win (>= 0).
    pub c: f64,
    /// Weight (0-1) of the seat's share of all VP gained in the value, beside the win.
    pub margin: f64,
}

impl Default for UctParams {
    fn default() -> UctParams {
        UctParams { playouts: 200, c: 1.4, margin: 0.0 }
    }
}

/// The settings, declared once, each with where its value goes.
pub const FIELDS: [Field<UctParams>; 3] = [
    Field { setting: Setting { name: "playouts", kind: Kind::Count,
                               help: "simulations per decision" },
            set: |p, v| p.playouts = v as u32 },
    Field { setting: Setting { name: "c", kind: Kind::Number,
                               help: "UCB1 exploration constant, in shares of a win" },
            set: |p, v| p.c = v },
    Field { setting: Setting { name: "margin", kind: Kind::Share,
                               help: "weight of the share of all VP gained in the value, beside \
                                      the win" },
            set: |p, v| p.margin = v },
];

impl UctParams {
    /// These settings with some replaced by name (`settings::overridden`, by `FIELDS`); an
    /// error names `mcts.NAME`, the name every game's search player goes by.
    pub fn with_overrides<S: AsRef<str>>(&self, overrides: &[(S, f64)]) -> Result<Self, String> {
        overridden("mcts", &FIELDS, *self, overrides)
    }
}

const NO_NODE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Edge<A> {
    action: A,
    child: u32,
    visits: u32,
    /// Simulations in which this edge was among the node's options.
    available: u32,
    /// The deciding seat's value, summed over the edge's simulations.
    total: f64,
}

#[derive(Clone, Debug)]
struct Node<A> {
    edges: Vec<Edge<A>>,
}

/// The search player; `R` plays the rollouts for every seat.
pub struct UctPlayer<G: Game, R: Strategy<G> + Clone = RandomPlayer> {
    pub params: UctParams,
    rollout: R,
    /// One rollout player and stream per seat (made at the first search).
    players: Vec<R>,
    streams: Vec<Generator>,
    nodes: Vec<Node<G::Action>>,
    /// (node, edge, deciding seat) of the simulation under way.
    path: Vec<(u32, usize, usize)>,
    buf: Vec<G::Action>,
    values: Vec<f64>,
    /// Each seat's VP gained at the end of the last simulation.
    gains: Vec<f64>,
    names: Vec<&'static str>,
}

impl<G: Game> UctPlayer<G, RandomPlayer> {
    /// Random rollouts.
    pub fn new(params: UctParams) -> Self {
        UctPlayer::with_rollout(params, RandomPlayer)
    }
}

impl<G: Game, R: Strategy<G> + Clone> UctPlayer<G, R> {
    /// Rollouts played by copies of `rollout` (a game's cheap player).
    pub fn with_rollout(params: UctParams, rollout: R) -> Self {
        UctPlayer { params, rollout, players: Vec::new(), streams: Vec::new(), nodes: Vec::new(),
                    path: Vec::new(), buf: Vec::new(), values: Vec::new(), gains: Vec::new(),
                    names: Vec::new() }
    }

    /// The rollout players and their streams, drawn once from the seat's stream.
    fn ensure_rollout(&mut self, seats: usize, rng: &mut Generator) {
        if self.players.len() != seats {
            self.players = vec![self.rollout.clone(); seats];
            let entropy = u128::from(rng.integers(u64::MAX));
            self.streams = (0..seats as u64)
                .map(|s| Generator::new(&SeedSequence::new(entropy, &[s]))).collect();
            self.names = vec![""; seats];
        }
    }

    /// The root edge chosen after `playouts` simulations from `view`.
    fn search(&mut self, view: &View<G>, rng: &mut Generator) -> G::Action {
        let (comps, seat) = (view.comps, view.seat);
        self.ensure_rollout(view.state.seats(), rng);
        self.nodes.clear();
        self.nodes.push(Node { edges: Vec::new() });
        for _ in 0..self.params.playouts {
            let mut state = view.state.clone();
            state.determinize(comps, seat, rng);
            self.simulate(state, comps);
        }
        let best = self.nodes[0].edges.iter().enumerate().max_by(|(i, a), (j, b)| {
            let mean = |e: &Edge<G::Action>| e.total / f64::from(e.visits.max(1));
            a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b))).then(j.cmp(i))
        });
        best.expect("a searched decision has options").1.action
    }

    /// A position's value by search, for a learned player's labels (Expert Iteration):
    /// each seat's VP gained at the end, the mean over `playouts` simulations of a search
    /// from `state` (whoever decides there), each on a copy drawn anew for `seat`
    /// (`Game::determinize`), into `out`.
    pub fn position_gains(&mut self, state: &G, comps: &G::Components, seat: usize,
                          rng: &mut Generator, out: &mut Vec<f64>) {
        self.ensure_rollout(state.seats(), rng);
        self.nodes.clear();
        self.nodes.push(Node { edges: Vec::new() });
        out.clear();
        out.resize(state.seats(), 0.0);
        let runs = self.params.playouts.max(1);
        for _ in 0..runs {
            let mut copy = state.clone();
            copy.determinize(comps, seat, rng);
            self.simulate(copy, comps);
            for (o, g) in out.iter_mut().zip(&self.gains) {
                *o += g;
            }
        }
        for o in out.iter_mut() {
            *o /= f64::from(runs);
        }
    }

    /// One simulation of a determinized copy: down the tree, one new edge, the rollout to
    /// the end, the values backed up.
    fn simulate(&mut self, mut state: G, comps: &G::Components) {
        self.path.clear();
        let mut node = 0;
        while let Some(seat) = state.current_seat() {
            if node == NO_NODE {
                let (players, streams, buf) = (&mut self.players, &mut self.streams,
                                               &mut self.buf);
                play_on(&mut state, comps, players, streams, buf, |_| true);
                break;
            }
            state.options(comps, &mut self.buf);
            let (edge, new) = self.select(node);
            let action = self.nodes[node as usize].edges[edge].action;
            self.path.push((node, edge, seat));
            node = if new { NO_NODE } else { self.child(node, edge) };
            state.apply(comps, action);
        }
        self.value(&state, comps);
        for &(node, edge, seat) in &self.path {
            let e = &mut self.nodes[node as usize].edges[edge];
            e.visits += 1;
            e.total += self.values[seat];
        }
    }

    /// UCB1 over the options now (`self.buf`): the edge index and whether it was untried.
    fn select(&mut self, node: u32) -> (usize, bool) {
        let c = self.params.c;
        let edges = &mut self.nodes[node as usize].edges;
        let mut untried = None;
        let mut best = (f64::NEG_INFINITY, 0);
        for &a in &self.buf {
            let i = edges.iter().position(|e| e.action == a).unwrap_or_else(|| {
                edges.push(Edge { action: a, child: NO_NODE, visits: 0, available: 0,
                                  total: 0.0 });
                edges.len() - 1
            });
            let e = &mut edges[i];
            e.available += 1;
            if e.visits == 0 {
                untried = untried.or(Some(i));
                continue;
            }
            let n = f64::from(e.visits);
            let score = e.total / n + c * (f64::from(e.available).ln() / n).sqrt();
            if score > best.0 {
                best = (score, i);
            }
        }
        untried.map_or((best.1, false), |i| (i, true))
    }

    /// The child node of an edge, made on its second visit.
    fn child(&mut self, node: u32, edge: usize) -> u32 {
        let child = self.nodes[node as usize].edges[edge].child;
        if child != NO_NODE {
            return child;
        }
        let child = self.nodes.len() as u32;
        self.nodes.push(Node { edges: Vec::new() });
        self.nodes[node as usize].edges[edge].child = child;
        child
    }

    /// Each seat's share of the win on VP gained in play, into `self.values`.
    fn value(&mut self, state: &G, comps: &G::Components) {
        let outcome = state.outcome(comps, &self.names);
        let gained: Vec<i64> = (0..outcome.seats()).map(|s| outcome.vp(s) - outcome.start_vp(s))
            .collect();
        self.gains.clear();
        self.gains.extend(gained.iter().map(|&g| g as f64));
        let best = gained.iter().copied().max().unwrap_or(0);
        let winners = gained.iter().filter(|&&g| g == best).count() as f64;
        let total: i64 = gained.iter().map(|&g| g.max(0)).sum();
        let m = self.params.margin;
        let share = |g: i64| if total > 0 { g.max(0) as f64 / total as f64 }
                             else { 1.0 / gained.len() as f64 };
        self.values.clear();
        self.values.extend(gained.iter().map(|&g| {
            let win = if g == best { 1.0 / winners } else { 0.0 };
            (1.0 - m) * win + m * share(g)
        }));
    }
}

impl<G: Game, R: Strategy<G> + Clone> Strategy<G> for UctPlayer<G, R> {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn choose(&mut self, view: &View<G>, options: &[G::Action], rng: &mut Generator) -> usize {
        if options.len() < 2 {
            return 0;
        }
        let chosen = self.search(view, rng);
        options.iter().position(|&o| o == chosen).unwrap_or(0)
    }
}
