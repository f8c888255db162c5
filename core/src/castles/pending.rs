//! The decision the game waits for (`Pending`, a turn's `Stage`) and the tasks a placement
//! leaves to do: what the state holds between two decisions, apart from the actions that
//! answer them (`actions`).

/// Which actions a turn decision offers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Stage {
    /// T3.3: the turn's action.
    Main,
    /// T3.4: a marble's extra action, or end the turn.
    Extra,
    /// T5.6: after a sweep, the tile to take.
    Sweep,
}

/// The decision the game waits for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Pending {
    Lay { seat: u8 },
    StartCastle { seat: u8 },
    SetupToken { seat: u8 },
    Turn { seat: u8, stage: Stage },
    Pay { seat: u8, item: u8, space: u8 },
    Castle { seat: u8 },
    Token { seat: u8 },
    Over,
}

impl Pending {
    pub fn seat(self) -> Option<usize> {
        match self {
            Pending::Lay { seat }
            | Pending::StartCastle { seat }
            | Pending::SetupToken { seat }
            | Pending::Turn { seat, .. }
            | Pending::Pay { seat, .. }
            | Pending::Castle { seat }
            | Pending::Token { seat } => Some(seat as usize),
            Pending::Over => None,
        }
    }
}

/// What is left to do after a placement's decisions (a stack, last pushed first).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Task {
    /// T5.3, T8.1: fill display gap `slot` from the acting seat's stack.
    Refill(u8),
    /// T8.1: the castle's free placement.
    Castle,
    /// T8.2: the city's token.
    Token,
    /// Never run: fills the unused part of the stack.
    Finish,
}

pub(crate) const MAX_TASKS: usize = 16;
