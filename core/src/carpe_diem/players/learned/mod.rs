//! learned — a player that chooses with a value function fitted to playout values
//! (`cdsim train`, cdsim/train/). Core only: there is no Python twin.
//!
//! - The worth of a position to a seat is the VP it has gained if the game ended now
//!   (`features::banked`) plus a linear function of its inputs (`features::features`),
//!   one weight vector per player count and phase; the inputs come twice, as they are and
//!   times the seat's share of takes left in the phase, so a weight can change within a
//!   phase. The value of a position is the seat's worth less `opponents` (1) times the
//!   other seats' mean worth. Gained VP only, never a total: the starting VP change no
//!   decision (R2.7).
//! - A decision is one ply deep through the seat's own turn: each option is applied to a
//!   copy of the state, the rest of the seat's turn is played out (a move by each
//!   take that may follow it; an artisan's seal tile, fountain cards and card payments
//!   after it by the greedy profile's rules), and the position where another seat
//!   decides next is valued. The best value wins; equal values keep the first option.
//! - At 2 players (`reply`: games of at most that many players) the other seat's turn is
//!   played too in each copy, by the greedy profile's rules on decks shuffled from the
//!   seat's own stream, and the position at this seat's next decision is valued: with
//!   two seats the tile the other takes next is one this seat cannot. The weights are
//!   the same (`cdsim train` fits the one-ply player, `reply` 0). Copies of one decision
//!   alike in all but this seat's holdings share their replies (chosen once, applied to
//!   each): the greedy profile reads nothing else of this seat. The replies are played by
//!   a few greedy players a seat, one for each placing of the scroll discs (reply.rs), so
//!   each keeps its worked-out values across the copies (the same choices).
//! - Shortlists keep it cheap: a move is tried with the `moves` best destinations by the
//!   greedy profile's depot value (a bread move pays greedy's price for it), a take
//!   with the `top_k` best (tile, cell) pairs by greedy's placement value, every
//!   orientation of each, and storing the tile; the take a move was chosen for is played.
//! - Built for its cost (issue 49; docs/strength.md, "A learned player built for its
//!   cost"): a move decision values every tile of the depots it may move to on every
//!   legal cell once, in the decision's own position, and puts the shortlisted moves'
//!   shortlisted pairs (and storing) in one list by that value, less a bread move's
//!   price; only the `joint` best of the list are played on copies (each orientation),
//!   not `top_k` pairs of every move. And with `pin`, every seat's tile values (the
//!   inputs `reach_best`, `reach_other`) are priced as in the decision's position on the
//!   copy's district (`Scratch::pin`), so a copy works out no prices of its own for them.
//!   `learned@classic` (`joint` 0, `pin` 0) is the player before: the same games as
//!   then (core/tests/games.rs).
//! - Issue 59: `joint` 5 (it was 6: `learned@joint=6@prior=0` is the player of issue 49), the
//!   cheapest point of the frontier within 20 Elo of it (docs/strength.md, "Issue 59").
//!   Then `prior` 4: of those 5, the 4 best by a prior fitted to the player's own values
//!   of its options (`prior.rs`); `learned@prior=0` is the player before it.
//! - Hidden information is only the order of the decks (R2.3-R2.4); a copy draws
//!   fountain cards from its own shuffle of the fountain deck (from the seat's stream),
//!   so no decision depends on the real order.
//! - Weights: a JSON file (`strategies/weights/carpe_diem-learned.json` is built in; `register`
//!   adds another, as `learned@weights=PATH` does through the binding) holding its
//!   format version, the component set it was trained on and the inputs' names.
//! - Training reads the options a decision weighs (`LearnedPlayer::candidates`) and their
//!   playout values (`playout_gains`).

mod decisions;
mod fit;
mod model;
mod prior;
mod reply;
mod training;
mod value;

use std::sync::Arc;

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::{Action, GameState, List, Options, Pending};
use crate::carpe_diem::players::features::{Scratch, N_INPUTS};
use crate::carpe_diem::players::profile::Profile;
use crate::carpe_diem::players::scripted::ScriptedPlayer;
use crate::carpe_diem::players::value::{depot_value, Evaluator};
use crate::carpe_diem::players::settings::{checked, Kind, Setting};
use crate::carpe_diem::players::{play_on_telling, Params, PlayerView, Strategy};
use crate::rng::{Generator, SeedSequence};

pub use model::{register, registered, Model, DEFAULT_WEIGHTS, FORMAT, INPUTS, NEWEST, VERSION};
pub use training::{playout_gains, playout_rows, search_labels, SearchLabel};
pub use value::{evaluator, LearnedValue};
pub use fit::{fit, fit_prior, record_games};
pub use prior::{prior_inputs, Prior, PriorRow, DEFAULT_PRIOR, N_PRIOR, PRIOR_INPUTS};
pub use decisions::RECORDED;
use decisions::JointBufs;
use reply::Replier;

/// The player's settings (`learned.weights`, `learned.top_k`, `learned.moves`,
/// `learned.explore`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnedParams {
    /// Registered weights (`register`); 0 = the built-in ones.
    pub weights: usize,
    /// (tile, cell) pairs of a take or seal decision valued, best first by greedy's
    /// placement value (>= 1).
    pub top_k: usize,
    /// Move destinations valued, best first by greedy's depot value (>= 1).
    pub moves: usize,
    /// Chance of a random shortlisted option instead of the best (self-play training
    /// explores with it; 0 plays the best).
    pub explore: f64,
    /// Weight of the other seats' mean value against the seat's own (0: its own only; the
    /// weights are fitted for 1, `cdsim train`'s margin).
    pub opponents: f64,
    /// In games of at most this many players, a position is valued after the other
    /// seats' replies, played by the greedy profile's rules on decks in an order of the
    /// seat's own drawing, up to this seat's next decision (0: never).
    pub reply: usize,
    /// 1: every seat's tile values (the inputs `reach_best`, `reach_other`) are priced
    /// as in the decision's own position in every copy it values (`Scratch::pin`), each
    /// on the copy's district; 0: with the prices of each copy.
    pub pin: usize,
    /// A move decision weighs every shortlisted move's shortlisted (tile, cell) pairs
    /// together by greedy's value (less a bread move's price) and values only this many
    /// best (each orientation of each) on a copy; 0: the best take of each move (`top_k`
    /// pairs each).
    pub joint: usize,
    /// A scoring's circle choice (R8.3) values only this many circles on a copy, the best
    /// by greedy's outcome (fewest failed cards, then value); 0: every circle.
    pub circles: usize,
    /// A move decision values on copies only the `prior` best by the fitted prior
    /// (`prior.rs`) of greedy's `joint` best; 0: all `joint` of them.
    pub prior: usize,
}

impl Default for LearnedParams {
    fn default() -> LearnedParams {
        LearnedParams {
            weights: 0,
            top_k: 4,
            moves: 4,
            explore: 0.0,
            opponents: 1.0,
            reply: 2,
            pin: 1,
            joint: 5,
            circles: 0,
            prior: 4,
        }
    }
}

/// The player's settings, declared once (`--strategy-params learned.NAME=value`,
/// `learned@NAME=value`; Python's registry and `--help` read them through the binding).
pub const SETTINGS: [Setting; 10] = [
    Setting { name: "weights", kind: Kind::Path,
              help: "a weights file (learned@weights=PATH; 0 = the built-in weights)" },
    Setting { name: "top_k", kind: Kind::Count,
              help: "(tile, cell) pairs of a take shortlisted by greedy's placement value" },
    Setting { name: "moves", kind: Kind::Count,
              help: "move destinations shortlisted by greedy's depot value" },
    Setting { name: "joint", kind: Kind::Whole,
              help: "the best pairs of all shortlisted moves valued on copies (0: each \
                     move's best take)" },
    Setting { name: "prior", kind: Kind::Whole,
              help: "of the joint best pairs, only this many best by the fitted prior are \
                     valued on copies (0: all)" },
    Setting { name: "pin", kind: Kind::Switch,
              help: "1: tile values priced as in the decision's position" },
    Setting { name: "circles", kind: Kind::Whole,
              help: "circles of a scoring valued on copies, best by greedy's outcome (0: all)" },
    Setting { name: "opponents", kind: Kind::Number,
              help: "weight of the other seats' mean value against the seat's own" },
    Setting { name: "reply", kind: Kind::Whole,
              help: "the largest player count whose other seats' greedy replies are played" },
    Setting { name: "explore", kind: Kind::Share,
              help: "chance of a random shortlisted option (self-play training)" },
];

impl LearnedParams {
    /// These settings with some replaced by name; an unknown name or a value its
    /// declaration (`SETTINGS`) does not take is an error.
    pub fn with_overrides<S: AsRef<str>>(&self, overrides: &[(S, f64)]) -> Result<Self, String> {
        let mut out = *self;
        for (name, value) in overrides {
            let name = name.as_ref();
            let value = checked("learned", &SETTINGS, name, *value)?;
            let whole = value as usize;
            match name {
                "weights" => out.weights = whole,
                "top_k" => out.top_k = whole,
                "moves" => out.moves = whole,
                "joint" => out.joint = whole,
                "pin" => out.pin = whole,
                "circles" => out.circles = whole,
                "prior" => out.prior = whole,
                "reply" => out.reply = whole,
                "explore" => out.explore = value,
                "opponents" => out.opponents = value,
                _ => unreachable!("every setting of SETTINGS is assigned"),
            }
        }
        Ok(out)
    }
}

/// The learned player (see the module's documentation).
pub struct LearnedPlayer {
    pub params: LearnedParams,
    model: Arc<Model>,
    /// The greedy profile: shortlists, and the rest of a turn in a copy.
    cheap: ScriptedPlayer,
    greedy: Params,
    scratch: Scratch,
    inputs: [f64; N_INPUTS],
    buf: Options,
    /// The takes `best_take` weighs (`buf` plays the follow-ups meanwhile).
    takes: Options,
    idle: Generator,
    /// The take found for each move valued by the last move decision, and the take of
    /// the move chosen (with its phase, round and destination), for the take decision.
    tried: Vec<(usize, Action)>,
    planned: Option<((usize, usize, u8), Action)>,
    /// Greedy players for the other seats' replies (`reply`), a few per seat (reply.rs).
    repliers: Vec<Replier>,
    /// The replies played in this decision's copies, with the copy they were played in:
    /// a copy alike in all but this seat's holdings (`GameState::alike_but_holdings`)
    /// gets the same replies, applied instead of chosen again. Emptied at each decision.
    replies: Vec<(GameState, Vec<Action>)>,
    /// The prior `prior` ranks a move decision's options by.
    prior: Arc<Prior>,
    /// When set, each move decision's options (`RECORDED` of greedy's best) are valued
    /// and recorded here with the prior's inputs (the choice is as without it).
    pub record: Option<Vec<PriorRow>>,
    /// Move decisions made (a recording's decision numbers).
    decisions: u64,
    /// A move decision's lists, reused.
    joint: JointBufs,
}

impl LearnedPlayer {
    /// The player with the weights `params.weights` names.
    pub fn new(params: LearnedParams) -> Result<LearnedPlayer, String> {
        Ok(LearnedPlayer::with_model(params, registered(params.weights)?))
    }

    pub fn with_model(params: LearnedParams, model: Arc<Model>) -> LearnedPlayer {
        LearnedPlayer {
            params,
            model,
            cheap: ScriptedPlayer::greedy(),
            greedy: Profile::greedy().params(),
            scratch: Scratch::default(),
            inputs: [0.0; N_INPUTS],
            buf: Options::default(),
            takes: Options::default(),
            idle: Generator::new(&SeedSequence::new(0, &[])),
            tried: Vec::new(),
            planned: None,
            repliers: Vec::new(),
            replies: Vec::new(),
            prior: Prior::builtin(),
            record: None,
            decisions: 0,
            joint: JointBufs::default(),
        }
    }

    /// This player with another prior (`learned.prior` ranks by it).
    pub fn with_prior(mut self, prior: Arc<Prior>) -> LearnedPlayer {
        self.prior = prior;
        self
    }

    /// The model this player values positions with.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The value of a position to `seat`: the model's, less `opponents` times the mean of
    /// the other seats' values.
    pub fn value(&mut self, state: &GameState, comps: &Components, seat: usize) -> f64 {
        let mine = self
            .model
            .value(state, comps, seat, &mut self.scratch, &mut self.inputs);
        if self.params.opponents == 0.0 {
            return mine;
        }
        let mut others = 0.0;
        for s in (0..state.n).filter(|&s| s != seat) {
            others += self.model.value(state, comps, s, &mut self.scratch, &mut self.inputs);
        }
        mine - self.params.opponents * others / (state.n - 1) as f64
    }

    /// The state as this seat may know it: the fountain deck (the only deck a turn or a
    /// scoring draws from before the next decision of another seat) in an order of the
    /// seat's own drawing.
    /// With `reply` in force, the tile decks too (the replies may end a phase and deal).
    fn seen(&self, state: &GameState, rng: &mut Generator) -> GameState {
        let mut seen = state.clone();
        shuffle_sorted(&mut seen.fountain_deck, rng);
        if self.replies(state) {
            shuffle_sorted(&mut seen.light_deck, rng);
            shuffle_sorted(&mut seen.dark_deck, rng);
        }
        seen
    }

    /// Whether positions are valued after the other seats' replies in this game.
    fn replies(&self, state: &GameState) -> bool {
        state.n <= self.params.reply
    }

    /// Play the other seats' decisions in a copy by the greedy profile's rules, up to
    /// this seat's next decision (or the end); the same replies as in an earlier copy of
    /// this decision alike in all but this seat's holdings, without choosing them again.
    fn reply(&mut self, state: &mut GameState, comps: &Components, seat: usize) {
        if let Some(k) = self.replies.iter().position(|(s, _)| s.alike_but_holdings(state, seat)) {
            let actions = std::mem::take(&mut self.replies[k].1);
            #[cfg(debug_assertions)]
            {
                let mut fresh = state.clone();
                let again = self.play_reply(&mut fresh, comps, seat);
                assert_eq!(again, actions, "a reply differs in a copy alike but for this seat's holdings");
            }
            for &action in &actions {
                state.apply(comps, action);
            }
            self.replies[k].1 = actions;
            return;
        }
        let before = state.clone();
        let actions = self.play_reply(state, comps, seat);
        self.replies.push((before, actions));
    }

    /// The other seats' decisions played by the greedy profile's rules, up to this seat's
    /// next decision (or the end): what they chose.
    fn play_reply(&mut self, state: &mut GameState, comps: &Components, seat: usize) -> Vec<Action> {
        if self.repliers.len() != state.n {
            self.repliers = (0..state.n).map(|_| Replier::default()).collect();
        }
        let mut streams = vec![self.idle.clone(); state.n];
        let mut buf = std::mem::take(&mut self.buf);
        let mut actions = Vec::new();
        let others = |s: &GameState| s.pending.seat() != Some(seat);
        play_on_telling(state, comps, &mut self.repliers, &mut streams, &mut buf, others,
                        |a| actions.push(a));
        self.buf = buf;
        actions
    }

    /// Play this seat's follow-up decisions in a copy (seal tile, fountain cards,
    /// payments) by the greedy profile's rules, up to another seat's decision.
    fn settle(&mut self, state: &mut GameState, comps: &Components, seat: usize) {
        while state.pending.seat() == Some(seat)
            && matches!(
                state.pending,
                Pending::Seal { .. } | Pending::Fountain { .. } | Pending::Payment { .. }
            )
        {
            let mut buf = std::mem::take(&mut self.buf);
            state.options(comps, &mut buf);
            let view = PlayerView { state, comps, seat };
            let i = self.cheap.choose(&view, &buf, &mut self.idle);
            state.apply(comps, buf[i]);
            self.buf = buf;
        }
    }

    /// This seat's follow-ups in a copy, and the other seats' replies when in force.
    fn follow_up(&mut self, state: &mut GameState, comps: &Components, seat: usize) {
        self.settle(state, comps, seat);
        if self.replies(state) {
            self.reply(state, comps, seat);
        }
    }

    /// The value of `state` after this seat's follow-ups.
    fn after(&mut self, state: &mut GameState, comps: &Components, seat: usize) -> f64 {
        self.follow_up(state, comps, seat);
        self.value(state, comps, seat)
    }

    /// The shortlist of a take (or seal) decision: the indices of the options whose
    /// (tile, cell) is among the `top_k` best by greedy's placement value, and of the
    /// first option that stores a tile, each with that value.
    fn shortlist_builds(
        &mut self,
        view: &PlayerView,
        options: &[Action],
        out: &mut Vec<(usize, f64)>,
    ) {
        out.clear();
        let builds = options.iter().map(|o| o.build().expect("a take or a seal decision"));
        let prices = self.scratch.prices(view, &self.greedy);
        let ev = Evaluator::with_prices(view, &self.greedy, prices);
        let mut ranked: Vec<(f64, u8, i8, usize)> = Vec::new();
        let mut store = None;
        for (i, (tile, cell)) in builds.clone().enumerate() {
            if cell < 0 {
                store = store.or(Some((i, self.greedy.store)));
                continue;
            }
            if ranked.iter().any(|r| (r.1, r.2) == (tile, cell)) {
                continue;
            }
            let ttype = &view.comps.tile_types[tile as usize];
            ranked.push((ev.placement(ttype, cell as usize), tile, cell, i));
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.3.cmp(&b.3)));
        ranked.truncate(self.params.top_k);
        for (i, (tile, cell)) in builds.enumerate() {
            if cell < 0 {
                continue;
            }
            if let Some(r) = ranked.iter().find(|r| (r.1, r.2) == (tile, cell)) {
                out.push((i, r.0));
            }
        }
        out.extend(store);
    }

    /// (value, take) of the best shortlisted take in a copy waiting for this seat's take.
    fn best_take(&mut self, state: &GameState, comps: &Components, seat: usize) -> (f64, Action) {
        debug_assert!(matches!(state.pending, Pending::Take { .. }), "a take is pending");
        // its own list: `after` plays the follow-ups with `buf`
        let mut takes = std::mem::take(&mut self.takes);
        state.options(comps, &mut takes);
        let mut list = Vec::new();
        let view = PlayerView { state, comps, seat };
        self.shortlist_builds(&view, &takes, &mut list);
        let mut best = (f64::NEG_INFINITY, takes[0]);
        for &(i, _) in &list {
            let mut copy = state.clone();
            copy.apply(comps, takes[i]);
            let v = self.after(&mut copy, comps, seat);
            if v > best.0 {
                best = (v, takes[i]);
            }
        }
        self.takes = takes;
        best
    }

    /// The greedy profile's worth of a move: its depot's best tile, less the bread move's
    /// price (as the greedy player's move).
    fn move_order(&mut self, view: &PlayerView, options: &[Action]) -> Vec<usize> {
        let prices = self.scratch.prices(view, &self.greedy);
        let ev = Evaluator::with_prices(view, &self.greedy, prices);
        let cost = self.greedy.bread_move_cost + ev.prices.plan.bread + ev.prices.plan.keep;
        let mut ranked: Vec<(f64, usize)> = options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let Action::Move(m) = *o else { unreachable!("a move offers moves") };
                let best = depot_value(view, &ev, m.dest as usize);
                (if m.bread { best - cost } else { best }, i)
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        ranked.truncate(self.params.moves);
        ranked.into_iter().map(|(_, i)| i).collect()
    }

    /// Every option of a decision tried on a copy of the state as this seat sees it,
    /// valued after its own follow-up decisions.
    fn pick_any(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator) -> usize {
        let (comps, seat) = (view.comps, view.seat);
        let seen = self.seen(view.state, rng);
        let all: Vec<usize> = (0..options.len()).collect();
        self.pick(&all, rng, |me, i| {
            let mut copy = seen.clone();
            copy.apply(comps, options[i]);
            me.after(&mut copy, comps, seat)
        })
    }

    /// The best of `candidates` (indices into the options) by `value`, or with chance
    /// `explore` a random one; ties keep the first.
    fn pick(
        &mut self,
        candidates: &[usize],
        rng: &mut Generator,
        mut value: impl FnMut(&mut Self, usize) -> f64,
    ) -> usize {
        if candidates.len() == 1 {
            return candidates[0];
        }
        if self.params.explore > 0.0 {
            let u = rng.integers(1 << 53) as f64 / (1u64 << 53) as f64;
            if u < self.params.explore {
                return candidates[rng.integers(candidates.len() as u64) as usize];
            }
        }
        let mut best = (f64::NEG_INFINITY, candidates[0]);
        for &i in candidates {
            let v = value(self, i);
            if v > best.0 {
                best = (v, i);
            }
        }
        best.1
    }
}

/// A deck's cards sorted, then shuffled from `rng` (Fisher-Yates).
fn shuffle_sorted<const N: usize>(list: &mut List<N>, rng: &mut Generator) {
    let mut items = [0u8; N];
    let n = list.len();
    items[..n].copy_from_slice(list.as_slice());
    items[..n].sort_unstable();
    *list = List::from_slice(&items[..n]);
    list.shuffle(rng);
}

impl Strategy<GameState> for LearnedPlayer {
    fn name(&self) -> &'static str {
        "learned"
    }

    fn choose(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator) -> usize {
        self.replies.clear();
        if self.params.pin != 0 {
            self.scratch.pin(view.state);
        }
        let chosen = match view.state.pending {
            // R2.5: blind (no tile is dealt yet): the greedy profile's rule
            Pending::Start { .. } => self.cheap.choose(view, options, rng),
            Pending::Move { .. } => self.choose_move(view, options, rng),
            Pending::Take { .. } => self.choose_take(view, options, rng),
            Pending::Seal { .. } => self.choose_build(view, options, rng),
            Pending::Circle { .. } if self.params.circles > 0 => {
                self.choose_circle(view, options, rng)
            }
            _ => self.pick_any(view, options, rng),
        };
        self.scratch.unpin();
        chosen
    }
}
