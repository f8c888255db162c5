//! The one binding module (`cdsim._core`): converts at the boundary, releases the GIL
//! for the games, and maps errors to Python exceptions here and nowhere else.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;
use pyo3::types::{PyDict, PyTuple};
use serde_json::{json, Value};

use crate::batch::{self, Chunk, StrategySpec};
use crate::carpe_diem::checking;
use crate::carpe_diem::components;
use crate::games::registry::{self, AnyComponents, OneGame, Registered};
use crate::games::Values;
use crate::carpe_diem::records;
use crate::carpe_diem::game::{Action, EventLog, GameConfig, GameState, Options, Pending, NONE};
use crate::play::ask;
use crate::carpe_diem::players::{self, features, learned, Player};
use crate::rng::{Generator, SeedSequence};
use crate::carpe_diem::scoring;

/// A component set as the core holds it, of one registered game (`games::registry`; the
/// default `carpe-diem`), made once per process from the normalised JSON
/// (`cdsim.handover.components_json` for Carpe Diem's validated Python `Components`).
#[pyclass(frozen, module = "cdsim._core")]
struct Components {
    game: &'static dyn Registered,
    set: AnyComponents,
}

impl Components {
    /// Carpe Diem's component set (`State`, the luck measure), or a ValueError naming
    /// the game these are of.
    fn carpe_diem(&self) -> PyResult<Arc<components::Components>> {
        Arc::clone(&self.set).downcast().map_err(|_| PyValueError::new_err(format!(
            "these components are {}'s: only carpe-diem plays here", self.game.name())))
    }
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

mod state;

use state::{Bot, State};

/// Load a learned player's weights (the JSON text of a weights file) into this process;
/// returns the number `learned.weights` takes to play with them. A file this core cannot
/// read is a ValueError naming the problem.
#[pyfunction]
fn learned_weights(text: &str) -> PyResult<usize> {
    learned::register(text).map_err(PyValueError::new_err)
}

/// Hand the core the scripted profiles of a profiles file's text (`players::profile`):
/// built-in names find them from now on in this process. Returns their names in order;
/// a faulty file is a ValueError naming its table.
#[pyfunction]
fn scripted_profiles(text: &str) -> PyResult<Vec<&'static str>> {
    crate::carpe_diem::players::profile::register(text).map_err(PyValueError::new_err)
}

/// Luck measured as games are played (`crate::carpe_diem::luck`, scripts/luck.py): the deals
/// `setups` of the run `entropy` with `lineup` (name, overrides) by seat, each chance
/// step against `copies` copies drawn from `luck_entropy`, for each win-predictor scale
/// in `betas`, positions valued after their phase played out when `lookahead`, by the
/// learned evaluator of `weights` (`learned_weights`' number; 0: the built-in). Returns
/// `won` and `final_vp` (games x seats), `luck` (games x seats x betas x kinds, flat),
/// `kinds`, and per game `chance_steps` and `valuations`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (components, players, start_vp, entropy, setups, lineup, copies, betas,
                    luck_entropy, lookahead=false, weights=0))]
fn measure_luck<'py>(
    py: Python<'py>,
    components: &Components,
    players: usize,
    start_vp: Vec<i32>,
    entropy: u64,
    setups: Vec<u64>,
    lineup: Vec<(String, Vec<(String, f64)>)>,
    copies: usize,
    betas: Vec<f64>,
    luck_entropy: u64,
    lookahead: bool,
    weights: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if !(2..=4).contains(&players) || start_vp.len() != players {
        return Err(PyValueError::new_err("players must be 2-4, with one start VP per seat"));
    }
    if copies == 0 || betas.is_empty() || betas.iter().any(|b| !b.is_finite() || *b <= 0.0) {
        return Err(PyValueError::new_err("copies must be >= 1 and betas numbers > 0"));
    }
    let mut config = GameConfig::new(players);
    config.start_vp[..players].copy_from_slice(&start_vp);
    let model = learned::registered(weights).map_err(PyValueError::new_err)?;
    let measure = crate::carpe_diem::luck::Measure { copies, betas, lookahead,
                                         evaluation: learned::evaluator(model) };
    let comps = &*components.carpe_diem()?;
    let games = py.detach(|| crate::carpe_diem::luck::measure_chunk(
        comps, &config, u128::from(entropy), u128::from(luck_entropy), &setups, &lineup,
        &measure)).map_err(PyValueError::new_err)?;
    let seats = games.iter().flat_map(|g| &g.record.seats);
    let out = PyDict::new(py);
    out.set_item("won", seats.clone().map(|s| s.won).collect::<Vec<_>>().into_pyarray(py))?;
    out.set_item("final_vp", seats.map(|s| s.final_vp).collect::<Vec<_>>().into_pyarray(py))?;
    let luck: Vec<f64> = games.iter().flat_map(|g| g.luck.iter().copied()).collect();
    out.set_item("luck", luck.into_pyarray(py))?;
    out.set_item("kinds", crate::carpe_diem::luck::KINDS.to_vec())?;
    out.set_item("chance_steps",
                 games.iter().map(|g| g.chance_steps).collect::<Vec<_>>().into_pyarray(py))?;
    out.set_item("valuations",
                 games.iter().map(|g| g.valuations).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(out)
}

/// Columns of the run rows or card rows as Python reads them: `(name, "int" | "str" |
/// "bool")` each, in order (`cdsim.rules.records` is held to the seat row's and the card
/// row's).
fn python_columns<'py>(py: Python<'py>, columns: &[(&'static str, records::ColumnType)])
    -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, columns.iter().map(|&(name, kind)| (name, kind.python())))
}

/// The built-in component set of the game `game` as the JSON `Components(json, game=...)`
/// reads, or None when the core holds none (Carpe Diem's comes from `cdsim.rules`).
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

/// The Castles of Tuscany's built-in players (`castles::players::PLAYER_NAMES`, read
/// from the one list its registry entry makes them from).
#[pyfunction]
fn castles_players() -> Vec<&'static str> {
    crate::castles::players::PLAYER_NAMES.to_vec()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Components>()?;
    m.add_class::<State>()?;
    m.add_class::<Bot>()?;
    m.add_class::<Stop>()?;
    m.add_function(wrap_pyfunction!(play_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(play_game, m)?)?;
    m.add_function(wrap_pyfunction!(search_labels, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_components, m)?)?;
    m.add_function(wrap_pyfunction!(game_columns, m)?)?;
    m.add_function(wrap_pyfunction!(castles_players, m)?)?;
    m.add_function(wrap_pyfunction!(learned_weights, m)?)?;
    m.add_function(wrap_pyfunction!(scripted_profiles, m)?)?;
    m.add_function(wrap_pyfunction!(measure_luck, m)?)?;
    let py = m.py();
    m.add("SEAT_COLUMNS", python_columns(py, records::SEAT_COLUMNS)?)?;
    m.add("GAME_COLUMNS", python_columns(py, &records::GAME_COLUMNS)?)?;
    m.add("RUN_COLUMNS", python_columns(py, &batch::RUN_COLUMNS)?)?;
    m.add("CARD_COLUMNS", python_columns(py, records::CARD_COLUMNS)?)?;
    m.add("CARD_OUTCOMES", PyTuple::new(py, records::CARD_OUTCOMES)?)?;
    m.add("GAMES", PyTuple::new(py, registry::names())?)?;
    let settings = PyDict::new(py);
    for (player, table) in [("mcts", &players::mcts::SETTINGS[..]),
                            ("learned", &players::learned::SETTINGS[..])] {
        let rows: Vec<(&str, &str, &str)> =
            table.iter().map(|s| (s.name, s.kind.word(), s.help)).collect();
        settings.set_item(player, rows)?;
    }
    m.add("PLAYER_SETTINGS", settings)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
