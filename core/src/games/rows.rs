//! The vocabulary of the rows a game writes, shared by every game: a column's type, one
//! value of a row, a chunk's columns, and the seat-row columns every game writes (`SHARED`:
//! seat, strategy, start and final VP, rank, won, seed, players, tie-break), declared once
//! here; a game adds only its own (`Own`: its VP sources and its other columns, before the
//! rank and after `won`) and writes its rows through `SeatRow`. The batch runner
//! (`crate::batch`) only fills them.

/// The type of a row's column, as the run's Parquet holds it (Python's `int`, `str`,
/// `bool`: polars Int64, String, Boolean).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    Int,
    Text,
    Bool,
}

impl ColumnType {
    /// The Python type of the column (the binding hands a game's columns to Python as
    /// `(name, type)` pairs).
    pub const fn python(self) -> &'static str {
        match self {
            ColumnType::Int => "int",
            ColumnType::Text => "str",
            ColumnType::Bool => "bool",
        }
    }
}

use ColumnType::{Bool, Int, Text};

/// What every seat row begins with: the seat (0 first), its strategy (the row's one text
/// column) and its starting VP.
pub const LEAD: [(&str, ColumnType); 3] = [("seat", Int), ("strategy", Text), ("start_vp", Int)];
/// After the game's VP by source (`vp_<source>`, `Outcome::BREAKDOWN` order): their sum.
pub const FINAL_VP: (&str, ColumnType) = ("final_vp", Int);
/// The seat's place (1 = the winner, unique after the game's tie-break) and whether it won.
pub const PLACE: [(&str, ColumnType); 2] = [("rank", Int), ("won", Bool)];
/// What every seat row ends with: the game's seed, its player count and whether the
/// game's tie-break decided the winner (a run's rows then add `batch::RUN_COLUMNS`).
pub const TAIL: [(&str, ColumnType); 3] =
    [("seed", Int), ("players", Int), ("tiebreak", Bool)];

/// The columns every game's seat row holds, in their order (the binding hands them to
/// Python as `SHARED_COLUMNS`).
pub fn shared() -> Vec<(&'static str, ColumnType)> {
    LEAD.iter().chain([&FINAL_VP]).chain(&PLACE).chain(&TAIL).copied().collect()
}

/// A game's own columns and where they stand among the shared: its `vp_<source>` columns
/// after `LEAD`, its own after `final_vp` (`before_place`) and after `won` (`after_place`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Own {
    pub vp: &'static [&'static str],
    pub before_place: &'static [(&'static str, ColumnType)],
    pub after_place: &'static [(&'static str, ColumnType)],
}

impl Own {
    /// The whole seat row's columns, in order: the shared ones around the game's own
    /// (`Outcome::columns`).
    pub fn columns(&self) -> Vec<(&'static str, ColumnType)> {
        let vp = self.vp.iter().map(|&name| (name, Int));
        LEAD.iter().copied().chain(vp).chain([FINAL_VP]).chain(self.before_place.iter().copied())
            .chain(PLACE).chain(self.after_place.iter().copied()).chain(TAIL).collect()
    }

}

/// A seat row's `columns` split into the game's own, `Own`'s three parts (its VP sources,
/// before the place, after it), or what is out of place: every shared column once, at its
/// place (a test holds every registered game to this).
pub type Split = [Vec<(&'static str, ColumnType)>; 3];

pub fn split(columns: &[(&'static str, ColumnType)]) -> Result<Split, String> {
    let at = |column: (&str, ColumnType)| columns.iter().position(|&c| c == column)
        .ok_or_else(|| format!("no column {:?} of type {:?}", column.0, column.1));
    let (final_vp, rank) = (at(FINAL_VP)?, at(PLACE[0])?);
    let shared = shared();
    let count = |name: &str| columns.iter().filter(|&&(c, _)| c == name).count();
    if columns.len() < shared.len() || columns[..LEAD.len()] != LEAD
        || !(LEAD.len() <= final_vp && final_vp < rank) || rank + PLACE.len() > columns.len()
        || columns[rank..rank + PLACE.len()] != PLACE
        || columns[columns.len() - TAIL.len()..] != TAIL
        || shared.iter().any(|&(name, _)| count(name) != 1) {
        return Err(format!("the shared columns are not each once at their place in {columns:?}"));
    }
    let vp = &columns[LEAD.len()..final_vp];
    if let Some(other) = vp.iter().find(|&&(name, kind)| !name.starts_with("vp_") || kind != Int) {
        return Err(format!("{:?} stands among the VP sources", other.0));
    }
    Ok([vp.to_vec(), columns[final_vp + 1..rank].to_vec(),
        columns[rank + PLACE.len()..columns.len() - TAIL.len()].to_vec()])
}

/// What every game's seat row says of a seat, written around the game's own values in
/// `Own::columns`' order (`won` is `rank == 1`).
#[derive(Clone, Copy, Debug)]
pub struct SeatRow {
    pub seat: usize,
    pub strategy: &'static str,
    pub start_vp: i64,
    pub final_vp: i64,
    pub rank: usize,
    pub seed: i64,
    pub players: usize,
    pub tiebreak: bool,
}

impl SeatRow {
    /// The row onto `out`: the shared values, the seat's VP by source (`vp`), its own
    /// values before the place (`before`) and after it (`after`).
    pub fn write(&self, out: &mut Vec<SeatValue>, vp: impl IntoIterator<Item = i64>,
                 before: impl IntoIterator<Item = SeatValue>,
                 after: impl IntoIterator<Item = SeatValue>) {
        out.extend([SeatValue::Int(self.seat as i64), self.strategy.into(), self.start_vp.into()]);
        out.extend(vp.into_iter().map(SeatValue::Int));
        out.push(SeatValue::Int(self.final_vp));
        out.extend(before);
        out.extend([SeatValue::Int(self.rank as i64), (self.rank == 1).into()]);
        out.extend(after);
        out.extend([SeatValue::Int(self.seed), SeatValue::Int(self.players as i64),
                    SeatValue::Bool(self.tiebreak)]);
    }
}

/// One value of a seat row, of its column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatValue {
    Int(i64),
    Text(&'static str),
    Bool(bool),
}

impl From<i64> for SeatValue {
    fn from(v: i64) -> Self {
        SeatValue::Int(v)
    }
}

impl From<&'static str> for SeatValue {
    fn from(v: &'static str) -> Self {
        SeatValue::Text(v)
    }
}

impl From<bool> for SeatValue {
    fn from(v: bool) -> Self {
        SeatValue::Bool(v)
    }
}

impl From<SeatValue> for serde_json::Value {
    fn from(v: SeatValue) -> Self {
        match v {
            SeatValue::Int(v) => v.into(),
            SeatValue::Text(v) => v.into(),
            SeatValue::Bool(v) => v.into(),
        }
    }
}

/// One column of a chunk's rows: integers, booleans, or a text column carried as
/// indices into a list of names (the seat rows' strategies; a table's `labels`).
#[derive(Debug, PartialEq, Eq)]
pub enum Values {
    Int(Vec<i64>),
    Bool(Vec<bool>),
    Index(Vec<u8>),
}

impl From<Vec<i64>> for Values {
    fn from(v: Vec<i64>) -> Self {
        Values::Int(v)
    }
}

impl From<Vec<u8>> for Values {
    fn from(v: Vec<u8>) -> Self {
        Values::Index(v)
    }
}

/// A table a game's chunk writes beside its seat rows (a card table, say): the
/// columns by name, and the names its index columns stand for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub columns: Vec<(&'static str, Values)>,
    pub labels: Vec<(&'static str, Vec<String>)>,
}

/// One seat's use of one component in a game (`Outcome::uses`): the component's table as
/// a change names it (`part`, `villa_table`, `cards`), its id there (`3`, a chimney count,
/// `farm`) and how many times the seat used it (above 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Use {
    pub kind: &'static str,
    pub id: String,
    pub count: i64,
}
