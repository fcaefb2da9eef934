# GNU make. Every target is safe to rerun: the virtual environment is reinstalled only
# when pyproject.toml changes, and system packages are installed only when missing.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
APP := scorekeeper
HOST := 127.0.0.1
PORT := 5000
PYTEST_ARGS ?=
TRANSLATIONS := scorekeeper/translations

# apt-get needs root: use sudo when we are not root and sudo exists.
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || { command -v sudo >/dev/null && echo sudo; })
# Wait for another apt/dpkg run to finish instead of failing on its lock.
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900

.PHONY: help venv venv-test run test bench clean system-test-deps

help:
	@echo "make run    install, apply migrations, serve http://$(HOST):$(PORT)"
	@echo "make test   install with test extras and system packages, run pytest (PYTEST_ARGS=...)"
	@echo "make bench  run every bench/bench_*.py"
	@echo "make clean  remove .venv and caches"

$(BIN)/python:
	@if ! $(PYTHON) -c 'import ensurepip, venv' 2>/dev/null; then \
		$(APT_GET) update && $(APT_GET) install -y python3-venv; \
	fi
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(VENV)/.installed

venv-test: $(VENV)/.installed-test

# Compiles the gettext catalogs; a no-op while no .po file exists.
define compile_translations
	@if compgen -G '$(TRANSLATIONS)/*/LC_MESSAGES/*.po' >/dev/null; then \
		$(BIN)/pybabel -q compile -d $(TRANSLATIONS); \
	fi
endef

system-test-deps:
	@if command -v chromium >/dev/null && command -v pdftoppm >/dev/null \
		&& [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then \
		exit 0; \
	fi; \
	$(APT_GET) update && $(APT_GET) install -y chromium poppler-utils fonts-dejavu-core

run: $(VENV)/.installed
	$(compile_translations)
	$(BIN)/flask --app $(APP) db upgrade
	$(BIN)/flask --app $(APP) run --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-test system-test-deps
	$(compile_translations)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.installed
	@for script in bench/bench_*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		$(BIN)/python "$$script"; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache build *.egg-info tests/artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
