# treegames: `make serve` starts the dashboards, `make test` runs every test. Both set everything up first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8866
CHROMIUM ?= /usr/bin/chromium

.PHONY: serve test lint bench venv chromium clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

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

serve: venv
	@echo "Dashboards: http://127.0.0.1:$(PORT)/voila/render/index.ipynb   (Ctrl-C stops the server)"
	$(BIN)/voila notebooks --no-browser --port=$(PORT) --Voila.ip=127.0.0.1 \
		--VoilaConfiguration.show_tracebacks=False --VoilaConfiguration.preheat_kernel=True \
		--VoilaConfiguration.default_pool_size=1 \
		--MappingKernelManager.cull_idle_timeout=900 --MappingKernelManager.cull_interval=60

lint: venv
	$(BIN)/ruff check widgets tests benchmarks notebooks

test: venv chromium lint
	$(BIN)/python -m pytest tests notebooks --nbval-lax -p no:cacheprovider

bench: venv chromium
	@set -e; for script in benchmarks/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script; done

clean:
	rm -rf $(VENV) artifacts .pytest_cache .hypothesis
