# The whole set-up on a fresh machine: `make demo` and `make test`.
# `make demo` installs only what running fracas needs; `make test` adds the development
# tools (pytest with pytest-xdist, Hypothesis, ruff, mypy, jsonschema, Dask). One stamp for each.
# The tests run on every core (pytest -n auto): each test starts its own servers and files.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed

.PHONY: demo serve test system-deps lint typecheck pytest bench schemas clean

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

serve: $(RUN_STAMP)
	$(BIN)/fracas serve --db fracas-demo.sqlite3 --example tristat/duel-fight.yaml

# The web tracker's tests drive Debian's chromium and start a throwaway PostgreSQL:
# install them once when missing (CI runs as root on a fresh machine).
system-deps:
	@if [ ! -x /usr/bin/chromium ] || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium postgresql; \
	fi

test: $(STAMP) system-deps
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -n auto

bench: $(STAMP)
	for f in benchmarks/*.py; do $(BIN)/python $$f || exit 1; done

# Rewrite schemas/<id>.json after changing a sheet, options or defaults model.
schemas: $(RUN_STAMP)
	$(BIN)/fracas schema --out schemas

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache fracas-demo.sqlite3*
