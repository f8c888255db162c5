//! Built-in players for The Castles of Tuscany, each a `Strategy<CastlesState>`: random
//! (the seam's `RandomPlayer`, the floor), greedy (one ply: the VP and resources an
//! option gains, valued by simple weights), scripted styles, each a weight profile of
//! the one `Scripted` player, and mcts (the seam's `UctPlayer`, its rollouts played by
//! greedy). `roster::make` makes them, and learned, by name for the registry
//! (`games::registry`).

use super::actions::{can_pay, payments, Action, Pending, Stage, WORKER};
use super::components::{BonusKind, Colour, Components, N_BONUS, N_COLOURS};
use super::effects::MONASTERY_CARDS;
use super::scoring::area_vp;
use super::state::{CastlesState, Seat, Stored, DRAW};
use super::tables::{Layout, Tile};
use crate::players::{Strategy, UctParams, View};
use crate::rng::Generator;

/// What a scripted player values, in VP-equivalents.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Per VP (green VP times the scorings still to come, T11.1).
    pub vp: f32,
    /// Liking for taking and placing each colour.
    pub colour: [f32; N_COLOURS],
    pub card: f32,
    pub worker: f32,
    pub marble: f32,
    /// Per harvest card revealed.
    pub harvest: f32,
    pub wood: f32,
    pub token: [f32; N_BONUS],
    /// A castle's free placement (T8.1).
    pub castle_free: f32,
    /// A taken tile that fits the board now.
    pub fit: f32,
    /// Any take (it moves the game on).
    pub take: f32,
}

impl Weights {
    /// The plain greedy profile: every colour alike.
    pub fn greedy() -> Weights {
        Weights {
            vp: 1.0,
            colour: [0.5; N_COLOURS],
            card: 0.25,
            worker: 0.4,
            marble: 0.6,
            harvest: 1.2,
            wood: 1.0,
            token: [0.8, 1.0, 0.8, 0.8, 0.8],
            castle_free: 2.5,
            fit: 1.0,
            take: 0.5,
        }
    }

    fn with_colours(mut self, liked: &[(Colour, f32)]) -> Weights {
        self.colour = [0.3; N_COLOURS];
        for &(c, w) in liked {
            self.colour[c.index()] = w;
        }
        self
    }

    /// Castles and monasteries: free placements and cards.
    pub fn castle_monastery() -> Weights {
        let mut w =
            Weights::greedy().with_colours(&[(Colour::Castle, 2.5), (Colour::Monastery, 2.0)]);
        w.castle_free = 3.5;
        w.card = 0.35;
        w.token[BonusKind::Card.index()] = 1.2;
        w
    }

    /// Trade and workers: villages, carts and cities.
    pub fn trade_workers() -> Weights {
        let mut w = Weights::greedy().with_colours(&[
            (Colour::Village, 2.0),
            (Colour::Cart, 2.0),
            (Colour::City, 1.5),
        ]);
        w.worker = 0.7;
        w.harvest = 1.8;
        w.token[BonusKind::Worker.index()] = 1.5;
        w.token[BonusKind::Harvest.index()] = 1.5;
        w
    }

    /// Animal farms: farms and estates (wooden hexes on farms always score).
    pub fn animal_farms() -> Weights {
        let mut w = Weights::greedy().with_colours(&[(Colour::Farm, 2.5), (Colour::Estate, 2.0)]);
        w.wood = 1.8;
        w.vp = 1.1;
        w
    }
}

/// The scripted player: the option of highest one-ply value, ties broken by its stream.
#[derive(Clone, Debug)]
pub struct Scripted {
    pub name: &'static str,
    pub weights: Weights,
}

impl Scripted {
    pub fn greedy() -> Scripted {
        Scripted { name: "greedy", weights: Weights::greedy() }
    }
}

/// mcts's settings for Castles: UCT's 200 simulations, valued on the seat's share of all
/// VP gained (a turn has dozens of options: with a few simulations each, the win alone
/// seldom tells them apart) and exploring little (c = 0.1: those shares differ by a few
/// hundredths). Seat-rotated 2-player games against greedy: 7 of 12 won
/// (`tests/castles_seam.rs`); at margin 0.5, c = 1.4 it won 4 of 12, at c = 0.3 3 of 12.
pub fn mcts_params() -> UctParams {
    UctParams { c: 0.1, margin: 1.0, ..UctParams::default() }
}

impl Strategy<CastlesState> for Scripted {
    fn name(&self) -> &'static str {
        self.name
    }
    fn choose(&mut self, view: &View<CastlesState>, options: &[Action], rng: &mut Generator)
        -> usize {
        let (state, comps, seat) = (view.state, view.comps, view.seat);
        let s = &state.seats[seat];
        let eval = Eval {
            state,
            comps,
            s,
            w: &self.weights,
            frontier: s.frontier(comps),
        };
        let (mut best, mut best_value, mut ties) = (0, f32::NEG_INFINITY, 0u64);
        for (i, &a) in options.iter().enumerate() {
            let v = eval.value(a);
            if v > best_value + 1e-6 {
                (best, best_value, ties) = (i, v, 1);
            } else if (v - best_value).abs() <= 1e-6 {
                ties += 1;
                if rng.integers(ties) == 0 {
                    best = i;
                }
            }
        }
        best
    }
}

/// The one-ply value by `w` of each of `options` (the pending decision's) to `seat`, into
/// `out` (emptied first): the learned player's prior (`inputs`; it plays by
/// castle-monastery's, whose shortlist beat greedy's by some 30 Elo, docs/castles.md).
pub fn prior_values(state: &CastlesState, comps: &Components, seat: usize, options: &[Action],
                    w: &Weights, out: &mut Vec<f32>) {
    let s = &state.seats[seat];
    let eval = Eval { state, comps, s, w, frontier: s.frontier(comps) };
    out.clear();
    out.extend(options.iter().map(|&a| eval.value(a)));
}

struct Eval<'a> {
    state: &'a CastlesState,
    comps: &'a Components,
    s: &'a Seat,
    w: &'a Weights,
    /// T7.3: the seat's free spaces touching its tiles.
    frontier: u32,
}

impl Eval<'_> {
    /// T11.1: how many scorings a green VP earned now still meets.
    fn green_mult(&self) -> f32 {
        (4 - self.state.phase as i32) as f32
    }

    fn value(&self, a: Action) -> f32 {
        let extra = matches!(
            self.state.pending,
            Pending::Turn {
                stage: Stage::Extra,
                ..
            }
        );
        let marble_cost = if extra && a != Action::EndTurn {
            self.w.marble
        } else {
            0.0
        };
        let v = match a {
            Action::Lay(id) => {
                let l = Layout::decode(id);
                -((l.offset[1].abs() + (l.offset[2] - l.offset[1]).abs()) as f32)
            }
            Action::StartCastle(space) => {
                let adj = self.comps.tables().adjacency[self.s.layout as usize][space as usize];
                super::actions::bits(adj)
                    .map(|n| self.w.colour[self.s.colour[n] as usize])
                    .sum()
            }
            Action::Token(k) => self.w.token[k.index()],
            Action::Draw => self.draw_value(),
            Action::Take { slot, discard } => self.take_value(slot, discard),
            Action::Sweep(_) => 0.1,
            Action::Place { item, space } => {
                let what = self.s.storage[item as usize];
                self.place_value(space as usize, what) - 2.0 * self.w.card
            }
            Action::Pay(p) => -self.pay_cost(p),
            Action::Free { slot, space } => {
                let tile = self.state.display[slot as usize].expect("display tile");
                self.place_value(space as usize, Stored::Tile(tile))
            }
            Action::Skip | Action::EndTurn => 0.0,
        };
        v - marble_cost
    }

    /// T4: the cards a draw brings, worth more while a stored tile waits for them.
    fn draw_value(&self) -> f32 {
        let wanted = DRAW + self.s.tokens[BonusKind::Card.index()] as usize;
        let there = self.state.deck_len as usize
            + self
                .state
                .discard
                .iter()
                .map(|&k| k as usize)
                .sum::<usize>();
        if there == 0 {
            return -10.0; // a turn spent drawing nothing only stalls the game (T10)
        }
        let cards = wanted.min(there) as f32 * self.w.card;
        let stuck = self.s.storage.iter().any(|st| match st {
            Stored::Tile(t) => !can_pay(self.s, t.colour().index()),
            Stored::Wood => self.s.hand_size() < 2,
            Stored::Empty => false,
        });
        // a full hand gains little from more
        let glut = (1.0 - self.s.hand_size() as f32 / 15.0).max(0.0);
        (cards + if stuck { 1.5 } else { 0.0 }) * glut - 0.25
    }

    /// The VP and resources placing `what` on `space` gains at once (T7.5, T8, T9).
    fn place_value(&self, space: usize, what: Stored) -> f32 {
        let s = self.s;
        let colour = s.colour[space] as usize;
        let filled = s.filled | 1 << space;
        let area = s.area(self.comps, space);
        let mut green = 0;
        if colour == Colour::Farm.index() {
            let seen =
                super::actions::bits(area & s.filled).fold(0u8, |m, sp| m | s.crops[sp]) & 0x0f;
            green += match what {
                Stored::Tile(t) => (t.crops() & !seen).count_ones() as i32,
                _ => 1,
            };
        }
        if area & !filled == 0 {
            green += area_vp(self.comps, area.count_ones());
        }
        let claims = self.state.colour_claims[colour];
        if s.colour_mask[colour] & !filled == 0 && claims < 2 {
            green += self.comps.tables().colour_bonus[colour][claims as usize] as i32;
        }
        let w = self.w;
        let effect = match Colour::from_index(colour) {
            Colour::Castle => w.castle_free,
            Colour::City => w.token.iter().cloned().fold(0.0, f32::max),
            Colour::Estate => w.wood,
            Colour::Farm => 0.0,
            Colour::Quarry => (1 + s.tokens[BonusKind::Marble.index()]) as f32 * w.marble,
            Colour::Village => (1 + s.tokens[BonusKind::Worker.index()]) as f32 * w.worker,
            Colour::Monastery => MONASTERY_CARDS as f32 * w.card,
            Colour::Cart => (1 + s.tokens[BonusKind::Harvest.index()]) as f32 * w.harvest,
        };
        // an area nearly done is worth something before it is complete
        let progress = (area & filled).count_ones() as f32 / area.count_ones() as f32;
        green as f32 * self.green_mult() * w.vp + effect + w.colour[colour] + 0.5 * progress
    }

    fn take_value(&self, slot: u8, discard: u8) -> f32 {
        let tile: Tile = self.state.display[slot as usize].expect("display tile");
        let frontier = self.frontier;
        let mut v = self.tile_worth(tile, frontier);
        if discard != super::actions::KEEP {
            v -= match self.s.storage[discard as usize] {
                Stored::Tile(t) => self.tile_worth(t, frontier),
                Stored::Wood => self.w.take + self.w.wood + self.w.fit,
                Stored::Empty => 0.0,
            };
        }
        v
    }

    /// A tile in storage: liked colour, fits now, or with no space of its colour left
    /// only the leftover VP it is worth at the end (T11.2).
    fn tile_worth(&self, tile: Tile, frontier: u32) -> f32 {
        let c = tile.colour().index();
        if self.s.colour_mask[c] & !self.s.filled == 0 {
            return self.w.vp;
        }
        // a liked tile that cannot be placed yet clogs storage: half the liking
        if frontier & self.s.colour_mask[c] != 0 {
            self.w.take + self.w.colour[c] + self.w.fit
        } else {
            self.w.take + 0.5 * self.w.colour[c]
        }
    }

    /// T7.2: cards handed in, dearer when a stored tile needs their colour.
    fn pay_cost(&self, p: super::actions::Payment) -> f32 {
        let Pending::Pay { space, .. } = self.state.pending else {
            return 0.0;
        };
        let colour = self.s.colour[space as usize] as usize;
        let (cards, workers) = p.cost(colour);
        let mut need = [0f32; N_COLOURS];
        for st in &self.s.storage {
            if let Stored::Tile(t) = st {
                need[t.colour().index()] += 0.5;
            }
        }
        let card_cost: f32 = (0..N_COLOURS)
            .map(|d| cards[d] as f32 * self.w.card * (1.0 + need[d]))
            .sum();
        card_cost + workers as f32 * self.w.worker + if p.b == WORKER { 0.01 } else { 0.0 }
    }
}

/// Payments `seat` could make for a space of colour `c` (for players and tests).
pub fn affordable(seat: &Seat, c: usize) -> Vec<super::actions::Payment> {
    let mut out = Vec::new();
    payments(seat, c, |p| out.push(p));
    out
}
