//! The one binding module (`cdsim._core`): converts at the boundary, releases the GIL
//! for the games, and maps errors to Python exceptions here and nowhere else.

use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::batch::{self, Chunk, StrategySpec};
use crate::components;
use crate::game::GameConfig;

/// A component set as the core holds it, made once per process from
/// `cdsim.handover.components_json` (the validated Python `Components`).
#[pyclass(frozen, module = "cdsim._core")]
struct Components {
    inner: components::Components,
}

#[pymethods]
impl Components {
    #[new]
    fn new(json: &str) -> PyResult<Self> {
        let inner = components::Components::from_json(json).map_err(PyValueError::new_err)?;
        Ok(Components { inner })
    }
}

/// Play games `games` (deals `setups`) of a run with seed `entropy`; `lineups` holds
/// `players` indices into `strategies` per game. Returns the rows as columns: a dict of
/// numpy arrays (`strategy` as indices into `strategies`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (components, players, start_vp, entropy, games, setups, lineups, strategies, check=false))]
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
) -> PyResult<Bound<'py, PyDict>> {
    if !(2..=4).contains(&players) || start_vp.len() != players {
        return Err(PyValueError::new_err("players must be 2-4, with one start VP per seat"));
    }
    let mut config = GameConfig::new(players);
    config.start_vp[..players].copy_from_slice(&start_vp);
    config.check = check;
    let strategies: Vec<StrategySpec> = strategies
        .into_iter()
        .map(|(name, overrides)| StrategySpec { name, overrides })
        .collect();
    let (games, setups, lineups) = (games.as_slice()?, setups.as_slice()?, lineups.as_slice()?);
    let chunk = Chunk { config, entropy: u128::from(entropy), games, setups, lineups,
                        strategies: &strategies };
    let comps = &components.inner;
    let columns = py.detach(|| batch::play_chunk(comps, &chunk)).map_err(PyValueError::new_err)?;
    let out = PyDict::new(py);
    for (name, values) in columns.names.iter().zip(columns.ints) {
        out.set_item(name, values.into_pyarray(py))?;
    }
    out.set_item("won", columns.won.into_pyarray(py))?;
    out.set_item("tiebreak", columns.tiebreak.into_pyarray(py))?;
    out.set_item("strategy", columns.strategy.into_pyarray(py))?;
    Ok(out)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Components>()?;
    m.add_function(wrap_pyfunction!(play_chunk, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
