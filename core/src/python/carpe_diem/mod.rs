//! Carpe Diem's part of the binding: its game for the Python seats, the oracle and the
//! replay (`State`, in `state.rs`), its built-in players as Python objects (`Bot`), its
//! learned weights and scripted profiles handed to the core, its luck measure, its rows'
//! columns and its players' settings. What every game uses is the binding's `mod.rs`.

#[allow(clippy::wildcard_imports)]
use super::*;

use pyo3::exceptions::{PyIndexError, PyRuntimeError};
use pyo3::IntoPyObjectExt;
use serde_json::{json, Value};

use crate::carpe_diem::checking;
use crate::carpe_diem::components;
use crate::carpe_diem::records;
use crate::carpe_diem::game::{Action, EventLog, GameConfig, GameState, Options, Pending, NONE};
use crate::carpe_diem::players::{self, features, learned, Player};
use crate::carpe_diem::scoring;
use crate::play::ask;
use crate::rng::{Generator, SeedSequence};

mod state;

use state::{Bot, State};

impl Components {
    /// Carpe Diem's component set (`State`, the luck measure), or a ValueError naming
    /// the game these are of.
    fn carpe_diem(&self) -> PyResult<Arc<components::Components>> {
        Arc::clone(&self.set).downcast().map_err(|_| PyValueError::new_err(format!(
            "these components are {}'s: only carpe-diem plays here", self.game.name())))
    }
}

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

/// Carpe Diem's classes, functions and constants on the module `_core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<State>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(learned_weights, m)?)?;
    m.add_function(wrap_pyfunction!(scripted_profiles, m)?)?;
    m.add_function(wrap_pyfunction!(measure_luck, m)?)?;
    let py = m.py();
    m.add("SEAT_COLUMNS", python_columns(py, records::SEAT_COLUMNS)?)?;
    m.add("GAME_COLUMNS", python_columns(py, &records::GAME_COLUMNS)?)?;
    m.add("CARD_COLUMNS", python_columns(py, records::CARD_COLUMNS)?)?;
    m.add("CARD_OUTCOMES", PyTuple::new(py, records::CARD_OUTCOMES)?)?;
    let settings = PyDict::new(py);
    for (player, table) in [("mcts", &players::mcts::SETTINGS[..]),
                            ("learned", &players::learned::SETTINGS[..])] {
        let rows: Vec<(&str, &str, &str)> =
            table.iter().map(|s| (s.name, s.kind.word(), s.help)).collect();
        settings.set_item(player, rows)?;
    }
    m.add("PLAYER_SETTINGS", settings)?;
    Ok(())
}
