//! The learned player's decisions that it weighs its own way: a move with the take it is
//! chosen for (each shortlisted move's best take, or the shortlisted takes of all moves
//! weighed together: `joint`), the take that follows, a build, and a scoring's circle.

use crate::carpe_diem::district::Around;
use crate::carpe_diem::game::{Action, GameState, Options, Pending};
use crate::carpe_diem::kinds::CELLS;
use crate::carpe_diem::players::scripted::{circle_outcome, scoring_params};
use crate::carpe_diem::players::value::Evaluator;
use crate::carpe_diem::players::PlayerView;
use crate::rng::Generator;

use super::prior::{prior_inputs, Choice, PriorRow, N_PRIOR};
use super::LearnedPlayer;

/// Options of a move decision a recording values (greedy's best first).
pub const RECORDED: usize = 10;

/// A move decision's lists, kept between decisions (no allocation once warm).
#[derive(Default)]
pub(super) struct JointBufs {
    /// The tile types of the depots in reach: (tile type, first pair, end of its pairs).
    tiles: Vec<(u8, usize, usize)>,
    /// Every (value, cell) pair of each of those tile types, one after another.
    cells: Vec<(f64, i8)>,
    /// One move's (value, tile type, cell) pairs, best first.
    pairs: Vec<(f64, u8, i8)>,
    /// Each shortlisted move's takes in its copy.
    takes: Vec<Options>,
}

/// The decisions the player weighs its own way.
impl LearnedPlayer {
    /// Each shortlisted move valued by the best shortlisted take after it; the take is
    /// kept for the take decision that follows.
    pub(super) fn choose_move(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator)
        -> usize {
        if self.params.joint > 0 {
            return self.choose_move_jointly(view, options, rng);
        }
        let (comps, seat) = (view.comps, view.seat);
        let candidates = self.move_order(view, options);
        let seen = self.seen(view.state, rng);
        self.tried.clear();
        let chosen = self.pick(&candidates, rng, |me, i| {
            let mut copy = seen.clone();
            copy.apply(comps, options[i]);
            let (value, take) = me.best_take(&copy, comps, seat);
            me.tried.push((i, take));
            value
        });
        let state = view.state;
        let Action::Move(m) = options[chosen] else { unreachable!("a move offers moves") };
        self.planned = self.tried.iter().find(|t| t.0 == chosen).map(|&(_, take)| {
            ((state.phase, state.round, m.dest), take)
        });
        chosen
    }

    /// `choose_move` with `joint` in force: the shortlisted moves' shortlisted (tile, cell)
    /// pairs ranked together by greedy's value (a bread move's price taken off), and the
    /// `joint` best valued on a copy, each orientation; the move of the best is chosen and
    /// its take kept for the take decision.
    fn choose_move_jointly(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator)
        -> usize {
        let (comps, seat) = (view.comps, view.seat);
        // one valuation of every depot tile on every legal cell, in the decision's position
        let prices = self.scratch.prices(view, &self.greedy);
        let ev = Evaluator::with_prices(view, &self.greedy, prices);
        let cost = self.greedy.bread_move_cost + ev.prices.plan.bread + ev.prices.plan.keep;
        let store = self.greedy.store;
        let d = &view.me().district;
        // each tile type's (value, cell) pairs, in one list reused between decisions:
        // `tiles` holds (tile type, its first pair, the pair after its last)
        let mut bufs = std::mem::take(&mut self.joint);
        let JointBufs { tiles, cells: pairs_of, pairs, .. } = &mut bufs;
        tiles.clear();
        pairs_of.clear();
        // each cell's neighbourhood, worked out once for every tile type valued on it
        let mut arounds: [Option<Around>; CELLS] = [None; CELLS];
        for o in options {
            let Action::Move(m) = *o else { unreachable!("a move offers moves") };
            for &t in view.state.depots[m.dest as usize].as_slice() {
                if tiles.iter().any(|c| c.0 == t) {
                    continue;
                }
                let ttype = &comps.tile_types[t as usize];
                let mut cells = d.placement_cells(ttype);
                let first = pairs_of.len();
                while cells != 0 {
                    let cell = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    let value = if ttype.building != 0 {
                        ev.placement(ttype, cell)
                    } else {
                        let around = arounds[cell].get_or_insert_with(|| d.around(cell));
                        ev.placement_with(ttype, cell, around)
                    };
                    pairs_of.push((value, cell as i8));
                }
                tiles.push((t, first, pairs_of.len()));
            }
        }
        let cells_of = |t: u8| {
            let &(_, first, end) = tiles.iter().find(|c| c.0 == t).expect("valued above");
            &pairs_of[first..end]
        };
        // the moves, best first by their depot's best tile (as greedy's move), less a bread
        // move's price
        let mut moves: Vec<(f64, usize)> = Vec::with_capacity(options.len());
        for (i, o) in options.iter().enumerate() {
            let Action::Move(m) = *o else { unreachable!("a move offers moves") };
            let mut best = 0.0;
            for (j, &t) in view.state.depots[m.dest as usize].as_slice().iter().enumerate() {
                let v = cells_of(t).iter().fold(store, |a, c| a.max(c.0));
                if j == 0 || v > best {
                    best = v;
                }
            }
            moves.push((if m.bread { best - cost } else { best }, i));
        }
        moves.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        moves.truncate(self.params.moves);
        if moves.len() > 1 && self.params.explore > 0.0 {
            let u = rng.integers(1 << 53) as f64 / (1u64 << 53) as f64;
            if u < self.params.explore {
                self.planned = None;
                self.joint = bufs;
                return moves[rng.integers(moves.len() as u64) as usize].1;
            }
        }
        // each move's `top_k` best (tile, cell) pairs and storing, then the `joint` best of
        // all: (value, move, tile, cell; cell -1 stores the depot's first tile)
        let mut pool: Vec<(f64, usize, u8, i8)> =
            Vec::with_capacity(moves.len() * (self.params.top_k + 1));
        for (m, &(_, i)) in moves.iter().enumerate() {
            let Action::Move(mv) = options[i] else { unreachable!("a move offers moves") };
            let price = if mv.bread { cost } else { 0.0 };
            pairs.clear();
            let depot = view.state.depots[mv.dest as usize];
            for &t in depot.as_slice() {
                if pairs.iter().any(|p| p.1 == t) {
                    continue;
                }
                pairs.extend(cells_of(t).iter().map(|&(v, c)| (v, t, c)));
            }
            pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
            pairs.truncate(self.params.top_k);
            pool.extend(pairs.iter().map(|&(v, t, c)| (v - price, m, t, c)));
            if let Some(&t) = depot.as_slice().first() {
                pool.push((store - price, m, t, -1));
            }
        }
        pool.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        self.joint = bufs;
        // the prior's inputs of each option (`learned.prior`, or a recording of them)
        let recording = self.record.is_some();
        let inputs: Vec<[f64; N_PRIOR]> = if self.params.prior > 0 || recording {
            pool.iter()
                .enumerate()
                .map(|(rank, &(v, m, t, c))| {
                    let Action::Move(mv) = options[moves[m].1] else { unreachable!() };
                    let o = Choice { value: v, price: if mv.bread { cost } else { 0.0 },
                                      rank, move_rank: m, tile: t, cell: c };
                    prior_inputs(&ev, comps, &o)
                })
                .collect()
        } else {
            Vec::new()
        };
        // the options played on copies: the `joint` best by greedy's value, or of those
        // the `prior` best by the prior (ties keep greedy's order); a recording values
        // `RECORDED` of greedy's best and plays greedy's `joint` best (the prior off)
        let kept = if self.params.prior > 0 && !recording {
            let weights = self.prior.weights(view.state.n);
            let mut order: Vec<(f64, usize)> = inputs
                .iter()
                .take(self.params.joint)
                .enumerate()
                .map(|(k, x)| (x.iter().zip(weights).map(|(a, w)| a * w).sum::<f64>(), k))
                .collect();
            order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            order.truncate(self.params.prior);
            order.sort_by_key(|o| o.1);
            let picked: Vec<_> = order.iter().map(|o| pool[o.1]).collect();
            pool = picked;
            pool.len()
        } else {
            self.params.joint
        };
        pool.truncate(if recording { kept.max(RECORDED) } else { kept });
        // the chosen pairs valued on copies, each orientation
        let seen = self.seen(view.state, rng);
        let mut copies: Vec<Option<GameState>> = vec![None; moves.len()];
        // each move's takes, in lists kept between decisions
        let mut lists = std::mem::take(&mut self.joint.takes);
        lists.resize_with(lists.len().max(moves.len()), Options::default);
        let mut best: Option<(f64, usize, Action)> = None;
        let decision = self.decisions;
        self.decisions += 1;
        for (e, &(_, m, t, c)) in pool.iter().enumerate() {
            if copies[m].is_none() {
                let mut copy = seen.clone();
                copy.apply(comps, options[moves[m].1]);
                copy.options(comps, &mut lists[m]);
                copies[m] = Some(copy);
            }
            let (copy, takes) = (copies[m].as_ref().expect("made above"), &lists[m]);
            // the takes of (tile, cell): each orientation, or storing the tile once
            let mut found = [takes[0]; 4];
            let mut n_found = 0;
            for &o in takes.iter() {
                let Action::Take(take) = o else { continue };
                let fits = if c < 0 { take.cell < 0 && n_found == 0 } else { take.cell == c };
                if take.tile_type == t && fits {
                    assert!(n_found < found.len(), "a tile has at most 4 orientations on a cell");
                    found[n_found] = o;
                    n_found += 1;
                }
            }
            let mut own = f64::NEG_INFINITY;
            for &take in &found[..n_found] {
                let mut after = copy.clone();
                after.apply(comps, take);
                let v = self.after(&mut after, comps, seat);
                own = own.max(v);
                if e < kept && best.is_none_or(|b| v > b.0) {
                    best = Some((v, m, take));
                }
            }
            if let (Some(rows), true) = (self.record.as_mut(), n_found > 0) {
                rows.push(PriorRow { decision, players: view.state.n, inputs: inputs[e],
                                     value: own, copies: n_found });
            }
        }
        self.joint.takes = lists;
        let Some((_, m, take)) = best else {
            self.planned = None;
            return moves[0].1;
        };
        let chosen = moves[m].1;
        let state = view.state;
        let Action::Move(mv) = options[chosen] else { unreachable!("a move offers moves") };
        self.planned = Some(((state.phase, state.round, mv.dest), take));
        chosen
    }

    /// R8.3: the `circles` best circles by greedy's outcome (fewest failed cards, then
    /// value; the first of equals), each valued on a copy.
    pub(super) fn choose_circle(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator)
        -> usize {
        let (comps, seat) = (view.comps, view.seat);
        let p = scoring_params(&self.greedy, view.state);
        let mut payments = Vec::new();
        let mut ranked: Vec<((i32, f64), usize)> = options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let Action::Circle(c) = *o else { unreachable!("a circle offers circles") };
                (circle_outcome(view, &p, c, &mut payments), i)
            })
            .collect();
        ranked.sort_by(|a, b| a.0 .0.cmp(&b.0 .0).then(b.0 .1.total_cmp(&a.0 .1)).then(a.1.cmp(&b.1)));
        ranked.truncate(self.params.circles);
        let list: Vec<usize> = ranked.into_iter().map(|(_, i)| i).collect();
        let seen = self.seen(view.state, rng);
        self.pick(&list, rng, |me, i| {
            let mut copy = seen.clone();
            copy.apply(comps, options[i]);
            me.after(&mut copy, comps, seat)
        })
    }

    /// The take the move was chosen for, or the best shortlisted build.
    pub(super) fn choose_take(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator)
        -> usize {
        if let (Some((key, take)), Pending::Take { space, .. }) =
            (self.planned.take(), view.state.pending)
        {
            if key == (view.state.phase, view.state.round, space) {
                if let Some(i) = options.iter().position(|&o| o == take) {
                    return i;
                }
            }
        }
        self.choose_build(view, options, rng)
    }

    /// A take or the artisan's seal tile (R4.5, R6.3): the shortlisted builds, valued.
    pub(super) fn choose_build(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator)
        -> usize {
        let (comps, seat) = (view.comps, view.seat);
        let seen = self.seen(view.state, rng);
        let mut list = Vec::new();
        self.shortlist_builds(view, options, &mut list);
        let list: Vec<usize> = list.into_iter().map(|(i, _)| i).collect();
        self.pick(&list, rng, |me, i| {
            let mut copy = seen.clone();
            copy.apply(comps, options[i]);
            me.after(&mut copy, comps, seat)
        })
    }
}
