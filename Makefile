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
# `make run` listens on every interface, so that the phones at the table reach it.
RUN_BIND := 0.0.0.0
RUN_WORKERS := 4
# `make run HTTPS=1`: https on PORT with a certificate of the table's own authority (kept in the
# instance folder), and on HTTP_PORT (default PORT + 1) the plain-http page that installs it.
HTTPS ?=
HTTP_PORT ?=
PYTEST_ARGS ?=
BENCH_LOAD_ARGS ?=
# How many processes share out the tests of a run (pytest-xdist): `auto` is one a core;
# TEST_WORKERS=0 runs them one after another in pytest's own process.
TEST_WORKERS ?= auto
PYTEST_PARALLEL := -n $(TEST_WORKERS) --dist loadgroup
# The PostgreSQL run goes beside the SQLite run in one process of its own, so that the two
# together keep about one process a core and the browser tests are not starved of time.
POSTGRES_WORKERS ?= 1
# The PostgreSQL run of `make test`: the server the tests make their own database on (one for
# each worker), and the tests that touch a database: the web tests, migrations included, and the
# watcher's page in a browser, which PostgreSQL keeps current by notifications; less the tests
# marked no_database (pages made from the rules alone, the handbook, static files, the
# catalogs...), which send no statement to any database and so would check nothing more there.
# tests/database_use.py counts every test's statements, in both runs: a test marked no_database
# that sends one fails. POSTGRES_URL= skips that run.
POSTGRES_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/postgres
POSTGRES_TESTS ?= tests/web tests/browser/test_sharing_live.py
POSTGRES_SELECTION := -m "not no_database"
TRANSLATIONS := scorekeeper/translations

# apt-get needs root: use sudo when we are not root and sudo exists.
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || { command -v sudo >/dev/null && echo sudo; })
# Wait for another apt/dpkg run to finish instead of failing on its lock.
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900

.PHONY: help venv venv-test engine-native run test test-postgres lint bench bench-load clean system-deps system-test-deps
.PHONY: image test-deploy deploy-deps deploy-base-image lock

help:
	@echo "make run    install, apply migrations, serve on port $(PORT) to the phones on this network"
	@echo "            (gunicorn on $(RUN_BIND)); prints the address to open, with a QR code"
	@echo "            HTTPS=1: https with the table's own certificate authority, and on HTTP_PORT"
	@echo "            (default PORT + 1) the page that installs it on the phones"
	@echo "make test   install with test extras and system packages, run pytest (PYTEST_ARGS=...)"
	@echo "            on SQLite and, at the same time, the tests that touch a database on"
	@echo "            PostgreSQL ($(POSTGRES_URL)) when it answers; TEST_WORKERS processes each"
	@echo "make lint   ruff check, ruff format --check, mypy --strict on the whole package (part of make test)"
	@echo "make bench  run every bench/bench_*.py"
	@echo "make engine-native  compile the engine's hot modules with mypyc (make test and make"
	@echo "            bench do it first); SCOREKEEPER_ENGINE=python runs the engine uncompiled"
	@echo "make bench-load  load test: gunicorn on $(HOST), concurrent clients, bounded run"
	@echo "make image  build the container image (Containerfile) with podman, as $(IMAGE)"
	@echo "make test-deploy  build the image, run two containers of it behind Caddy over https"
	@echo "            on this machine's PostgreSQL, and test them with Chromium (deploy/tests)"
	@echo "make lock   pin the runtime dependencies again, with their hashes, in requirements.lock"
	@echo "make translations  extract every message into messages.pot, merge it into each .po"
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

# The engine's compiled build (scorekeeper/engine/native.py): mypyc, from the test extras,
# compiles the modules a deal's play runs through into C extensions under build/native, again
# whenever an engine module changes. The engine uses the build only while it matches its
# sources; where no C compiler is at hand, it runs as the plain Python it is written in.
ENGINE_BUILD := build/native/sources.sha256
$(ENGINE_BUILD): $(wildcard $(APP)/engine/*.py) $(VENV)/.installed-test
	@mkdir -p build && echo "compiling the engine (mypyc)"
	@$(BIN)/python -W ignore -m $(APP).engine.build_native >build/native.log 2>&1 \
		|| { tail -n 20 build/native.log; \
			echo "the engine's compiled build failed: the engine runs as plain Python"; }

engine-native: $(ENGINE_BUILD)

# Compiles the gettext catalogs; a no-op while no .po file exists.
define compile_translations
	@if compgen -G '$(TRANSLATIONS)/*/LC_MESSAGES/*.po' >/dev/null; then \
		$(BIN)/pybabel -q compile -d $(TRANSLATIONS); \
	fi
endef

# What the app needs from the system: Pango and HarfBuzz's subsetter for WeasyPrint (sheets
# embed only the glyphs they use), and fonts for the score sheets (DejaVu, and Noto CJK for
# Japanese). Installed only when missing.
system-deps:
	@if ldconfig -p | grep -q 'libpangoft2-1.0.so' \
		&& ldconfig -p | grep -q 'libharfbuzz-subset.so' \
		&& [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] \
		&& fc-list :lang=ja 2>/dev/null | grep -q .; then \
		exit 0; \
	fi; \
	$(APT_GET) update && $(APT_GET) install -y libpango-1.0-0 libpangoft2-1.0-0 \
		libharfbuzz-subset0 fontconfig fonts-dejavu-core fonts-noto-cjk

# What the tests need besides: Chromium for the browser tests, pdftoppm to look at sheets,
# msgfmt (gettext) to check the catalogs' format strings, pg_dump for the backups of
# PostgreSQL, PgBouncer to put a transaction pooler in front of it, certutil (libnss3-tools) to
# trust the table's own certificate authority in Chromium.
system-test-deps: system-deps
	@if command -v chromium >/dev/null && command -v pdftoppm >/dev/null \
		&& command -v msgfmt >/dev/null && command -v pg_dump >/dev/null \
		&& [ -x /usr/sbin/pgbouncer ] && command -v certutil >/dev/null; then \
		exit 0; \
	fi; \
	$(APT_GET) update && $(APT_GET) install -y chromium poppler-utils gettext postgresql-client \
		pgbouncer libnss3-tools

run: $(VENV)/.installed system-deps
	$(compile_translations)
	$(BIN)/flask --app $(APP) db upgrade
	$(BIN)/python -m scorekeeper.serve --bind $(RUN_BIND) --port $(PORT) --workers $(RUN_WORKERS) \
		$(if $(HTTPS),--https) $(if $(HTTP_PORT),--http-port $(HTTP_PORT))

# The SQLite run and the PostgreSQL run at once (the machine's cores are shared by both, and
# each waits in turn on browsers, servers and the database): the PostgreSQL run's output is
# printed after the SQLite run's; `make test` fails when either does.
test: $(VENV)/.installed-test system-test-deps lint $(ENGINE_BUILD)
	$(compile_translations)
	@postgres_log=$$(mktemp); trap 'rm -f "$$postgres_log"' EXIT; \
	{ $(postgres_run); } >"$$postgres_log" 2>&1 & postgres=$$!; \
	sqlite_status=0; \
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) $(PYTEST_ARGS) || sqlite_status=$$?; \
	postgres_status=0; wait $$postgres || postgres_status=$$?; \
	cat "$$postgres_log"; \
	if [ "$$sqlite_status" -ne 0 ]; then exit "$$sqlite_status"; fi; \
	exit "$$postgres_status"

# The code's own checks: ruff's rules and its format over everything, the whole package typed
# strictly (the same checks as .pre-commit-config.yaml).
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict $(APP)

# Exits 0 when the database at argv[1] accepts a connection within three seconds.
export POSTGRES_ANSWERS := import sys, sqlalchemy; \
	sqlalchemy.create_engine(sys.argv[1], connect_args={"connect_timeout": 3}).connect().close()

# Runs only when the PostgreSQL server answers; says so when it does not.
define postgres_run
	if [ -z "$(POSTGRES_URL)" ]; then \
		echo "POSTGRES_URL is empty: no PostgreSQL run"; \
	elif ! $(BIN)/python -c "$$POSTGRES_ANSWERS" "$(POSTGRES_URL)" 2>/dev/null; then \
		echo "PostgreSQL does not answer at $(POSTGRES_URL): no PostgreSQL run"; \
	else \
		echo "== the tests that touch a database, on PostgreSQL"; \
		SCOREKEEPER_TEST_DATABASE_URL="$(POSTGRES_URL)" $(BIN)/python -m pytest \
			-n $(POSTGRES_WORKERS) --dist loadgroup $(POSTGRES_TESTS) $(POSTGRES_SELECTION) \
			$(PYTEST_ARGS); \
	fi
endef

test-postgres: $(VENV)/.installed-test
	$(compile_translations)
	@$(postgres_run)

# Extracts the messages of scorekeeper/ and templates/ (babel.cfg says how), merges them into
# every language's messages.po and compiles. New messages arrive empty, never guessed:
# translate them before committing (tests/web/test_i18n.py fails while any is missing).
.PHONY: translations
translations: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg -o $(TRANSLATIONS)/messages.pot --sort-by-file \
		--add-comments=TRANSLATORS: --project=scorekeeper --copyright-holder=scorekeeper .
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) \
		--no-fuzzy-matching --ignore-obsolete
	$(compile_translations)

# Runs every benchmark, even after one misses its target; fails at the end if any did. The
# entry benchmark drives Chromium through Playwright: the test extras and packages.
bench: $(VENV)/.installed-test system-test-deps $(ENGINE_BUILD)
	@missed=""; \
	for script in bench/bench_*.py; do \
		[ -e "$$script" ] || continue; \
		[ "$$script" = bench/bench_load.py ] && continue; \
		echo "== $$script"; \
		$(BIN)/python "$$script" || missed="$$missed $$script"; \
	done; \
	if [ -n "$$missed" ]; then echo "missed a target:$$missed"; exit 1; fi

# A bounded load test (32 clients, 20 s a phase; then the same beside 10 clients fetching PDF
# sheets): gunicorn on $(HOST), PostgreSQL when it answers.
bench-load: $(VENV)/.installed
	$(compile_translations)
	$(BIN)/python bench/bench_load.py $(BENCH_LOAD_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache build *.egg-info tests/artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The container image. podman needs runc and explicit limits on these machines; the base image
# is made from Debian's packages when podman has none (no image registry is needed), and kept.
IMAGE ?= localhost/scorekeeper:latest
BASE_IMAGE := docker.io/library/debian:bookworm-slim
PODMAN := podman --runtime runc
PODMAN_LIMITS := --ulimit nofile=1024:1024 --ulimit nproc=4096:4096
# The authorities this machine trusts, handed to pip in the build (a proxy may sign with its own).
CA_BUNDLE := /etc/ssl/certs/ca-certificates.crt
DEPLOY_TOOLS := podman:podman runc:runc mmdebstrap:mmdebstrap caddy:caddy certutil:libnss3-tools

deploy-deps:
	@missing=""; \
	for tool in $(DEPLOY_TOOLS); do \
		command -v "$${tool%%:*}" >/dev/null || missing="$$missing $${tool#*:}"; \
	done; \
	if [ -n "$$missing" ]; then $(APT_GET) update && $(APT_GET) install -y $$missing; fi

deploy-base-image: deploy-deps
	@if ! $(PODMAN) image exists $(BASE_IMAGE); then \
		workdir=$$(mktemp -d /var/tmp/scorekeeper-base.XXXXXX); \
		trap 'rm -rf "$$workdir"' EXIT; \
		mmdebstrap --variant=minbase bookworm "$$workdir/rootfs.tar" \
			&& $(PODMAN) import "$$workdir/rootfs.tar" $(BASE_IMAGE); \
	fi

image: deploy-base-image
	@started=$$(date +%s); \
	$(PODMAN) build --pull=never --format docker $(PODMAN_LIMITS) \
		$$([ -s $(CA_BUNDLE) ] && echo --secret id=pip-ca,src=$(CA_BUNDLE)) \
		-t $(IMAGE) -f Containerfile . ; \
	echo "image $(IMAGE) built in $$(( $$(date +%s) - started )) s," \
		"$$($(PODMAN) image inspect --format '{{.Size}}' $(IMAGE) | numfmt --to=si)B"

# Runs on 127.0.0.1 only; stops and starts this machine's PostgreSQL cluster for a moment.
test-deploy: IMAGE := localhost/scorekeeper:deploy-test
test-deploy: $(VENV)/.installed-test system-test-deps image
	SCOREKEEPER_DEPLOY_IMAGE=$(IMAGE) $(BIN)/python -m pytest deploy/tests -p no:cacheprovider \
		$(PYTEST_ARGS)

# requirements.lock: every runtime dependency of pyproject.toml pinned, with the hashes of its
# files on PyPI; the image installs from it. pip-tools runs from a virtual environment of its own.
lock: | $(BIN)/python
	@tools=$$(mktemp -d); trap 'rm -rf "$$tools"' EXIT; \
	$(PYTHON) -m venv "$$tools" && "$$tools/bin/pip" install --quiet pip-tools && \
	"$$tools/bin/pip-compile" --quiet --generate-hashes --strip-extras --allow-unsafe \
		--no-emit-find-links --no-emit-index-url --upgrade --output-file requirements.lock \
		pyproject.toml
