//! What one finished game writes: one row per seat (the log schema, declared once by
//! `seat_row!` below) and one per card a seat took, drew or kept (the card table, declared
//! once by `card_row!`); `cdsim/games/carpe_diem/rules/records.py` is held to both by a test. The seed is
//! the caller's: the binding adds it to each row.

use serde::Serialize;

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::GameState;
pub use crate::games::rows::{ColumnType, SeatValue, Values};

/// The Rust type of a column of `ColumnType` `$kind`.
macro_rules! seat_type {
    (Int) => { i64 };
    (Text) => { &'static str };
    (Bool) => { bool };
}

/// The seat row declared once: each column's name and type, in the order of the run's
/// Parquet, make the struct `SeatRecord`, its columns `SEAT_COLUMNS` and its row
/// `SeatRecord::values` (batch.rs writes runs from these; python/mod.rs hands the columns to
/// `cdsim.games.carpe_diem.rules.records`, whose oracle record a test holds to them).
macro_rules! seat_row {
    ($($(#[$doc:meta])* $name:ident: $kind:ident,)*) => {
        /// One seat of one game. `final_vp` is the sum of the seven `vp_*` sources.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
        pub struct SeatRecord {
            $($(#[$doc])* pub $name: seat_type!($kind),)*
        }

        /// The seat row's columns, in order: name and type.
        pub const SEAT_COLUMNS: &[(&str, ColumnType)] = &[$((stringify!($name), ColumnType::$kind),)*];

        impl SeatRecord {
            /// The row's values, in `SEAT_COLUMNS` order.
            pub fn values(&self) -> [SeatValue; SEAT_COLUMNS.len()] {
                [$(SeatValue::from(self.$name),)*]
            }
        }
    };
}

seat_row! {
    seat: Int,
    strategy: Text,
    start_vp: Int,
    vp_start: Int,
    /// Objective cards, including -4 for each failed card (R8.5).
    vp_cards: Int,
    /// R10.1
    vp_villas: Int,
    /// R10.2
    vp_leftovers: Int,
    /// R10.3 plus overflow steps (R6.6).
    vp_scroll: Int,
    /// R10.4
    vp_fountains: Int,
    /// R10.5
    vp_frame: Int,
    final_vp: Int,
    failed_cards: Int,
    /// Scroll-track space at the end.
    scroll: Int,
    /// Height in the stack on that space, 0 = bottom (R10.6 tie-break).
    stack: Int,
    /// 1 = winner; unique after the tie-break.
    rank: Int,
    won: Bool,
    /// start + cards + overflow after each scoring phase.
    vp_phase1: Int,
    vp_phase2: Int,
    vp_phase3: Int,
    vp_phase4: Int,
    tiles_taken: Int,
    tiles_built: Int,
    tiles_stored: Int,
    /// Complete villas.
    villas: Int,
    /// Chimneys in all villas, complete or not.
    chimneys: Int,
    /// Chimneys in complete villas.
    villa_chimneys: Int,
    landscapes: Int,
    merchants: Int,
    bakers: Int,
    administrators: Int,
    artisans: Int,
    markets: Int,
    bakeries: Int,
    fountains: Int,
    fountain_cards: Int,
    bread_moves: Int,
    artisan_lost: Int,
    leftover_items: Int,
}

/// The columns every game's seat row ends with (`games::rows::TAIL`: seed, players,
/// tie-break), after `SEAT_COLUMNS` (`GameRecord::rows_json`; a run's rows then add the
/// runner's `game` and `setup`: batch.rs). `SEAT_COLUMNS` holds the other shared columns at
/// their places (`games::rows::split`; a test of the registry holds every game to it).
pub const GAME_COLUMNS: [(&str, ColumnType); 3] = crate::games::rows::TAIL;

pub const BREAKDOWN: [&str; 7] = [
    "start",
    "cards",
    "villas",
    "leftovers",
    "scroll",
    "fountains",
    "frame",
];

impl SeatRecord {
    /// The seven VP sources (BREAKDOWN order).
    pub fn breakdown(&self) -> [i64; 7] {
        [
            self.vp_start,
            self.vp_cards,
            self.vp_villas,
            self.vp_leftovers,
            self.vp_scroll,
            self.vp_fountains,
            self.vp_frame,
        ]
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    pub players: usize,
    pub seats: Vec<SeatRecord>,
    /// The winner was decided by the scroll-track tie-break (R10.6).
    pub tiebreak: bool,
    /// What happened to each card, seat by seat (the card table).
    pub cards: Vec<CardRecord>,
    /// What each seat used of the frame parts and the villa table, seat by seat (a run's
    /// `uses` rows, `Outcome::uses`; not part of the record's JSON).
    #[serde(skip)]
    pub uses: Vec<SeatUses>,
}

/// One seat's uses: its four frame parts (R2.1) as (id, goals of it scored, R10.5), the
/// chimney count of each of its complete villas (the villa table's row it scored at,
/// R10.1), its final scroll-track space (scored at R10.3), its district board's id and
/// its district (shared, not copied), whose tiles `rows` names by shape only when asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatUses {
    pub parts: [(i64, i64); 4],
    pub villas: Vec<u16>,
    pub scroll: u8,
    pub board: i64,
    pub district: Option<std::sync::Arc<crate::carpe_diem::district::District>>,
}

/// A tile's shape as the use rows name it (`tile_shape`): its edge kinds in the rotation
/// that reads least (so every rotation of it, and a tile of either deck drawn alike, is one
/// shape), its chimneys and its building, "0001-2-0" (`cdsim.games.carpe_diem.uses`
/// names a tile's shape the same way).
pub fn tile_shape(edges: &[u8; 4], chimneys: u8, building: u8) -> String {
    let least = (0..4).map(|r| [edges[r], edges[(r + 1) % 4], edges[(r + 2) % 4],
                                edges[(r + 3) % 4]]).min().expect("four rotations");
    let kinds: String = least.iter().map(|k| char::from(b'0' + k)).collect();
    format!("{kinds}-{chimneys}-{building}")
}

impl SeatUses {
    /// The seat's uses as rows: each frame part with a goal scored (`part`, its id), each
    /// villa-table row scored at (`villa_table`, the chimney count), with how many times.
    pub fn rows(&self, out: &mut Vec<crate::games::Use>) {
        use crate::games::Use;
        for &(id, scored) in &self.parts {
            if scored > 0 {
                out.push(Use { kind: "part", id: id.to_string(), count: scored });
            }
        }
        out.push(Use { kind: "scroll_track", id: self.scroll.to_string(), count: 1 });
        out.push(Use { kind: "board", id: self.board.to_string(), count: 1 });
        if let Some(d) = &self.district {
            let mut shapes: Vec<String> = d.history().iter().map(|&c| {
                let c = c as usize;
                tile_shape(&d.edges[c], d.chimneys_at[c], d.building_at[c])
            }).collect();
            shapes.sort_unstable();
            for (i, shape) in shapes.iter().enumerate() {
                if i == 0 || shapes[i - 1] != *shape {
                    let count = shapes[i..].iter().take_while(|&s| s == shape).count() as i64;
                    out.push(Use { kind: "tile_shape", id: shape.clone(), count });
                }
            }
        }
        let mut chimneys = self.villas.clone();
        chimneys.sort_unstable();
        for (i, &c) in chimneys.iter().enumerate() {
            if i == 0 || chimneys[i - 1] != c {
                let count = chimneys[i..].iter().take_while(|&&d| d == c).count() as i64;
                out.push(Use { kind: "villa_table", id: c.to_string(), count });
            }
        }
    }
}

/// Which deck a card row is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CardKind {
    Objective,
    Fountain,
}

/// What happened to the card: an objective card a seat took is fulfilled or failed
/// (R8.4-R8.5); a fountain card is drawn (R6.5) and, if held at the end, kept (R10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CardOutcome {
    Fulfilled,
    Failed,
    Drawn,
    Kept,
}

impl From<CardKind> for u8 {
    fn from(kind: CardKind) -> Self {
        kind as u8
    }
}

impl From<CardOutcome> for u8 {
    fn from(outcome: CardOutcome) -> Self {
        outcome as u8
    }
}

/// The card row declared once: each field's name, its type in `CardRecord`, the type of
/// its column in the card table (`ColumnType`) and what a chunk carries it as, in the
/// order of the run's card Parquet, make the struct `CardRecord`, its columns
/// `CARD_COLUMNS` and a chunk's columns `CardColumns` (the runner's `game`, then these;
/// python/mod.rs hands both to `cdsim`, whose `CardRow` a test holds to them).
macro_rules! card_row {
    ($($(#[$doc:meta])* $name:ident: $ty:ty => $kind:ident($carried:ty),)*) => {
        /// One row of the card table: a seat, a card (index into its deck of the game's
        /// `Components`), what happened, in which phase (1-4; 0 = final scoring) and the
        /// VP it brought. Rows of one seat sum to its `vp_cards` + `vp_fountains`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
        pub struct CardRecord {
            $($(#[$doc])* pub $name: $ty,)*
        }

        /// The card row's columns, in order: name and type (the table's: `kind`, `card`
        /// and `outcome` are text there, words and card ids).
        pub const CARD_COLUMNS: &[(&str, ColumnType)] =
            &[$((stringify!($name), ColumnType::$kind),)*];

        /// The card rows of a chunk as columns (`batch::play_chunk`): the game, then
        /// `CARD_COLUMNS`, a text column as indices: `kind` 0 = objective, 1 = fountain;
        /// `card` indexes that deck; `outcome` indexes `CARD_OUTCOMES`.
        #[derive(Default, Debug)]
        pub struct CardColumns {
            pub game: Vec<i64>,
            $(pub $name: Vec<$carried>,)*
        }

        impl CardColumns {
            pub fn push(&mut self, game: i64, cards: &[CardRecord]) {
                for c in cards {
                    self.game.push(game);
                    $(self.$name.push(<$carried>::from(c.$name));)*
                }
            }

            /// The columns by name: `game`, then `CARD_COLUMNS`.
            pub fn into_columns(self) -> Vec<(&'static str, Values)> {
                vec![("game", self.game.into()), $((stringify!($name), self.$name.into()),)*]
            }
        }
    };
}

card_row! {
    /// Counted from 0, as in the seat rows.
    seat: u8 => Int(i64),
    kind: CardKind => Text(u8),
    /// Its index into its deck (its id in the table).
    card: u8 => Text(u8),
    outcome: CardOutcome => Text(u8),
    /// 1-4: the scoring phase (objective) or the phase drawn in; 0: final scoring.
    phase: u8 => Int(i64),
    /// Times fulfilled (R8.4); 0 for fountain cards.
    multiples: i32 => Int(i64),
    /// The VP it brought: -4 for a failed card (R8.5), R10.4 for a kept one.
    vp: i32 => Int(i64),
}

impl CardRecord {
    /// The card's id in `comps`.
    pub fn card_id<'a>(&self, comps: &'a Components) -> &'a str {
        match self.kind {
            CardKind::Objective => &comps.objectives[self.card as usize].id,
            CardKind::Fountain => &comps.fountains[self.card as usize].id,
        }
    }

    /// As JSON, the card named by its id (`State.record()`).
    pub fn to_json(&self, comps: &Components) -> serde_json::Value {
        let mut row = serde_json::to_value(self).expect("a card row serializes");
        row["card"] = self.card_id(comps).into();
        row
    }
}

/// The card rows of a finished game, seat by seat: objective cards in the order they
/// were resolved, then fountain cards drawn (by phase, then card), then those kept.
pub fn card_records(state: &GameState, comps: &Components) -> Vec<CardRecord> {
    let mut out = Vec::with_capacity(state.n * 12);
    for (s, p) in state.players[..state.n].iter().enumerate() {
        let seat = s as u8;
        for t in p.cards_taken() {
            let outcome = if t.failed { CardOutcome::Failed } else { CardOutcome::Fulfilled };
            out.push(CardRecord { seat, kind: CardKind::Objective, card: t.card, outcome,
                                  phase: t.phase + 1, multiples: t.multiples, vp: t.vp });
        }
        for (phase, counts) in p.fountain_draws.iter().enumerate() {
            for (card, &times) in counts.iter().enumerate() {
                for _ in 0..times {
                    out.push(CardRecord { seat, kind: CardKind::Fountain, card: card as u8,
                                          outcome: CardOutcome::Drawn, phase: phase as u8 + 1,
                                          multiples: 0, vp: 0 });
                }
            }
        }
        for &f in p.fountain_cards.as_slice() {
            let card = &comps.fountains[f as usize];
            let vp = card.vp * p.district.complete_count[card.goal as usize]; // R10.4
            out.push(CardRecord { seat, kind: CardKind::Fountain, card: f,
                                  outcome: CardOutcome::Kept, phase: 0, multiples: 0, vp });
        }
    }
    out
}

impl GameRecord {
    pub fn winner(&self) -> usize {
        self.seats
            .iter()
            .position(|s| s.won)
            .expect("a game has a winner")
    }

    /// The values of `GAME_COLUMNS` for this game played from `seed`.
    pub fn game_values(&self, seed: i64) -> [SeatValue; GAME_COLUMNS.len()] {
        [seed.into(), (self.players as i64).into(), self.tiebreak.into()]
    }

    /// The rows as Python's `GameRecord.rows()` gives them (with this seed), as JSON
    /// objects: the seat columns, then the game's.
    pub fn rows_json(&self, seed: i64) -> Vec<serde_json::Value> {
        let names = SEAT_COLUMNS.iter().chain(&GAME_COLUMNS).map(|&(name, _)| name.to_owned());
        self.seats
            .iter()
            .map(|s| {
                let values = s.values().into_iter().chain(self.game_values(seed));
                names.clone().zip(values.map(serde_json::Value::from)).collect()
            })
            .collect()
    }
}

/// The names `CardColumns::outcome` indexes, in `CardOutcome` order.
pub const CARD_OUTCOMES: [&str; 4] = ["fulfilled", "failed", "drawn", "kept"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carpe_diem::game::GameConfig;
    use crate::play::play_game;
    use crate::carpe_diem::players::make;
    use crate::rng::SeedSequence;

    #[test]
    fn a_seats_card_rows_add_up_to_its_card_and_fountain_vp() {
        let comps = crate::carpe_diem::components::fixture();
        for n in 2..=4 {
            for seed in 0..4u64 {
                let mut players: Vec<_> = ["greedy", "bread", "villa", "random"][..n].iter()
                    .map(|name| make(name, &[]).unwrap()).collect();
                let record = play_game(&comps, &GameConfig::new(n), &mut players,
                                       SeedSequence::new(u128::from(seed), &[seed]));
                for s in &record.seats {
                    let rows: Vec<_> =
                        record.cards.iter().filter(|c| i64::from(c.seat) == s.seat).collect();
                    let sum = |keep: &dyn Fn(&CardRecord) -> bool| -> i64 {
                        rows.iter().filter(|c| keep(c)).map(|c| i64::from(c.vp)).sum()
                    };
                    assert_eq!(sum(&|c| c.kind == CardKind::Objective), s.vp_cards);
                    assert_eq!(sum(&|c| c.outcome == CardOutcome::Kept), s.vp_fountains);
                    let failed = rows.iter().filter(|c| c.outcome == CardOutcome::Failed).count();
                    assert_eq!(failed as i64, s.failed_cards);
                }
            }
        }
    }

    #[test]
    fn a_seats_uses_add_up_to_its_villas_and_frame_vp() {
        use crate::games::{Outcome, Use};
        let comps = crate::carpe_diem::components::fixture();
        let (mut parts, mut villas) = (0, 0);
        for n in 2..=4 {
            for seed in 0..4u64 {
                let mut players: Vec<_> = ["villa", "greedy", "bread", "random"][..n].iter()
                    .map(|name| make(name, &[]).unwrap()).collect();
                let record = play_game(&comps, &GameConfig::new(n), &mut players,
                                       SeedSequence::new(u128::from(seed), &[seed]));
                for (seat, s) in record.seats.iter().enumerate() {
                    let mut uses: Vec<Use> = Vec::new();
                    record.uses(seat, &mut uses);
                    let of = |kind| uses.iter().filter(move |u| u.kind == kind);
                    // a villa-table row: complete villas at that chimney count (R10.1)
                    assert_eq!(of("villa_table").map(|u| u.count).sum::<i64>(), s.villas);
                    let paid: i64 = of("villa_table").map(|u| u.count * i64::from(
                        comps.villa_points(u.id.parse().unwrap()))).sum();
                    assert_eq!(paid, s.vp_villas);
                    // a frame part: goals of it scored, each worth its goal's VP (R10.5)
                    let (mut low, mut high) = (0, 0);
                    for u in of("part") {
                        let part = &comps.frame_parts[comps.frame_part(u.id.parse().unwrap())
                            .expect("one of the set's parts")];
                        assert!(u.count >= 1 && u.count <= part.goals.len() as i64);
                        let vp = part.goals.iter().map(|g| i64::from(g.vp));
                        low += u.count * vp.clone().min().unwrap();
                        high += u.count * vp.max().unwrap();
                    }
                    assert!(low <= s.vp_frame && s.vp_frame <= high, "{low} {} {high}",
                            s.vp_frame);
                    // the scroll track: one row, the final space whose points it scored
                    // (R10.3; steps past the last space add to them, R6.6)
                    let scroll: Vec<_> = of("scroll_track").collect();
                    assert_eq!((scroll.len(), scroll[0].id.parse::<i64>().unwrap()),
                               (1, s.scroll));
                    assert!(i64::from(comps.scroll_points[s.scroll as usize]) <= s.vp_scroll);
                    // the board it played on: one of the set's
                    let board: Vec<_> = of("board").collect();
                    assert_eq!(board.len(), 1);
                    assert!(comps.boards.iter().any(|b| b.id.to_string() == board[0].id));
                    // each tile it placed, by a shape some tile of the set has
                    let placed: i64 = of("tile_shape").map(|u| u.count).sum();
                    assert_eq!(placed, s.tiles_built, "seat {seat}");
                    assert!(of("tile_shape").all(|u| comps.tile_types.iter().any(|t|
                        super::tile_shape(&t.edges, t.chimneys, t.building) == u.id)));
                    parts += of("part").count();
                    villas += of("villa_table").count();
                }
            }
        }
        assert!(parts > 0 && villas > 0, "some games score frame parts and villas");
    }

    #[test]
    fn a_chunk_carries_the_card_rows_columns_and_the_text_ones_as_indices() {
        let row = CardRecord { seat: 2, kind: CardKind::Fountain, card: 5,
                               outcome: CardOutcome::Kept, phase: 0, multiples: 0, vp: 3 };
        let mut chunk = CardColumns::default();
        chunk.push(9, &[row]);
        let columns = chunk.into_columns();
        let names: Vec<_> = columns.iter().map(|&(name, _)| name).collect();
        let declared: Vec<_> = CARD_COLUMNS.iter().map(|&(name, _)| name).collect();
        assert_eq!(names, [&["game"][..], &declared].concat());
        for (&(name, kind), (_, values)) in CARD_COLUMNS.iter().zip(&columns[1..]) {
            assert_eq!(matches!(values, Values::Index(_)), kind == ColumnType::Text, "{name}");
        }
        assert_eq!(columns[0].1, Values::Int(vec![9]));
        assert_eq!(columns[2].1, Values::Index(vec![1]));
        // `outcome` indexes CARD_OUTCOMES: the outcomes' names, in order
        let outcomes = [CardOutcome::Fulfilled, CardOutcome::Failed, CardOutcome::Drawn,
                        CardOutcome::Kept];
        for (outcome, name) in outcomes.into_iter().zip(CARD_OUTCOMES) {
            assert_eq!(CARD_OUTCOMES[u8::from(outcome) as usize], name);
            assert_eq!(serde_json::to_value(outcome).unwrap(), name);
        }
    }
}
