# cdsim — `make install`, then `make test`. Everything runs from a local .venv.
VENV ?= .venv
PY := $(VENV)/bin/python
CDSIM := $(VENV)/bin/cdsim

.PHONY: install test test-pure lint run bench strength clean core-fixture

install: $(VENV)/.installed

# setup.py compiles the three hot modules with mypyc (about a minute; CDSIM_PURE=1 skips
# it): re-install when they change. An edited one runs from source until then.
NATIVE := cdsim/kinds.py cdsim/district.py strategies/value.py  # = cdsim.native.COMPILED
$(VENV)/.installed: pyproject.toml setup.py $(NATIVE)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

test: install
	$(PY) -m pytest
	$(VENV)/bin/ruff check cdsim strategies reports tests scripts setup.py
	$(VENV)/bin/mypy

# The same suite on the Python sources of the compiled modules (CI runs both).
test-pure: install
	CDSIM_PURE=1 $(PY) -m pytest

lint: install
	$(VENV)/bin/ruff check cdsim strategies reports tests scripts setup.py
	$(VENV)/bin/mypy

# The main job: a default 4-player batch (scripted mix, seats rotated) and its report.
# Run again to finish an interrupted batch (--resume) and rewrite the report.
RUN ?= runs/default-4p
GAMES ?= 4000
run: install
	$(CDSIM) simulate --out $(RUN) --players 4 --games $(GAMES) --seed 1 \
		--strategies greedy,villa,landscape,bread --rotate-seats \
		$$(test -f $(RUN)/manifest.json && echo --resume)
	$(CDSIM) report $(RUN)
	$(CDSIM) balance $(RUN)

# The core's test fixture: the default component set as Python hands it over.
core-fixture: install
	$(PY) -c "import json; from cdsim.components import load_components; \
	from cdsim.handover import components_dict; \
	print(json.dumps(components_dict(load_components()), indent=1))" > core/tests/data/components.json

bench: install
	$(PY) scripts/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build cdsim/_native.json
	find . -path ./$(VENV) -prune -o -name '*.so' -print -exec rm -f {} +

# Measured competence of the scripted players (issue: scripted players). ~15 min on 2 cores.
strength: install
	$(PY) scripts/strength.py
