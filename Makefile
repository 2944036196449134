# ludosim: `make run` and `make test` work on a fresh machine with python3 (3.11+).
# .venv is created on first use; packages are reinstalled only when pyproject.toml changes
# (stamp files in .venv).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
SEED ?= 7
PYTEST_WORKERS ?= 2

.PHONY: run test verify bench lint format clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(RUN_STAMP)

# The main job on its default: one seeded game of every preset, turn by turn.
run: $(RUN_STAMP)
	@for preset in $$($(PY) -c "import ludosim; print(' '.join(ludosim.presets()))"); do \
		echo "=== ludosim play --preset $$preset --seed $(SEED)"; \
		$(BIN)/ludosim play --preset $$preset --seed $(SEED) || exit $$?; \
	done

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n $(PYTEST_WORKERS)

verify: $(TEST_STAMP)
	LUDOSIM_VERIFY=1 $(BIN)/pytest -n $(PYTEST_WORKERS)

bench: $(RUN_STAMP)
	$(BIN)/ludosim bench

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(TEST_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf .pytest_cache .ruff_cache .hypothesis build dist
