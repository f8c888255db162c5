//! The one binding module (`cdsim._core`): converts at the boundary, releases the GIL
//! for the games, and maps errors to Python exceptions here and nowhere else.

use std::sync::Arc;

use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{json, Value};

use crate::batch::{self, Chunk, StrategySpec};
use crate::checking;
use crate::components;
use crate::game::{EventLog, GameConfig, GameState, Options};
use crate::play::ask;
use crate::players::{self, features, learned, Player};
use crate::rng::{Generator, SeedSequence};
use crate::scoring;

/// A component set as the core holds it, made once per process from
/// `cdsim.handover.components_json` (the validated Python `Components`).
#[pyclass(frozen, module = "cdsim._core")]
struct Components {
    inner: Arc<components::Components>,
}

#[pymethods]
impl Components {
    #[new]
    fn new(json: &str) -> PyResult<Self> {
        let inner = components::Components::from_json(json).map_err(PyValueError::new_err)?;
        Ok(Components { inner: Arc::new(inner) })
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

/// One game on the core (OpenSpiel's State): made from (components, players, start VP,
/// seed, deal); says whose decision is pending and its options, applies one, copies
/// itself, and records typed events. Every chance outcome is drawn at setup (R2).
#[pyclass(module = "cdsim._core")]
struct State {
    comps: Arc<components::Components>,
    state: GameState,
    rngs: Vec<Generator>,
    buf: Options,
    /// `buf` holds the options of the pending decision.
    filled: bool,
    decisions: u64,
}

impl State {
    fn fill(&mut self) -> usize {
        if !self.filled {
            self.state.options(&self.comps, &mut self.buf);
            self.filled = true;
        }
        self.buf.len()
    }

    fn apply_index(&mut self, index: usize) -> PyResult<()> {
        let n = self.fill();
        if self.state.is_over() {
            return Err(PyValueError::new_err("the game is over: no decision to apply"));
        }
        if index >= n {
            return Err(PyIndexError::new_err(format!(
                "option {index} of {n} in the {} decision", self.state.pending.name())));
        }
        self.state.apply(&self.comps, self.buf[index]);
        self.filled = false;
        self.decisions += 1;
        if self.state.check {
            let end = self.state.is_over();
            checking::check_state(&self.state, &self.comps, end).map_err(|e| {
                PyRuntimeError::new_err(format!("invariant broken after decision {}: {e}",
                                                self.decisions))
            })?;
        }
        Ok(())
    }
}

#[pymethods]
impl State {
    /// A new game: `setup` is the deal id of a run (`SeedSequence(entropy, (setup,))`),
    /// or None for `SeedSequence(entropy)`; `events` records the typed events.
    #[new]
    #[pyo3(signature = (components, players, start_vp, entropy, setup=None, check=false,
                        events=false))]
    fn new(components: &Components, players: usize, start_vp: Vec<i64>, entropy: u64,
           setup: Option<u64>, check: bool, events: bool) -> PyResult<Self> {
        if !(2..=4).contains(&players) || start_vp.len() != players {
            return Err(PyValueError::new_err("players must be 2-4, with one start VP per seat"));
        }
        let mut config = GameConfig::new(players);
        for (seat, &vp) in start_vp.iter().enumerate() {
            config.start_vp[seat] = i32::try_from(vp).map_err(|_| PyValueError::new_err(
                format!("start VP {vp} of seat {} is out of range", seat + 1)))?;
        }
        config.check = check;
        let key: Vec<u64> = setup.into_iter().collect();
        let comps = Arc::clone(&components.inner);
        let (mut state, rngs) = GameState::new(&comps, &config, SeedSequence::new(
            u128::from(entropy), &key));
        if events {
            state.log = EventLog::on();
        }
        Ok(State { comps, state, rngs, buf: Options::default(), filled: false, decisions: 0 })
    }

    /// The seat whose decision is pending, or None when the game is over.
    fn current_seat(&self) -> Option<usize> {
        self.state.pending.seat()
    }

    /// The pending decision: start, move, take, seal, fountain, circle, payment or over.
    fn decision(&self) -> &'static str {
        self.state.pending.name()
    }

    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    #[getter]
    fn players(&self) -> usize {
        self.state.n
    }

    /// Decisions applied so far.
    #[getter]
    fn decisions(&self) -> u64 {
        self.decisions
    }

    fn num_options(&mut self) -> usize {
        self.fill()
    }

    /// The pending decision's options as JSON (a list of objects, in the engine's order).
    fn legal_options(&mut self) -> String {
        self.fill();
        Value::Array(self.buf.iter().map(|o| o.to_json(&self.comps)).collect()).to_string()
    }

    /// Apply option `index` of the pending decision; the game runs on to the next one.
    fn apply(&mut self, index: usize) -> PyResult<()> {
        self.apply_index(index)
    }

    /// A copy to play on (its events are copied too; seats' streams as they are now).
    fn clone(&self) -> State {
        let mut state = self.state.clone();
        state.log = self.state.log.copied();
        State { comps: Arc::clone(&self.comps), state, rngs: self.rngs.clone(),
                buf: Options::default(), filled: false, decisions: self.decisions }
    }

    fn event_count(&self) -> usize {
        self.state.log.events().len()
    }

    /// The events from `since` on, as a JSON list of objects (`type` names each).
    #[pyo3(signature = (since=0))]
    fn events(&self, since: usize) -> String {
        let events = self.state.log.events();
        let from = since.min(events.len());
        Value::Array(events[from..].iter().map(|e| e.to_json(&self.comps)).collect()).to_string()
    }

    /// Everything a rule can change, as JSON (the oracle compares it after each decision).
    fn snapshot(&self) -> String {
        self.state.snapshot(&self.comps).to_string()
    }

    /// Every chance outcome of the game (drawn at setup), as JSON.
    fn deal(&self) -> String {
        self.state.deal_json(&self.comps).to_string()
    }

    /// R10: the final scoring of a finished game as JSON: {players, tiebreak, seats: [...]}
    /// (the run rows' fields; `strategy` is left for the caller to fill).
    fn record(&self) -> PyResult<String> {
        if !self.state.is_over() {
            return Err(PyValueError::new_err("the game is not over"));
        }
        let names = [""; 4];
        let record = scoring::final_scoring(&self.state, &self.comps, &names[..self.state.n]);
        serde_json::to_string(&json!({
            "players": record.players, "tiebreak": record.tiebreak, "seats": record.seats,
        })).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// Let built-in players decide while the pending seat has one (`bots[seat]` not None);
    /// returns at a seat without one, or when the game is over. The GIL is held: a bot
    /// is a Python object.
    fn play(&mut self, py: Python<'_>, bots: Vec<Option<Py<Bot>>>) -> PyResult<()> {
        if bots.len() != self.state.n {
            return Err(PyValueError::new_err("one entry per seat (None for no bot)"));
        }
        while let Some(seat) = self.state.pending.seat() {
            let Some(bot) = &bots[seat] else { break };
            let index = bot.borrow_mut(py).pick(self, seat);
            self.apply_index(index)?;
        }
        Ok(())
    }

    /// Training (`cdsim train`): the positions the learned player compares at the pending
    /// decision, one row each: its inputs for the deciding seat, the VP it has gained if
    /// the game ended there, the phase, the VP it gains on average when every seat plays
    /// `rollout` from there (`playouts` deck orders, the same for every position, from
    /// `seed`); then the other seats' mean inputs, VP gained so far and at the end. A
    /// position where the game is over is left out. A copy of the seat's stream draws the
    /// copies' fountain decks (the game's streams do not move).
    #[pyo3(signature = (playouts, seed, rollout="greedy"))]
    fn learned_playouts(&self, py: Python<'_>, playouts: u32, seed: u64, rollout: &str)
        -> PyResult<Vec<Vec<f64>>> {
        let Some(seat) = self.state.pending.seat() else {
            return Ok(Vec::new());
        };
        let (state, comps) = (&self.state, &self.comps);
        let mut rng = self.rngs[seat].clone(); // the game goes on as if never asked
        py.detach(|| learned::playout_rows(state, comps, &mut rng, playouts, seed, rollout))
            .map_err(PyValueError::new_err)
    }

    /// Expert Iteration's labels: every option the learned player (weights `weights`,
    /// one ply) shortlists at the pending decision, each valued by mcts (`search`: its
    /// parameters as `--strategy-params`, `playouts` per option) with the same deck
    /// orders for every option, from `seed`. One tuple per option: (the option's index,
    /// for a move then the take's; mcts's mean margin; the learned value; the phase, then
    /// per seat from the deciding one on its banked VP and inputs). The game's streams do
    /// not move.
    #[pyo3(signature = (seed, search=Vec::new(), weights=0))]
    fn search_labels(&self, py: Python<'_>, seed: u64, search: Vec<(String, f64)>,
                     weights: usize) -> PyResult<Vec<LabelRow>> {
        let Some(seat) = self.state.pending.seat() else {
            return Ok(Vec::new());
        };
        let params = players::mcts::MctsParams::default().with_overrides(&search)
            .map_err(PyValueError::new_err)?;
        let (state, comps) = (&self.state, &self.comps);
        let mut rng = self.rngs[seat].clone();
        let labels = py.detach(|| learned::search_labels(state, comps, &mut rng, params, seed,
                                                         weights))
            .map_err(PyValueError::new_err)?;
        Ok(labels.into_iter().map(|l| (l.choice, l.value, l.learned, l.inputs)).collect())
    }

    /// The names of the learned player's inputs (a weights file lists them).
    #[staticmethod]
    fn learned_feature_names() -> Vec<&'static str> {
        features::NAMES.to_vec()
    }
}

/// One option's label as Python reads it: (choice, mcts value, learned value, inputs).
type LabelRow = (Vec<usize>, f64, f64, Vec<f64>);

/// A built-in player (random, the scripted profiles, mcts) as a core object that
/// chooses on a `State`, with that seat's stream.
#[pyclass(unsendable, module = "cdsim._core")]
struct Bot {
    player: Player,
}

impl Bot {
    fn pick(&mut self, state: &mut State, seat: usize) -> usize {
        state.fill();
        ask(&state.state, &state.comps, &mut self.player, &mut state.rngs[seat], &state.buf)
    }
}

#[pymethods]
impl Bot {
    /// `name` a built-in player; `overrides` its parameters, as `--strategy-params`.
    #[new]
    #[pyo3(signature = (name, overrides=Vec::new()))]
    fn new(name: &str, overrides: Vec<(String, f64)>) -> PyResult<Self> {
        let player = players::make(name, &overrides).map_err(PyValueError::new_err)?;
        Ok(Bot { player })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.player.name()
    }

    /// The index of the option this player chooses on the state's pending decision.
    fn choose(&mut self, state: &mut State) -> PyResult<usize> {
        let Some(seat) = state.state.pending.seat() else {
            return Err(PyValueError::new_err("the game is over: nothing to choose"));
        };
        Ok(self.pick(state, seat))
    }
}

/// Load a learned player's weights (the JSON text of a weights file) into this process;
/// returns the number `learned.weights` takes to play with them. A file this core cannot
/// read is a ValueError naming the problem.
#[pyfunction]
fn learned_weights(text: &str) -> PyResult<usize> {
    learned::register(text).map_err(PyValueError::new_err)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Components>()?;
    m.add_class::<State>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(play_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(learned_weights, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
