//! The options a decision offers, as the rules list them (R2.5, R4.2-R4.5, R6.3, R6.5,
//! R8.3-R8.4). The rules own them: the players choose among them, the binding converts
//! them, and nothing here knows who chooses.

use crate::kinds::Edges;

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
