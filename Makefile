# The whole set-up on a fresh machine: `make demo` and `make test`.
# `make demo` installs only what running fracas needs; `make test` adds the development
# tools (pytest, Hypothesis, ruff, mypy, jsonschema, Dask). One stamp for each.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench schemas clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(RUN_STAMP)
	$(BIN)/fracas demo

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: $(STAMP)
	for f in benchmarks/*.py; do $(BIN)/python $$f || exit 1; done

# Rewrite schemas/<id>.json after changing a sheet, options or defaults model.
schemas: $(RUN_STAMP)
	$(BIN)/fracas schema --out schemas

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
