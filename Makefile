# Two entry points for a fresh machine (see README):
#   make demo   set up, then run the main job on the bundled sample site (offline)
#   make test   set up, then run the test suite
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test bench bench-quick clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --upgrade pip

# torch (CPU build) must be installed before sentence-transformers, or pip
# resolves a multi-GB CUDA build.
$(VENV)/.installed: pyproject.toml $(BIN)/python | $(VENV)/.system-deps
	$(BIN)/pip install "torch==2.13.0"
	$(BIN)/pip install -e ".[st,dev,aws]"
	touch $@

# Debian packages: a CJK font for the release plots (cdtp release), redis-server
# for the shared crawl frontier tests. Needs apt-get and root; otherwise it says
# what is skipped (those tests then skip with the same reason) and goes on.
SYSTEM_PACKAGES := fonts-noto-cjk redis-server
$(VENV)/.system-deps: $(BIN)/python
	@if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES) && touch $@; } \
	    || echo "make: apt-get install $(SYSTEM_PACKAGES) failed: release plots and the Redis crawl tests will skip" >&2; \
	else \
	  echo "make: not installing $(SYSTEM_PACKAGES) (needs apt-get and root): release plots and the Redis crawl tests will skip; install them yourself to run them" >&2; \
	fi

demo: $(VENV)/.installed
	$(BIN)/cdtp demo --out out/demo

test: $(VENV)/.installed
	TMPDIR=$${TMPDIR:-/tmp} $(BIN)/python -m pytest -q -rs

# Writes bench/results/<date>.json and .md (figures, targets, machine, versions).
# `make bench BENCH_ARGS=--quick` (or `make bench-quick`) checks the harness in minutes.
BENCH_ARGS ?=
bench: $(VENV)/.installed
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)

bench-quick: $(VENV)/.installed
	$(BIN)/python -m benchmarks.run --quick

clean:
	rm -rf out build *.egg-info
