//! The Castles of Tuscany as a replay draws it (`Game::frame`, `Game::describe`): the
//! whole state, every hand included (a replay is read after the game), each seat's board
//! as hexes once its pieces are laid, and every option in the rulebook's words.

use serde::Serialize;

use super::actions::{Action, Payment, Pending, Stage, CARD, KEEP, WORKER};
use super::components::{BonusKind, Colour, Components, Crop, BOARD_SPACES, N_BONUS, N_COLOURS,
                        PIECE_SPACES};
use super::scoring::N_SOURCES;
use super::state::{CastlesState, Seat, Stored, NO_LAYOUT};
use super::tables::{Layout, Tile};

/// Bit `i` of a farm space's crops (`Tile::crops`), and the wooden hex's bit (T8.10).
const CROPS: [Crop; 4] = [Crop::Vineyard, Crop::Boar, Crop::Olive, Crop::Grain];
const WOOD_BIT: u8 = 0x10;

/// A hex tile: its colour, its crops (farms), and whether its back is neutral (T1.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TileView {
    pub colour: Colour,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub crops: Vec<Crop>,
    pub neutral: bool,
}

impl TileView {
    fn of(tile: Tile) -> TileView {
        TileView { colour: tile.colour(), crops: crops(tile.crops()), neutral: tile.is_neutral() }
    }
}

fn crops(bits: u8) -> Vec<Crop> {
    CROPS.iter().enumerate().filter(|(i, _)| bits & 1 << i != 0).map(|(_, &c)| c).collect()
}

/// What a storage space holds (T5.1): null when empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredView {
    Wood,
    Tile(TileView),
}

/// One space of a board as laid (T2.6, TC8): its name (`A1`..`C10`), where it lies on
/// the hex grid (columns whose odd ones sit half a hex lower), its colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpaceView {
    pub name: String,
    pub col: i32,
    pub row: i32,
    pub colour: Colour,
}

/// One seat's holdings: every hand shown, the board once laid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatFrame {
    pub hand: [u8; N_COLOURS],
    /// The usable storage spaces (T5.1), in order.
    pub storage: Vec<Option<StoredView>>,
    pub workers: u16,
    pub marble: u16,
    pub tokens: [u8; N_BONUS],
    /// The board's spaces, empty until the pieces are laid (T2.6).
    pub board: Vec<SpaceView>,
    /// Covered spaces, a bit per space (the start castle included).
    pub filled: u32,
    /// Each covered farm space's crops, by space (T8.5); a wooden hex shows as `wood`.
    pub farms: Vec<(u8, Vec<Crop>, bool)>,
    pub stack_left: u8,
    pub placed_tiles: u8,
    pub placed_wood: u8,
    /// Green VP waiting for the next scoring, red VP scored (T1.8).
    pub green: i32,
    pub red: i32,
    /// The red track by source (`VpSource` order).
    pub red_by: [i32; N_SOURCES],
}

/// The whole game at one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    pub phase: u8,
    pub triggered: bool,
    pub final_round: bool,
    pub turn: u8,
    pub pending: Pending,
    pub display: Vec<Option<TileView>>,
    pub deck: u8,
    pub discard: [u8; N_COLOURS],
    pub harvest: u8,
    pub reserve: u8,
    pub aside: u8,
    pub bonus_supply: [u8; N_BONUS],
    pub colour_claims: [u8; N_COLOURS],
    pub seats: Vec<SeatFrame>,
}

/// A space's name: its piece (A, B, C) and its place on the piece, from 1.
pub fn space_name(space: usize) -> String {
    format!("{}{}", ["A", "B", "C"][space / PIECE_SPACES], space % PIECE_SPACES + 1)
}

fn seat_frame(s: &Seat) -> SeatFrame {
    let board = if s.layout == NO_LAYOUT {
        Vec::new()
    } else {
        let layout = Layout::decode(s.layout);
        (0..BOARD_SPACES)
            .map(|sp| {
                let (col, row) = layout.cell(sp);
                SpaceView { name: space_name(sp), col, row,
                            colour: Colour::from_index(s.colour[sp] as usize) }
            })
            .collect()
    };
    let farms = (0..BOARD_SPACES)
        .filter(|&sp| s.filled & 1 << sp != 0 && s.crops[sp] != 0)
        .map(|sp| (sp as u8, crops(s.crops[sp]), s.crops[sp] & WOOD_BIT != 0))
        .collect();
    let storage = s.storage[..s.capacity as usize]
        .iter()
        .map(|x| match *x {
            Stored::Empty => None,
            Stored::Wood => Some(StoredView::Wood),
            Stored::Tile(t) => Some(StoredView::Tile(TileView::of(t))),
        })
        .collect();
    SeatFrame { hand: s.hand, storage, workers: s.workers, marble: s.marble, tokens: s.tokens,
                board, filled: s.filled, farms, stack_left: 21 - s.drawn,
                placed_tiles: s.placed_tiles, placed_wood: s.placed_wood, green: s.green,
                red: s.red, red_by: s.red_by }
}

fn colour(c: Colour) -> String {
    format!("{c:?}").to_lowercase()
}

fn stored(x: Stored) -> String {
    match x {
        Stored::Empty => "nothing".into(),
        Stored::Wood => "a wooden hex".into(),
        Stored::Tile(t) => format!("a {} tile", colour(t.colour())),
    }
}

fn bonus(kind: BonusKind) -> String {
    format!("{kind:?}").to_lowercase()
}

/// T7.2: a payment in words, for a space of colour `c`.
fn payment(p: Payment, c: usize) -> String {
    let unit = |u: u8| match u {
        CARD => format!("a {} card", colour(Colour::from_index(c))),
        WORKER => "a worker".into(),
        d => format!("two {} cards", colour(Colour::from_index((d - 1) as usize))),
    };
    format!("pays {} and {}", unit(p.a), unit(p.b))
}

impl CastlesState {
    /// The state as the replay draws it.
    pub fn frame(&self) -> Frame {
        Frame {
            phase: self.phase,
            triggered: self.triggered,
            final_round: self.final_round,
            turn: self.turn_seat,
            pending: self.pending,
            display: self.display.iter().map(|t| t.map(TileView::of)).collect(),
            deck: self.deck_len,
            discard: self.discard,
            harvest: self.harvest_len,
            reserve: self.reserve_len,
            aside: self.aside_len,
            bonus_supply: self.bonus_supply,
            colour_claims: self.colour_claims,
            seats: self.seats[..self.n].iter().map(seat_frame).collect(),
        }
    }

    /// `action`, one of the pending options, in words.
    pub fn describe(&self, _comps: &Components, action: &Action) -> String {
        let seat = &self.seats[self.pending.seat().unwrap_or(0)];
        let tile = |slot: u8| self.display[slot as usize]
            .map_or("an empty slot".into(), |t| format!("the {} tile", colour(t.colour())));
        let space = |sp: u8| format!("space {} ({})", space_name(sp as usize),
                                     colour(Colour::from_index(seat.colour[sp as usize] as usize)));
        match *action {
            Action::Lay(id) => format!("lays the territory pieces (layout {id})"),
            Action::StartCastle(sp) => format!("puts the start castle on {}", space(sp)),
            Action::Token(kind) => format!("takes a {} token", bonus(kind)),
            Action::Draw => "draws 3 game cards".into(),
            Action::Take { slot, discard } => {
                let mut out = format!("takes {} from display slot {}", tile(slot), slot + 1);
                if discard != KEEP {
                    out += &format!(", discarding {} from storage {}",
                                    stored(seat.storage[discard as usize]), discard + 1);
                }
                out
            }
            Action::Sweep(c) => format!("sweeps the {} tiles from the display", colour(c)),
            Action::Place { item, space: sp } => format!(
                "places {} from storage {} on {}", stored(seat.storage[item as usize]), item + 1,
                space(sp)),
            Action::Pay(p) => match self.pending {
                Pending::Pay { space: sp, .. } => payment(p, seat.colour[sp as usize] as usize),
                _ => format!("{p:?}"),
            },
            Action::Free { slot, space: sp } => format!(
                "castle: places {} from display slot {} on {}, free", tile(slot), slot + 1,
                space(sp)),
            Action::Skip => "castle: takes no tile".into(),
            Action::EndTurn => match self.pending {
                Pending::Turn { stage: Stage::Main, .. } => "passes: no action is possible".into(),
                _ => "ends the turn".into(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::castles::state::CastlesConfig;
    use crate::rng::SeedSequence;

    #[test]
    fn a_frame_draws_each_board_once_its_pieces_are_laid() {
        let comps = Components::builtin();
        let (mut state, _) = CastlesState::new(&comps, &CastlesConfig { players: 2 },
                                               SeedSequence::new(5, &[]));
        let frame = state.frame();
        assert_eq!(frame.seats.len(), 2);
        assert!(frame.seats.iter().all(|s| s.board.is_empty()));
        assert_eq!(state.describe(&comps, &Action::Lay(7)), "lays the territory pieces (layout 7)");
        state.apply(&comps, Action::Lay(7));
        let board = &state.frame().seats[0].board;
        assert_eq!(board.len(), BOARD_SPACES);
        assert_eq!((board[0].name.as_str(), board[29].name.as_str()), ("A1", "C10"));
        let cells: std::collections::HashSet<_> = board.iter().map(|s| (s.col, s.row)).collect();
        assert_eq!(cells.len(), BOARD_SPACES, "no two spaces on one hex");
        let castles = board.iter().filter(|s| s.colour == Colour::Castle).count();
        assert!(castles >= 1);
    }

    #[test]
    fn every_option_of_whole_games_is_worded_in_the_rulebook_s_terms() {
        use crate::rng::Generator;

        let comps = Components::builtin();
        let mut kinds = std::collections::HashSet::new();
        let mut options = Vec::new();
        for seed in 0..6u64 {
            let config = CastlesConfig { players: 2 + (seed % 3) as usize };
            let (mut state, _) = CastlesState::new(&comps, &config, SeedSequence::new(9, &[seed]));
            let mut rng = Generator::new(&SeedSequence::new(u128::from(seed), &[1]));
            while state.to_move().is_some() {
                state.options(&comps, &mut options);
                for action in &options {
                    let words = state.describe(&comps, action);
                    assert!(!words.is_empty() && !words.contains('{') && !words.contains("nothing"),
                            "{action:?}: {words}");
                    kinds.insert(std::mem::discriminant(action));
                }
                let pick = options[rng.integers(options.len() as u64) as usize];
                state.apply(&comps, pick);
            }
            assert!(state.frame().seats.iter().all(|s| s.board.len() == BOARD_SPACES));
        }
        assert!(kinds.len() >= 9, "only {} kinds of option met", kinds.len());
    }

    #[test]
    fn a_payment_is_worded_from_the_space_colour() {
        let p = Payment { a: CARD, b: WORKER };
        assert_eq!(payment(p, Colour::City.index()), "pays a city card and a worker");
        let pair = Payment { a: super::super::actions::pair(Colour::Farm.index()), b: WORKER };
        assert_eq!(payment(pair, Colour::City.index()), "pays two farm cards and a worker");
    }
}
