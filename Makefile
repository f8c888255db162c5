# cdsim — `make install`, then `make test`. Everything runs from a local .venv.
VENV ?= .venv
PY := $(VENV)/bin/python
CDSIM := $(VENV)/bin/cdsim

.PHONY: install test lint run bench strength clean core-fixture core-games browser oracle mediterranean \
	figures fuzz train train-prior train-castles ratings evaluator castles

install: $(VENV)/.installed

# The Rust core (cdsim._core, the engine that plays every game) is rebuilt in release mode
# when any of its sources change, or the files it compiles in (the component sets, the scripted
# profiles, the learned weights; tests/test_core_inputs.py checks every include_str! is here).
CORE := core/Cargo.toml core/Cargo.lock $(wildcard core/src/*.rs core/src/*/*.rs core/src/*/*/*.rs core/src/*/*/*/*.rs) \
	$(wildcard core/src/*/*.json) \
	strategies/profiles.toml strategies/mediterranean-profiles.toml \
	strategies/weights/carpe_diem-learned.json strategies/weights/castles-learned.json \
	strategies/weights/carpe_diem-prior.json
$(VENV)/.installed: pyproject.toml setup.py $(CORE)
	@echo "make install: $(words $?) inputs newer than the last install (first: $(firstword $?)): next, the venv, then the Rust core (cdsim._core) built in release mode and cdsim installed: a few minutes the first time"
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@echo "building the Rust core (cdsim._core) in release mode and installing cdsim: a few minutes the first time; each crate as cargo compiles it, the whole log in $(VENV)/install.log"
	@bash -o pipefail -c "$(PY) -m pip install -v -e '.[dev]' 2>&1 | tee $(VENV)/install.log | grep --line-buffered -E '^ *(Compiling|Finished) |^Successfully installed' | cut -c1-100" \
		|| { tail -n 30 $(VENV)/install.log; echo "make install: failed (the whole log: $(VENV)/install.log)"; exit 1; }
	@echo "make install: done ($(VENV)/bin/cdsim)"
	touch $@

# The Python suite on every core (pytest-xdist, a test file to a worker, so module fixtures
# play once; it fails if the core did not build), the Rust tests
# (pure crate, no Python), clippy on the crate and on the binding, ruff, mypy, and the
# import layers (pyproject's [tool.importlinter]: dependencies run one way).
test: install
	CDSIM_REQUIRE_CORE=1 $(PY) -m pytest -n auto --dist loadfile
	cd core && cargo test --quiet
	cd core && cargo clippy --quiet --all-targets -- -D warnings
	cd core && PYO3_PYTHON=$(abspath $(PY)) cargo clippy --quiet --all-targets --features python -- -D warnings
	$(VENV)/bin/ruff check cdsim strategies reports tests scripts setup.py
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

lint: install
	$(VENV)/bin/ruff check cdsim strategies reports tests scripts setup.py
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The main job: the default study (2, 3 and 4 players x random, scripted and strong play,
# each recommended vector confirmed on fresh games) and its report. Run again to
# finish an interrupted study (--resume) and rewrite the report.
STUDY ?= studies/default
run: install
	$(CDSIM) study run default --out $(STUDY) \
		$$(test -f $(STUDY)/study-manifest.json && echo --resume)
	$(CDSIM) study report $(STUDY)

# The second game's study: The Castles of Tuscany at 2, 3 and 4 players (random floor, the
# four scripted players, its learned player in every seat), which starting VP make its seats
# fair and whether that moves with skill (docs/castles.md).
CASTLES ?= studies/castles
castles: install
	$(CDSIM) study run castles --out $(CASTLES) \
		$$(test -f $(CASTLES)/study-manifest.json && echo --resume)
	$(CDSIM) study report $(CASTLES)

# The third game's study: the Mediterranean trading game (Dirk Henn) at 3, 4 and 5 players
# (random floor, greedy and its three scripted styles), which starting VP per initial seat
# make its seats fair (docs/mediterranean.md).
MEDITERRANEAN ?= studies/mediterranean
mediterranean: install
	$(CDSIM) study run mediterranean --out $(MEDITERRANEAN) \
		$$(test -f $(MEDITERRANEAN)/study-manifest.json && echo --resume)
	$(CDSIM) study report $(MEDITERRANEAN)

# Headless chromium and its driver for the page tests (tests/test_replay.py); root, as on CI.
browser:
	test -x /usr/bin/chromedriver || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

# The core's test fixture: the default component set as Python hands it over.
core-fixture: install
	$(PY) -c "import json; from cdsim.games.carpe_diem.rules.components import load_components; \
	from cdsim.games.carpe_diem.handover import components_dict; \
	print(json.dumps(components_dict(load_components()), indent=1))" > core/tests/data/components.json

# The core's recorded games (core/tests/data/recorded_*.json) that its tests replay:
# re-record them only on a deliberate change of a rule, a player or the generator.
core-games:
	cd core && CDSIM_RECORD=1 cargo test --quiet --test games recorded_

# A game's learned player's built-in weights are rebuilt from seed 1 byte for byte by one
# pipeline (cdsim train: cdsim/train/) running the game's trainer, then the core that
# compiles them in. Carpe Diem's (strategies/weights/carpe_diem-learned.json): greedy-playout
# rounds, then mcts's labels of its own moves at 2, 3 and 4 players (its trainer:
# cdsim/games/carpe_diem/commands/training/; about 100 minutes of 2 cores, most of it the
# 3-player labels).
train: install
	nice -n 10 $(CDSIM) train --game carpe-diem --seed 1
	$(MAKE) install

# Carpe Diem's learned player's prior over a move decision's options
# (strategies/weights/carpe_diem-prior.json, read by learned@prior=N), rebuilt byte for byte:
# the built-in learned's own values of its options in 200 self-play games at each of 2, 3
# and 4 players from seed 5,000,000, a least-squares fit (a minute of one core), then the
# core that compiles it in.
train-prior:
	cd core && nice -n 10 cargo run --quiet --release --example prior_fit -- 200 5000000 \
		../strategies/weights/carpe_diem-prior.json
	$(MAKE) install

# The Castles of Tuscany's learned player's built-in weights
# (strategies/weights/castles-learned.json), rebuilt from seed 1 byte for byte by the same
# pipeline: rounds of self-play whose sampled decisions its mcts labels (the seam's trainer,
# cdsim/train/seam.py), then the core that compiles them in.
train-castles: install
	nice -n 10 $(CDSIM) train --game castles --seed 1 --jobs 2
	$(MAKE) install

bench: install
	$(PY) scripts/bench.py

# Every measured figure the docs quote, so nobody edits one by hand: the README's answer
# table (between its answer markers) and docs/figures.md from the study folder of the last
# `make run` (STUDY; it stops with one line if there is none), then docs/img/* and the
# guide's examples from what runs today (the page tests' screenshots: `make browser` first).
figures: install
	$(PY) scripts/figures.py --study $(STUDY)

# The fuzz test at 2,500 examples per input kind (study files, simulate flags, component
# sets, position files: 10,000 in all); CI runs a few hundred (tests/test_fuzz.py).
fuzz: install
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q -p no:cacheprovider tests/test_fuzz.py \
		--hypothesis-show-statistics

# The Python rules replay the core's games decision by decision, every player count and
# line-up of tests/test_table.py in turn. Measured 2026-11-23 on the shared 2-core
# machine: about 6 games/s (the mcts line-ups are most of the time), so the default
# million takes about two days; ORACLE_GAMES=10000 about half an hour.
ORACLE_GAMES ?= 1000000
oracle: install
	$(PY) scripts/oracle.py $(ORACLE_GAMES)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build core/target
	find . -path ./$(VENV) -prune -o -name '*.so' -print -exec rm -f {} +

# strategies/ratings.json: the ladder ratings (2, 3, 4 players; scripted, learned, mcts) that
# a study report places its populations by (cdsim/analysis/skill.py). About 25 minutes of one core
# each at 2 players, fewer at 3 and 4 (mcts is most of it); finished ladders are reused.
ratings: install
	$(PY) scripts/ratings.py

# How well the learned player's evaluator ranks the options it weighs, against greedy
# playout values (docs/strength.md): 100 fresh 4-player games, about 5 minutes on 2 cores.
evaluator: install
	$(PY) scripts/evaluator.py

# Measured competence of the scripted players (issue: scripted players). ~15 min on 2 cores.
strength: install
	$(PY) scripts/strength.py
