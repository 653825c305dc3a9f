# treegames: `make serve` starts the dashboards, `make test` runs every test. Both set everything up first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make serve` runs from a runtime-only environment (no pytest, Playwright, hypothesis or ruff).
SERVE_VENV := $(VENV)/runtime
SERVE_STAMP := $(SERVE_VENV)/.installed
# JupyterHub's proxy (configurable-http-proxy) from npm, kept inside the project for the hub test.
NODE_PREFIX := $(VENV)/node
CHP := $(NODE_PREFIX)/node_modules/.bin/configurable-http-proxy
PORT ?= 8866
HOST ?= 127.0.0.1
# Kernels made ready for today's class before it arrives, e.g. CLASS="bosk/play.ipynb=30" (space-separated).
CLASS ?=
# More options for `treegames serve`, e.g. SERVE_ARGS="--no-preheat" or SERVE_ARGS="--store postgresql://...".
SERVE_ARGS ?=
CHROMIUM ?= /usr/bin/chromium
# Python may cache compiled modules even where the machine says not to (PYTHONDONTWRITEBYTECODE=1, as in many
# container images): the caches go to __pycache__ folders git ignores. Without them every pytest process
# rewrites every test module's asserts anew (9 of the 13 CPU-s it takes to collect the suite, each time).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: serve serve-env test test-quick test-pooled lint bench venv chromium postgres hub-proxy binder-env pictures clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,hub,openspiel]'
	@touch $(STAMP)

serve-env: $(SERVE_STAMP)

$(SERVE_STAMP): pyproject.toml
	@test -x $(SERVE_VENV)/bin/python || $(PYTHON) -m venv $(SERVE_VENV)
	$(SERVE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SERVE_VENV)/bin/python -m pip install --quiet -e .
	@touch $(SERVE_STAMP)

chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
		echo "Chromium: $(CHROMIUM)"; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's chromium for the browser tests..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "The browser tests need Debian's Chromium at $(CHROMIUM)."; \
		echo "Install it with:  sudo apt-get install chromium"; \
		exit 1; \
	fi

# The shared-table store's PostgreSQL tests start a real server (initdb/pg_ctl in a temporary folder).
postgres:
	@if ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null; then \
		echo "PostgreSQL: $$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)"; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's postgresql for the store tests..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else \
		echo "The PostgreSQL store tests need Debian's postgresql (sudo apt-get install postgresql)"; exit 1; \
	fi

hub-proxy: $(CHP)

# The Binder test's environment, built from binder/requirements.txt alone (cached under artifacts/ by the pins).
binder-env: venv
	@$(BIN)/python tests/binder_env.py

$(CHP):
	@if ! command -v npm >/dev/null; then \
		if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
			echo "Installing Debian's npm for JupyterHub's proxy..."; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; \
		else \
			echo "The JupyterHub test needs npm (sudo apt-get install npm)"; exit 1; \
		fi; \
	fi
	npm install --silent --no-audit --no-fund --prefix $(NODE_PREFIX) configurable-http-proxy@5
	@test -x $(CHP)

# HOST=0.0.0.0 serves every network interface (the launcher prints what that exposes);
# if PORT is taken the next free one is used and the real URL is printed.
# A thin wrapper over the package's own command (`pip install treegames` then `treegames serve` does the same).
serve: serve-env
	$(SERVE_VENV)/bin/treegames serve --notebooks notebooks --host=$(HOST) --port=$(PORT) \
		$(foreach page,$(CLASS),--class=$(page)) $(SERVE_ARGS)

lint: venv
	$(BIN)/ruff check widgets tests benchmarks notebooks

# Every test: first all but the `machine` ones on every core (pytest-xdist), listing the 25 slowest with
# the total time; then the `machine` ones (a class arriving, soaks) alone on the machine, one at a time.
PYTEST := $(BIN)/python -m pytest -p no:cacheprovider
# One worker more than the machine has cores: a browser test often waits on a page, a kernel or a server, and
# the extra worker fills that time (measured on 2 cores: 93% busy and 520 s for the parallel part, against 76%
# and 606 s with one worker per core, the same 2,266 tests green).
CORES := $(shell nproc 2>/dev/null || echo 1)
WORKERS ?= $(shell echo $$(( $(CORES) + 1 )))
PARALLEL ?= -n $(WORKERS) --dist loadgroup --no-loadscope-reorder
QUICK := not browser and not server and not postgres and not machine and not slow
# Folders whose every test tests/conftest.py marks browser or server: the quick tier does not even import them.
QUICK_SKIPS := --ignore=tests/browser --ignore=tests/serving --ignore=tests/tables_serve

test: venv chromium postgres hub-proxy binder-env lint
	@$(PYTEST) tests notebooks --nbval-lax $(PARALLEL) -m "not machine" --durations=25; parallel=$$?; \
	$(PYTEST) tests -m machine --durations=5; alone=$$?; \
	test $$parallel -eq 0 -a $$alone -eq 0

# The inner loop: lint, then the engines' and units' tests (no browser, server, PostgreSQL or slow test),
# one worker per core, since nothing here waits on a page or a server (with QUICK_SKIPS, 12-16% quicker than
# one worker more and every folder, in two alternating pairs).
test-quick: venv lint
	$(PYTEST) tests $(QUICK_SKIPS) -n $(CORES) --dist loadgroup --no-loadscope-reorder -m "$(QUICK)" --durations=10

# The browser tests that share the session's class server, on pages from its preheated pools instead of
# kernels started on arrival (a pooled page must behave as a cold one; tests/browser/conftest.py).
test-pooled: venv chromium
	TREEGAMES_TEST_POOLED=1 $(PYTEST) tests/browser $(PARALLEL) -m "browser and not machine" --durations=10

bench: venv chromium postgres
	@set -e; for script in benchmarks/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script; done

# The README's pictures (tools/make_pictures.py drives Chromium over the dashboards).
pictures: venv chromium
	@if [ -f tools/make_pictures.py ]; then $(BIN)/python tools/make_pictures.py; \
	else echo "tools/make_pictures.py is not there yet: nothing to do"; fi

clean:
	rm -rf $(VENV) artifacts .pytest_cache .hypothesis build dist
