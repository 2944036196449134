# ludosim: `make run` and `make test` work on a fresh machine with python3 (3.11+).
# .venv is created on first use; packages are reinstalled only when pyproject.toml or this
# file changes (stamp files in .venv).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
SEED ?= 7
PYTEST_WORKERS ?= 2

.PHONY: run warm games reports test verify coverage bench docs lint format clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# With the extras the documented examples need: `ratings`, `skill` and `tune` (skill),
# `design` (design). The test extras hold them too.
RUN_EXTRAS := skill,design

$(RUN_STAMP): pyproject.toml Makefile | $(PY)
	$(PY) -m pip install --quiet -e '.[$(RUN_EXTRAS)]'
	touch $@

$(TEST_STAMP): pyproject.toml Makefile | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(RUN_STAMP)

# The main job on its default: the five seed rule sets side by side (resumable;
# each preset plays until its first-player advantage is known to +-0.12pp) and its report;
# `ludosim report` ends by naming the page it wrote.
run: $(RUN_STAMP)
	$(PY) -m ludosim.run.warm
	$(BIN)/ludosim sweep analyses/seeds.toml --out runs/seeds
	$(BIN)/ludosim report runs/seeds --out runs/seeds/report

# The kinds of game the documented examples play, compiled ahead in parallel processes
# (`ludosim.run.warm`): after an install or a kernel change; then each loads in a second.
warm: $(RUN_STAMP)
	$(PY) -m ludosim.run.warm

# One seeded game of every preset, turn by turn.
games: $(RUN_STAMP)
	@for preset in $$($(PY) -c "import ludosim; print(' '.join(ludosim.presets()))"); do \
		echo "=== ludosim play --preset $$preset --seed $(SEED)"; \
		$(BIN)/ludosim play --preset $$preset --seed $(SEED) || exit $$?; \
	done

# Every study of analyses/ at the size written in its file, refreshing reports/
# (`make reports GAMES=50000` plays that many games per cell of the sweeps instead).
# skill*.toml, leads.toml, comebacks*.toml, duels.toml and house-rules-*.toml are not
# sweeps: `ludosim skill`, `ludosim unfold`, `ludosim duels` and `ludosim design` play them
# and write their pages themselves
# (a design keeps its stages' sweeps under runs/, its tables and page under reports/).
UNFOLD_STUDIES := leads comebacks comebacks-king
SKILL_STUDIES := skill skill-king
DUELS_STUDIES := duels
DESIGN_STUDIES := $(basename $(notdir $(wildcard analyses/house-rules-*.toml)))
STUDIES := $(filter-out $(SKILL_STUDIES) $(UNFOLD_STUDIES) $(DUELS_STUDIES) $(DESIGN_STUDIES),$(basename $(notdir $(wildcard analyses/*.toml))))
reports: $(RUN_STAMP)
	@for study in $(STUDIES); do \
		$(BIN)/ludosim sweep analyses/$$study.toml --out runs/$$study \
			$(if $(GAMES),--games $(GAMES)) -q || exit $$?; \
		$(BIN)/ludosim report runs/$$study --out reports/$$study || exit $$?; \
	done
	@for study in $(SKILL_STUDIES); do \
		$(BIN)/ludosim skill analyses/$$study.toml --out reports/$$study -q || exit $$?; \
	done
	@for study in $(UNFOLD_STUDIES); do \
		$(BIN)/ludosim unfold analyses/$$study.toml --out reports/$$study -q || exit $$?; \
	done
	@for study in $(DUELS_STUDIES); do \
		$(BIN)/ludosim duels analyses/$$study.toml --out reports/$$study -q || exit $$?; \
	done
	@for study in $(DESIGN_STUDIES); do \
		$(BIN)/ludosim design analyses/$$study.toml --out runs/$$study -q || exit $$?; \
		$(BIN)/ludosim report runs/$$study --out reports/$$study || exit $$?; \
	done

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(PY) -m ludosim.run.warm --tests --workers $(PYTEST_WORKERS)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal

verify: $(TEST_STAMP)
	LUDOSIM_VERIFY=1 $(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal
	$(PY) benchmarks/exact_agreement.py --games 200000 --seed 2026
	$(MAKE) --no-print-directory coverage

# Line coverage of the kernel's Python logic: the kernel-level tests (tests/engine/kernel/:
# the kernel's state and streams, its policy scores, its agreement with the reference)
# with numba's JIT off, so that every line numba would compile runs as Python and is
# counted. The thousands of games per preset of the kernel agreement are left out to
# keep the run short; its other tests play every preset, with fewer games.
KERNEL_TESTS := tests/engine/kernel
coverage: $(TEST_STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal -q \
		-W "ignore:overflow encountered:RuntimeWarning" -k "not per_preset" \
		--cov=ludosim/engine --cov-report=term-missing:skip-covered $(KERNEL_TESTS)

bench: $(RUN_STAMP)
	$(BIN)/ludosim bench

# The documentation as a site in site/ (mkdocs.yml: strict, API reference from docstrings).
docs: $(TEST_STAMP)
	$(BIN)/mkdocs build --strict --quiet
	@echo "docs: site/index.html"

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(TEST_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf .pytest_cache .ruff_cache .hypothesis build dist site
