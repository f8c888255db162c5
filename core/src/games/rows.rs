//! The vocabulary of the rows a game writes, shared by every game: a column's type, one
//! value of a row, and a chunk's columns. Which columns a game's rows have is the game's
//! own (`Outcome::columns`, `Game::Tables`); the batch runner (`crate::batch`) only
//! fills them.

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
