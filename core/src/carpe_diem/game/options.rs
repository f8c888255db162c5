//! The decision vocabulary: the decision the game waits for (`Pending`), the options a
//! decision offers (R2.5, R4.2-R4.5, R6.3, R6.5, R8.3-R8.4) and the one action type that
//! tags each option by its decision kind (OpenSpiel's action, shakmaty's `Move`). The
//! rules own them: players choose among them, the binding converts them, and nothing here
//! knows who chooses.

use serde_json::{json, Value};

use crate::carpe_diem::cards::Payment;
use crate::carpe_diem::components::Components;
use crate::carpe_diem::kinds::Edges;

use super::GameState;

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// R2.5: where to put the pawn.
    Start { seat: u8 },
    /// R4.2-R4.4.
    Move { seat: u8 },
    /// R4.5: which tile of the depot on `space`, and where.
    Take { seat: u8, space: u8 },
    /// R6.3: the artisan's seal tile.
    Seal { seat: u8 },
    /// R6.5: the cards drawn (removed from the deck) wait for the choice.
    Fountain { seat: u8, drawn: [u8; 2], n: u8 },
    /// R8.3.
    Circle { seat: u8 },
    /// R8.4: how to pay the card on `slot`; `next` is the circle's other card (or NONE).
    Payment { seat: u8, slot: u8, next: u8 },
    /// The fourth scoring phase is over: final scoring (R10) remains.
    Over,
}

impl Pending {
    /// The seat that decides (None when the game is over).
    pub fn seat(&self) -> Option<usize> {
        match *self {
            Pending::Start { seat }
            | Pending::Move { seat }
            | Pending::Take { seat, .. }
            | Pending::Seal { seat }
            | Pending::Fountain { seat, .. }
            | Pending::Circle { seat }
            | Pending::Payment { seat, .. } => Some(seat as usize),
            Pending::Over => None,
        }
    }

    /// The decision kind's name: the strings `State.decision()` gives Python, and the
    /// words of the players' logs and error messages.
    pub fn name(&self) -> &'static str {
        match self {
            Pending::Start { .. } => "start",
            Pending::Move { .. } => "move",
            Pending::Take { .. } => "take",
            Pending::Seal { .. } => "seal",
            Pending::Fountain { .. } => "fountain",
            Pending::Circle { .. } => "circle",
            Pending::Payment { .. } => "payment",
            Pending::Over => "over",
        }
    }
}

/// The options of one decision, in the order the Python rules list them (shakmaty's
/// `MoveList`): every option of a decision is of its kind.
pub type Options = Vec<Action>;

/// One option of any decision, tagged by the decision kind it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// R2.5: the patrician space for the pawn.
    Start(u8),
    Move(Move),
    Take(Take),
    Seal(SealBuild),
    Fountain(FountainChoice),
    Circle(CircleChoice),
    Payment(Payment),
}

impl Action {
    /// The tile a take or a seal builds: (tile type, cell; a cell < 0 stores it).
    pub fn build(&self) -> Option<(u8, i8)> {
        match *self {
            Action::Take(t) => Some((t.tile_type, t.cell)),
            Action::Seal(s) => Some((s.tile_type, s.cell as i8)),
            _ => None,
        }
    }

    /// The option as a JSON object, components named by their ids (the binding's
    /// `legal_options`).
    pub fn to_json(&self, comps: &Components) -> Value {
        let tile = |t: u8| comps.tile_types[t as usize].id.clone();
        let fountain = |c: u8| comps.fountains[c as usize].id.clone();
        match *self {
            Action::Start(space) => json!({"space": space}),
            Action::Move(m) => json!({"dest": m.dest, "bread": m.bread}),
            Action::Take(t) => json!({
                "slot": t.slot, "tile": tile(t.tile_type),
                "cell": if t.stores() { Value::Null } else { json!(t.cell) },
                "edges": if t.stores() { Value::Null } else { json!(t.edges) },
            }),
            Action::Seal(s) => json!({
                "slot": s.slot, "tile": tile(s.tile_type), "cell": s.cell, "edges": s.edges,
            }),
            Action::Fountain(f) => json!({
                "keep": f.keep().iter().map(|&c| fountain(c)).collect::<Vec<_>>(),
                "give_back": f.give_back.map(fountain),
            }),
            Action::Circle(c) => json!({
                "circle": c.circle, "first": c.first, "second": c.second,
            }),
            Action::Payment(p) => json!({"paid": p.paid, "bread": p.bread}),
        }
    }
}

impl GameState {
    /// The pending decision's options into `out` (emptied first; none when the game is
    /// over). The engine never offers an illegal option, and every decision has one.
    pub fn options(&self, comps: &Components, out: &mut Options) {
        out.clear();
        let Some(seat) = self.pending.seat() else {
            return;
        };
        match self.pending {
            Pending::Start { .. } => self.start_options(out),
            Pending::Move { .. } => self.move_options(seat, out),
            Pending::Take { space, .. } => self.take_options(comps, seat, space as usize, out),
            Pending::Seal { .. } => self.seal_options(comps, seat, out),
            Pending::Fountain { .. } => self.fountain_options(out),
            Pending::Circle { .. } => self.circle_options(out),
            Pending::Payment { slot, .. } => self.payment_options(comps, seat, slot as usize, out),
            Pending::Over => {}
        }
    }

    /// Make the choice `action` (one of the pending decision's options) and run the game
    /// on to the next decision.
    pub fn apply(&mut self, comps: &Components, action: Action) {
        match action {
            Action::Start(space) => self.apply_start(space),
            Action::Move(m) => self.apply_move(m),
            Action::Take(t) => self.apply_take(comps, t),
            Action::Seal(s) => self.apply_seal(comps, s),
            Action::Fountain(f) => self.apply_fountain(comps, f),
            Action::Circle(c) => self.apply_circle(comps, c),
            Action::Payment(p) => self.apply_payment(comps, p),
        }
    }
}

/// R4.2-R4.4: go to `dest`; `bread` = pay 1 bread to go anywhere (R4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub dest: u8,
    pub bread: bool,
}

/// R4.5: take tile `slot` of the depot and build it at `cell` with `edges`, or store it
/// (`cell` < 0; `edges` is then meadow and means nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Take {
    pub slot: u8,
    pub tile_type: u8,
    pub cell: i8,
    pub edges: Edges,
}

impl Take {
    pub fn stores(&self) -> bool {
        self.cell < 0
    }
}

/// R6.3 artisan: build seal-row tile `slot` at `cell` with these edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SealBuild {
    pub slot: u8,
    pub tile_type: u8,
    pub cell: u8,
    pub edges: Edges,
}

/// R6.5: the drawn cards to keep (fountain-card indices, in drawn order), and the card
/// that goes under the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FountainChoice {
    keep: [u8; 2],
    n_keep: u8,
    pub give_back: Option<u8>,
}

impl FountainChoice {
    pub fn new(keep: &[u8], give_back: Option<u8>) -> FountainChoice {
        assert!(
            !keep.is_empty() && keep.len() <= 2,
            "a fountain keeps 1 or 2 cards"
        );
        let mut k = [0; 2];
        k[..keep.len()].copy_from_slice(keep);
        FountainChoice {
            keep: k,
            n_keep: keep.len() as u8,
            give_back,
        }
    }

    pub fn keep(&self) -> &[u8] {
        &self.keep[..self.n_keep as usize]
    }
}

/// R8.3: a scoring circle and the order of its two cards (grid slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CircleChoice {
    pub circle: u8,
    pub first: u8,
    pub second: u8,
}
