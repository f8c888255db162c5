//! The binding's game (`State`) and the built-in players that choose on it (`Bot`).

#[allow(clippy::wildcard_imports)]
use super::*;

/// One game on the core (OpenSpiel's State): made from (components, players, start VP,
/// seed, deal); says whose decision is pending and its options, applies one, copies
/// itself, and records typed events. Every chance outcome is drawn at setup (R2).
#[pyclass(module = "cdsim._core")]
pub(super) struct State {
    comps: Arc<components::Components>,
    state: GameState,
    rngs: Vec<Generator>,
    buf: Options,
    /// `buf` holds the options of the pending decision.
    filled: bool,
    decisions: u64,
    /// Each seat's built cells in the order they were built (a Python seat's observation
    /// replays them into its district view: the core keeps no history itself).
    order: Vec<Vec<u8>>,
}

type EdgeTuple = (u8, u8, u8, u8);

/// A tile's N E S W sides as a Python tuple (the Python rules' `Edges`).
fn edge_tuple(e: [u8; 4]) -> EdgeTuple {
    (e[0], e[1], e[2], e[3])
}

/// The cells of `mask`, lowest first, onto `order` (one decision builds at most one tile
/// in a district: R4.5 and R6.3 are separate decisions).
fn push_built(order: &mut Vec<u8>, mut mask: u64) {
    while mask != 0 {
        order.push(mask.trailing_zeros() as u8);
        mask &= mask - 1;
    }
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
        let before: Vec<u64> = self.state.players[..self.state.n].iter()
            .map(|p| p.district.built_mask).collect();
        self.state.apply(&self.comps, self.buf[index]);
        self.filled = false;
        self.decisions += 1;
        for (seat, was) in before.into_iter().enumerate() {
            push_built(&mut self.order[seat], self.state.players[seat].district.built_mask & !was);
        }
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
        let comps = components.carpe_diem()?;
        let (mut state, rngs) = GameState::new(&comps, &config, SeedSequence::new(
            u128::from(entropy), &key));
        if events {
            state.log = EventLog::on();
        }
        let order = state.players[..players].iter().map(|p| {
            let mut cells = Vec::new();
            push_built(&mut cells, p.district.built_mask);
            cells
        }).collect();
        Ok(State { comps, state, rngs, buf: Options::default(), filled: false, decisions: 0,
                   order })
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

    /// The pending decision's options as plain tuples, in the engine's order, for a
    /// Python seat (`cdsim.games.carpe_diem.engine.table` makes them the Python option records): start
    /// `space`; move `(dest, bread)`; take `(slot, tile, cell, edges)` with cell -1 and
    /// edges None when stored; seal `(slot, tile, cell, edges)`; fountain `(kept card ids,
    /// card id given back or None)`; circle `(circle, first, second)`; payment `(paid,
    /// bread)`.
    fn option_tuples(&mut self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.fill();
        let fountain = |c: u8| self.comps.fountains[c as usize].id.clone();
        self.buf.iter().map(|o| match *o {
            Action::Start(space) => space.into_py_any(py),
            Action::Move(m) => (m.dest, m.bread).into_py_any(py),
            Action::Take(t) => (t.slot, t.tile_type, t.cell,
                                (!t.stores()).then_some(edge_tuple(t.edges))).into_py_any(py),
            Action::Seal(s) => (s.slot, s.tile_type, s.cell, edge_tuple(s.edges)).into_py_any(py),
            Action::Fountain(f) => (f.keep().iter().map(|&c| fountain(c)).collect::<Vec<_>>(),
                                    f.give_back.map(fountain)).into_py_any(py),
            Action::Circle(c) => (c.circle, c.first, c.second).into_py_any(py),
            Action::Payment(p) => (p.paid, p.bread).into_py_any(py),
        }).collect()
    }

    /// The objective card (its id) a pending payment decision is for, else None.
    fn payment_card(&self) -> Option<String> {
        match self.state.pending {
            Pending::Payment { slot, .. } => {
                let card = self.state.grid[slot as usize];
                (card != NONE).then(|| self.comps.objectives[card as usize].id.clone())
            }
            _ => None,
        }
    }

    /// What a Python seat's observation is made from (`cdsim.games.carpe_diem.rules.observation`), public
    /// and private alike: the observer decides what the seat may see. `(phase, round,
    /// start player, depots, tiles taken per depot, seal row (None once built), card grid
    /// (ids or None), circle owners, (light, dark, fountain cards left, discarded),
    /// seats)`, each seat `((pawn, scroll, stamp, goods, coins, bread, stored), (fountain
    /// card ids, tiles built, bread moves, failed cards, artisan rewards lost, tiles taken
    /// per phase), (VP now, start VP, cells built, frontier))`.
    fn observe(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let g = &self.state;
        let comps = &self.comps;
        let ids = |cards: &[u8]| -> Vec<String> {
            cards.iter().map(|&c| comps.fountains[c as usize].id.clone()).collect()
        };
        let mut seats = Vec::with_capacity(g.n);
        for p in &g.players[..g.n] {
            seats.push((
                (p.pawn, p.scroll, p.stamp, PyTuple::new(py, p.goods)?, p.coins, p.bread,
                 p.stored),
                (ids(p.fountain_cards.as_slice()), p.tiles_built, p.bread_moves, p.failed_cards,
                 p.artisan_lost, PyTuple::new(py, p.taken)?),
                (p.current_vp(), p.start_vp, p.district.built_mask.count_ones(),
                 p.district.frontier),
            ));
        }
        let depots = g.depots.iter().map(|d| PyTuple::new(py, d.as_slice()))
            .collect::<PyResult<Vec<_>>>()?;
        (
            g.phase, g.round, g.start_player, PyTuple::new(py, depots)?,
            PyTuple::new(py, g.depot_taken)?,
            PyTuple::new(py, g.seal.iter().map(|&t| (t != NONE).then_some(t)))?,
            PyTuple::new(py, g.grid.iter().map(|&c| (c != NONE)
                .then(|| comps.objectives[c as usize].id.clone())))?,
            PyTuple::new(py, &g.circle_owner[..g.circles().len()])?,
            (g.light_deck.len(), g.dark_deck.len(), g.fountain_deck.len(), g.discarded),
            seats,
        ).into_py_any(py)
    }

    /// The tiles seat `seat` built from its `since`-th on, in the order built: `(cell,
    /// edges, chimneys, building)` each.
    fn built(&self, seat: usize, since: usize) -> PyResult<Vec<(u8, EdgeTuple, u8, u8)>> {
        let order = self.order.get(seat)
            .ok_or_else(|| PyIndexError::new_err(format!("no seat {seat}")))?;
        let d = &self.state.players[seat].district;
        Ok(order.iter().skip(since).map(|&c| {
            let c = c as usize;
            (c as u8, edge_tuple(d.edges[c]), d.chimneys_at[c], d.building_at[c])
        }).collect())
    }

    /// A copy to play on (its events are copied too; seats' streams as they are now).
    fn clone(&self) -> State {
        let mut state = self.state.clone();
        state.log = self.state.log.copied();
        State { comps: Arc::clone(&self.comps), state, rngs: self.rngs.clone(),
                buf: Options::default(), filled: false, decisions: self.decisions,
                order: self.order.clone() }
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

    /// R10: the final scoring of a finished game as JSON: {players, tiebreak, seats: [...],
    /// cards: [...]} (the run rows' fields, `strategy` left for the caller to fill; the
    /// card rows, cards named by id).
    fn record(&self) -> PyResult<String> {
        if !self.state.is_over() {
            return Err(PyValueError::new_err("the game is not over"));
        }
        let names = [""; 4];
        let record = scoring::final_scoring(&self.state, &self.comps, &names[..self.state.n]);
        let cards: Vec<Value> = record.cards.iter().map(|c| c.to_json(&self.comps)).collect();
        serde_json::to_string(&json!({
            "players": record.players, "tiebreak": record.tiebreak, "seats": record.seats,
            "cards": cards,
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
    /// per seat from the deciding one on its banked VP and inputs: the version-2 list, zero
    /// where the game is over; the greedy profile's placement value of its build; the
    /// seat's district after it, four side kinds a cell, 255 where empty). The game's
    /// streams do not move.
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
        Ok(labels.into_iter()
            .map(|l| (l.choice, l.value, l.learned, l.inputs, l.placement, l.district))
            .collect())
    }

    /// The names of the learned player's inputs a weights file of `version` lists (1:
    /// the built-in weights'; 2: then the placement inputs).
    #[staticmethod]
    #[pyo3(signature = (version=1))]
    fn learned_feature_names(version: u64) -> PyResult<Vec<&'static str>> {
        features::names(version).ok_or_else(|| PyValueError::new_err(format!(
            "no learned inputs of weights version {version}")))
    }
}

/// One option's label as Python reads it: (choice, mcts value, learned value, inputs).
type LabelRow = (Vec<usize>, f64, f64, Vec<f64>, f64, Vec<u8>);

/// A built-in player (random, the scripted profiles, mcts) as a core object that
/// chooses on a `State`, with that seat's stream. Sendable: Python may drop it on another
/// thread (a reference cycle collected there, or a worker thread's batch); an unsendable
/// class then printed "Bot is unsendable, but is being dropped on another thread" and leaked
/// it. The lock is only for the `name` getter: choosing takes `&mut self` (no locking).
#[pyclass(module = "cdsim._core")]
pub(super) struct Bot {
    player: std::sync::Mutex<Player>,
}

impl Bot {
    fn pick(&mut self, state: &mut State, seat: usize) -> usize {
        state.fill();
        let player = self.player.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
        ask(&state.state, &state.comps, player, &mut state.rngs[seat], &state.buf)
    }
}

#[pymethods]
impl Bot {
    /// `name` a built-in player; `overrides` its parameters, as `--strategy-params`.
    #[new]
    #[pyo3(signature = (name, overrides=Vec::new()))]
    fn new(name: &str, overrides: Vec<(String, f64)>) -> PyResult<Self> {
        let player = players::make(name, &overrides).map_err(PyValueError::new_err)?;
        Ok(Bot { player: std::sync::Mutex::new(player) })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.player.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).name()
    }

    /// The index of the option this player chooses on the state's pending decision.
    fn choose(&mut self, state: &mut State) -> PyResult<usize> {
        let Some(seat) = state.state.pending.seat() else {
            return Err(PyValueError::new_err("the game is over: nothing to choose"));
        };
        Ok(self.pick(state, seat))
    }
}

