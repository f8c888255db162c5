//! The one binding module (`cdsim._core`): converts at the boundary, releases the GIL
//! for the games, and maps errors to Python exceptions here and nowhere else.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::batch::{self, Chunk, StrategySpec};
use crate::games::registry::{self, AnyComponents, OneGame, Registered};
use crate::games::{ColumnType, Values};

/// A component set as the core holds it, of one registered game (`games::registry`; the
/// default `carpe-diem`), made once per process from the normalised JSON
/// (`cdsim.games.carpe_diem.handover.components_json` for Carpe Diem's validated Python `Components`).
#[pyclass(frozen, module = "cdsim._core")]
struct Components {
    game: &'static dyn Registered,
    set: AnyComponents,
}

#[pymethods]
impl Components {
    #[new]
    #[pyo3(signature = (json, game="carpe-diem"))]
    fn new(json: &str, game: &str) -> PyResult<Self> {
        let game = registry::game(game).map_err(PyValueError::new_err)?;
        let set = game.components(json).map_err(PyValueError::new_err)?;
        Ok(Components { game, set })
    }

    /// The name of the game these components are of.
    #[getter]
    fn game(&self) -> &'static str {
        self.game.name()
    }
}

/// A stop the driver hands to the chunks it plays in threads: once set, each ends before
/// its next game (a ValueError) instead of playing its chunk out.
#[pyclass(frozen, module = "cdsim._core")]
struct Stop {
    flag: Arc<AtomicBool>,
}

#[pymethods]
impl Stop {
    #[new]
    fn new() -> Self {
        Stop { flag: Arc::new(AtomicBool::new(false)) }
    }

    fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    #[getter]
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

/// Play games `games` (deals `setups`) of a run with seed `entropy`, of the components'
/// game; `lineups` holds `players` indices into `strategies` per game. Returns the rows as columns: a dict of
/// numpy arrays named as `SEAT_COLUMNS`, `GAME_COLUMNS` and `RUN_COLUMNS` (`strategy` as
/// indices into `strategies`), and each of the game's tables (`cards`: the card rows, the
/// text ones as indices, with the names they stand for: `objective_ids`, `fountain_ids`
/// by `kind`, and `outcomes`); with `uses`, the `uses` table too (`batch::Chunk::uses`:
/// each seat's uses of the components, `kind` and `id` indexing `kinds` and `ids`). A set
/// `stop` ends it early.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (components, players, start_vp, entropy, games, setups, lineups, strategies, check=false, stop=None, uses=false))]
fn play_chunk<'py>(
    py: Python<'py>,
    components: &Components,
    players: usize,
    start_vp: Vec<i32>,
    entropy: u64,
    games: PyReadonlyArray1<'py, i64>,
    setups: PyReadonlyArray1<'py, i64>,
    lineups: PyReadonlyArray1<'py, u8>,
    strategies: Vec<(String, Vec<(String, f64)>)>,
    check: bool,
    stop: Option<Bound<'py, Stop>>,
    uses: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let strategies: Vec<StrategySpec> = strategies
        .into_iter()
        .map(|(name, overrides)| StrategySpec { name, overrides })
        .collect();
    let (games, setups, lineups) = (games.as_slice()?, setups.as_slice()?, lineups.as_slice()?);
    let flag = stop.map(|s| Arc::clone(&s.get().flag));
    let chunk = Chunk { players, start_vp: &start_vp, check, entropy: u128::from(entropy), games,
                        setups, lineups, strategies: &strategies, stop: flag.as_deref(), uses };
    let (game, set) = (components.game, &*components.set);
    let columns = py.detach(|| game.play_chunk(set, &chunk)).map_err(PyValueError::new_err)?;
    let out = columns_dict(py, columns.columns)?;
    for (name, table) in columns.tables {
        let dict = columns_dict(py, table.columns)?;
        for (label, names) in table.labels {
            dict.set_item(label, names)?;
        }
        out.set_item(name, dict)?;
    }
    Ok(out)
}

/// Play one game of the components' game and record it for a replay
/// (`games::replay::Replay` as JSON text: per decision the seat, the decision kind, the
/// option chosen in words and the state it was taken in; the state at the end; each
/// seat's final row, `game_columns` order). `setup` None deals from the seed alone;
/// `lineup` is (name, overrides) by seat, as `play_chunk`'s strategies.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (components, players, start_vp, entropy, setup, lineup, check=false))]
fn play_game(
    py: Python<'_>,
    components: &Components,
    players: usize,
    start_vp: Vec<i32>,
    entropy: u64,
    setup: Option<u64>,
    lineup: Vec<(String, Vec<(String, f64)>)>,
    check: bool,
) -> PyResult<String> {
    let lineup: Vec<StrategySpec> = lineup
        .into_iter()
        .map(|(name, overrides)| StrategySpec { name, overrides })
        .collect();
    let one = OneGame { players, start_vp: &start_vp, entropy, setup, lineup: &lineup, check };
    let (game, set) = (components.game, &*components.set);
    py.detach(|| game.replay(set, &one)).map_err(PyValueError::new_err)
}

/// Search labels for the learned player of the components' game (`Registered::labels`,
/// players/fitted/labels.rs): games `games` of `players` seats dealt from `entropy`, self-play
/// by the learned player with the weights file text `weights` (None: VP gained alone),
/// a decision labelled with chance 1 / `every`, each shortlisted option's position valued
/// by `playouts` simulations of the game's mcts. A dict: `names` (the inputs), `phases`
/// (of the weights), `game`,
/// `group`, `phase` (one a row), `label` and `gained` (rows x players, seats from the
/// deciding one on), `inputs` (rows x players x inputs).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (components, players, entropy, games, every, playouts, explore, weights=None))]
fn search_labels<'py>(
    py: Python<'py>,
    components: &Components,
    players: usize,
    entropy: u64,
    games: Vec<u64>,
    every: u64,
    playouts: u32,
    explore: f64,
    weights: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    use crate::players::fitted::{labels::LabelSpec, FittedParams};
    let params = FittedParams::default().with_overrides(&[("explore", explore)])
        .map_err(PyValueError::new_err)?;
    let spec = LabelSpec { players, entropy, games, every, playouts, player: params };
    let (game, set) = (components.game, &*components.set);
    let rows = py.detach(|| game.labels(set, &spec, weights.as_deref()))
        .map_err(PyValueError::new_err)?;
    let r = rows.group.len();
    let out = PyDict::new(py);
    out.set_item("names", rows.names.to_vec())?;
    out.set_item("phases", rows.phases)?;
    out.set_item("game", rows.game.into_pyarray(py))?;
    out.set_item("group", rows.group.into_pyarray(py))?;
    out.set_item("phase", rows.phase.into_pyarray(py))?;
    out.set_item("label", rows.label.into_pyarray(py).reshape([r, players])?)?;
    out.set_item("gained", rows.gained.into_pyarray(py).reshape([r, players])?)?;
    out.set_item("inputs", rows.inputs.into_pyarray(py).reshape([r, players, rows.width])?)?;
    Ok(out)
}

/// Columns as a dict of numpy arrays by name.
fn columns_dict<'py>(py: Python<'py>, columns: Vec<(&'static str, Values)>)
    -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (name, values) in columns {
        match values {
            Values::Int(v) => out.set_item(name, v.into_pyarray(py))?,
            Values::Bool(v) => out.set_item(name, v.into_pyarray(py))?,
            Values::Index(v) => out.set_item(name, v.into_pyarray(py))?,
        }
    }
    Ok(out)
}

mod carpe_diem;
mod table;

/// Columns of the run rows or card rows as Python reads them: `(name, "int" | "str" |
/// "bool")` each, in order (`cdsim.games.carpe_diem.rules.records` is held to the seat row's and the card
/// row's).
fn python_columns<'py>(py: Python<'py>, columns: &[(&'static str, ColumnType)])
    -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, columns.iter().map(|&(name, kind)| (name, kind.python())))
}

/// The built-in component set of the game `game` as the JSON `Components(json, game=...)`
/// reads, or None when the core holds none (Carpe Diem's comes from `cdsim.games.carpe_diem.rules`).
#[pyfunction]
fn builtin_components(game: &str) -> PyResult<Option<String>> {
    Ok(registry::game(game).map_err(PyValueError::new_err)?.builtin_components())
}

/// The seat row's columns of the game `game` (`Outcome::columns`, as `(name, type)`
/// pairs like `SEAT_COLUMNS`) and its VP sources (`Outcome::BREAKDOWN`, each a
/// `vp_<source>` column).
#[pyfunction]
fn game_columns<'py>(py: Python<'py>, game: &str)
    -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
    let game = registry::game(game).map_err(PyValueError::new_err)?;
    Ok((python_columns(py, &game.columns())?, PyTuple::new(py, game.breakdown())?))
}

/// The built-in players of the game `game`, as its registry entry lists them
/// (`Registered::player_names`: the names its `make` makes; none for Carpe Diem, whose
/// players `cdsim.players` names).
#[pyfunction]
fn game_players(game: &str) -> PyResult<Vec<&'static str>> {
    Ok(registry::game(game).map_err(PyValueError::new_err)?.player_names())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Components>()?;
    m.add_class::<Stop>()?;
    m.add_function(wrap_pyfunction!(play_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(play_game, m)?)?;
    m.add_function(wrap_pyfunction!(search_labels, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_components, m)?)?;
    m.add_function(wrap_pyfunction!(game_columns, m)?)?;
    m.add_function(wrap_pyfunction!(game_players, m)?)?;
    let py = m.py();
    m.add("RUN_COLUMNS", python_columns(py, &batch::RUN_COLUMNS)?)?;
    // the seat-row columns every game writes (`games::rows::shared`), each game's around its own
    m.add("SHARED_COLUMNS", python_columns(py, &crate::games::rows::shared())?)?;
    m.add("GAMES", PyTuple::new(py, registry::names())?)?;
    table::register(m)?;
    carpe_diem::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
