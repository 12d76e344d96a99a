# Every target works from a fresh clone: the first one that needs Python builds .venv.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SOL    ?=
PROBLEM ?=
TESTS  ?=
ALL    ?=
JSON   ?=
JUDGE_FLAGS = $(if $(PROBLEM),--problem $(PROBLEM)) $(if $(TESTS),--tests $(TESTS)) $(if $(ALL),--all) $(if $(JSON),--json)

.PHONY: all judge test lint testcases verify bench clean start problems history serve serve-class compiled

all: test

# pip's and setuptools' notes go to a log, shown only when the installation fails.
$(STAMP): pyproject.toml
	@echo "building $(VENV) (pip's log: $(VENV)/install.log)"
	@$(PYTHON) -m venv $(VENV)
	@{ $(PY) -m pip install -q --upgrade pip && $(PY) -m pip install -q -e '.[test,web,queue]'; } \
		>$(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $(STAMP)

# The project's own modules compiled ahead (where PYTHONDONTWRITEBYTECODE is set, every run would
# compile them again); the fork server's with hash-checked bytecode, valid for the copies of its
# files inside the sandbox, whatever their time stamps.
compiled: $(STAMP)
	@$(PY) -m compileall -q judge sandbox grading problems coach testcases serving web classroom >/dev/null
	@$(PY) -m compileall -q --invalidation-mode checked-hash sandbox/inside >/dev/null

## make judge SOL=file.py [PROBLEM=gqa] [TESTS="001 004"] [ALL=1] [JSON=1]: judge one file;
## with no SOL, every bundled submission.
judge: compiled
ifeq ($(strip $(SOL)),)
	@$(PY) -m judge --bundled $(if $(PROBLEM),--problem $(PROBLEM))
else
	@$(PY) -m judge $(SOL) $(JUDGE_FLAGS)
endif

## make start PROBLEM=gqa: a starter file practice/<slug>.py (never over an existing one).
start: compiled
	@$(PY) -m judge start $(or $(PROBLEM),$(error give PROBLEM=<slug or id>, e.g. PROBLEM=gqa; make problems lists them))

## make problems [TAG=efficiency]: every problem (or those with the tag), easiest first, with its tags, your status, attempts, best time and last verdict.
problems: compiled
	@$(PY) -m judge list $(if $(TAG),--tag $(TAG))

## make history [PROBLEM=gqa]: your judgings, oldest first.
history: compiled
	@$(PY) -m judge history $(PROBLEM)

## make test: the whole test suite (validator on every stored test included).
test: compiled
	$(PY) -m pytest

## make lint: ruff (lint, import order) and mypy over the packages; CI runs it before the tests.
## sandbox/inside/ is checked on its own, as the fork server imports it: by bare module names;
## grading/ and the protocol (the judging's result and the run's header) also with --strict.
INSIDE_MODULES := $(patsubst sandbox/inside/%.py,%,$(filter-out %/__init__.py,$(wildcard sandbox/inside/*.py)))
lint: $(STAMP)
	$(PY) -m ruff check
	$(PY) -m mypy
	MYPYPATH=sandbox/inside $(PY) -m mypy $(addprefix -m ,$(INSIDE_MODULES))
	$(PY) -m mypy --strict --follow-imports=silent grading sandbox/inside/protocol.py

## make testcases [PROBLEM=window]: regenerate every problem's (or one's) stored tests and statement blocks.
testcases: compiled
	$(PY) -m testcases $(or $(PROBLEM),all)

## make verify [PROBLEM=window]: prove every problem package (or one) with the bundled submissions.
verify: compiled
	$(PY) -m testcases.verify $(PROBLEM)

## make serve [PORT=8000] [HOST=127.0.0.1]: the practice web page; open the URL it prints.
serve: compiled
	@$(PY) -m judge serve $(if $(PORT),--port $(PORT)) $(if $(HOST),--host $(HOST))

## make serve-class CLASS=DIR [PORT=8000] [HOST=127.0.0.1] [QUEUE_FILE=file holding redis://...]: a
## class's server (accounts: python -m judge class add-users DIR users.csv; docs/classroom.md).
serve-class: compiled
	@$(PY) -m judge serve --class $(or $(CLASS),$(error give CLASS=<the class folder>)) $(if $(PORT),--port $(PORT)) \
		$(if $(HOST),--host $(HOST)) $(if $(QUEUE_FILE),--queue-file $(QUEUE_FILE)) $(if $(QUEUE),--queue $(QUEUE))

## make bench: judge overhead against the floor (and a class's warm worker), side by side; then a
## class's mixed load: judgings per minute per core, latency p50/p95.
bench: compiled
	$(PY) bench/judge_overhead.py
	$(PY) bench/class_load.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
