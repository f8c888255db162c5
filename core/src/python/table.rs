//! Any registered game at a table with open seats (`games::table`), for a user's Python
//! strategy: the pending seat, its options in words, that seat's observation only, and its
//! choice by index. The game is named by its components (`Components`), never here.

use pyo3::types::PyList;
use pyo3::IntoPyObjectExt;
use serde_json::Value;

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::games::registry::OneTable;
use crate::games::table::Seated;

/// A built-in player as Python names it: (name, its parameter overrides); None: an open seat.
type Seat = Option<(String, Vec<(String, f64)>)>;

/// One game of the components' game: built-in players by name in some seats, the others
/// open (None in `lineup`), played by the caller. `play()` lets the built-in seats decide
/// until an open seat is to; then `observe()` is that seat's observation (what it may
/// know: `Game::observe`), `options()` the pending options in words, and `apply(i)` takes
/// one. `rows()` once the game is over. Dealt as `play_chunk` deals game `setup` of the
/// run `entropy`.
#[pyclass(unsendable, module = "cdsim._core")]
struct GameTable {
    table: Box<dyn Seated>,
}

#[pymethods]
impl GameTable {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (components, players, start_vp, entropy, setup, lineup, check=false))]
    fn new(components: &Components, players: usize, start_vp: Vec<i32>, entropy: u64,
           setup: Option<u64>, lineup: Vec<Seat>, check: bool)
        -> PyResult<Self> {
        let lineup: Vec<Option<StrategySpec>> = lineup.into_iter()
            .map(|s| s.map(|(name, overrides)| StrategySpec { name, overrides }))
            .collect();
        let one = OneTable { players, start_vp: &start_vp, entropy, setup, lineup: &lineup,
                             check };
        let table = components.game.table(&components.set, &one).map_err(PyValueError::new_err)?;
        Ok(GameTable { table })
    }

    /// Let the built-in seats decide (the GIL released) until an open seat is to decide or
    /// the game is over.
    fn play(&mut self, py: Python<'_>) -> PyResult<()> {
        let table = &mut self.table;
        py.detach(|| table.play()).map_err(PyValueError::new_err)
    }

    /// The seat whose decision is pending (None when the game is over).
    fn current_seat(&self) -> Option<usize> {
        self.table.current_seat()
    }

    fn is_over(&self) -> bool {
        self.table.current_seat().is_none()
    }

    #[getter]
    fn seats(&self) -> usize {
        self.table.seats()
    }

    fn is_open(&self, seat: usize) -> bool {
        self.table.is_open(seat)
    }

    /// The pending decision kind's name.
    fn decision(&self) -> &'static str {
        self.table.decision()
    }

    /// The pending decision's options in words, in the engine's order.
    fn options(&self) -> Vec<String> {
        self.table.options()
    }

    /// The pending open seat's observation as read-only Python data (read-only mappings,
    /// tuples, numbers, strings, None); a ValueError when no open seat decides.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = self.table.observe().map_err(PyValueError::new_err)?;
        let proxy = py.import("types")?.getattr("MappingProxyType")?;
        to_python(py, &value, Some(&proxy))
    }

    /// Take option `index` for the open seat deciding (a ValueError for an index out of
    /// range, a built-in seat's decision or a game over).
    fn apply(&mut self, index: usize) -> PyResult<()> {
        self.table.apply(index).map_err(PyValueError::new_err)
    }

    /// The decisions taken so far, by any seat.
    #[getter]
    fn decisions(&self) -> u64 {
        self.table.decisions()
    }

    /// The finished game's seat rows: (column names, one list of values a seat), an open
    /// seat's strategy "open".
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<(Vec<&'static str>, Bound<'py, PyList>)> {
        let (columns, rows) = self.table.rows().map_err(PyValueError::new_err)?;
        let out = PyList::empty(py);
        for row in rows {
            out.append(to_python(py, &Value::Array(row), None)?)?;
        }
        Ok((columns, out))
    }
}

/// JSON as Python's `json.loads` reads it, or with `proxy` (`types.MappingProxyType`)
/// read-only all the way down: an object a read-only mapping, an array a tuple.
fn to_python<'py>(py: Python<'py>, value: &Value, proxy: Option<&Bound<'py, PyAny>>)
    -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py)?,
            (None, Some(u)) => u.into_bound_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?,
        },
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(items) => {
            let items = items.iter().map(|item| to_python(py, item, proxy))
                .collect::<PyResult<Vec<_>>>()?;
            match proxy {
                Some(_) => PyTuple::new(py, items)?.into_any(),
                None => PyList::new(py, items)?.into_any(),
            }
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v, proxy)?)?;
            }
            match proxy {
                Some(proxy) => proxy.call1((dict,))?,
                None => dict.into_any(),
            }
        }
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GameTable>()
}
