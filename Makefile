# Pulldown: `make run` starts the demo server, `make test` runs every test.
# Both install what they need (Debian packages, a local Python environment) first.
SHELL := /bin/bash
PORT ?= 8080
ARGS ?=
# The release binary links the Swift runtime and Foundation statically: shared, they are
# relocated at load and cost about 8 MB more resident memory (docs/performance.md).
RELEASE_BUILD := swift build -c release --product pulldown --static-swift-stdlib

.PHONY: run test test-repeat bench compare instructions soak build public postgres-demo deps-build deps-test deps-bench test-swift test-js test-live clean

# The page is served bundled (.build/public, what users get); `--public Public` serves the sources as they are.
run: deps-build public
	$(RELEASE_BUILD)
	.build/release/pulldown --port $(PORT) --public .build/public $(ARGS)

build: deps-build public
	swift build

# Public/ bundled and minified by esbuild into .build/public.
public: deps-build
	scripts/build-public.sh

# The tests get a throwaway PostgreSQL (PULLDOWN_TEST_POSTGRES_URL), stopped by PID at the end.
test: deps-test build
	scripts/postgres.sh run -- $(MAKE) --no-print-directory test-swift test-js test-live

# A suite N times in a row, counting green and red runs; the last BUSY of them with every core
# kept busy by stress-ng. WHAT is swift, live or all. Example: make test-repeat N=30 WHAT=swift BUSY=10
N ?= 10
WHAT ?= all
BUSY ?= 0
test-repeat: deps-test build
	scripts/repeat.sh $(N) $(WHAT) $(BUSY)

# swift test builds what it tests first, so the tests are never older than the sources.
test-swift: deps-build
	swift test --parallel

test-js:
	node --test Tests/js/

# Against the bundled page: the browser tests see what users get. Both are built first, so a
# stale binary or page is never what is tested.
test-live: deps-test build
	PULLDOWN_BIN=$(CURDIR)/.build/debug/pulldown PULLDOWN_PUBLIC=$(CURDIR)/.build/public .venv/bin/python -m pytest -q Tests/live

# Pulldown against nginx on loopback; ARGS=--quick for a run under two minutes.
bench: deps-bench public
	$(RELEASE_BUILD)
	.venv/bin/python bench/bench.py $(ARGS)

# Two builds against each other on the wall clock, alternating (bench/compare.py),
# e.g. ARGS="old/pulldown .build/release/pulldown".
compare: deps-bench public
	$(RELEASE_BUILD)
	.venv/bin/python bench/compare.py $(ARGS)

# Instructions per request under callgrind: the same on every run, to compare two builds exactly
# (bench/instructions.py). ARGS passes builds and options, e.g. ARGS="old/pulldown .build/release/pulldown".
instructions: deps-bench public
	$(RELEASE_BUILD)
	.venv/bin/python bench/instructions.py $(ARGS)

# The longer reliability suite, a few minutes (docs/reliability.md); not part of `make test`.
# ARGS passes options through, e.g. ARGS="--duration 20 --crash-rounds 2".
soak: deps-test public
	$(RELEASE_BUILD)
	PULLDOWN_BIN=$(CURDIR)/.build/release/pulldown PULLDOWN_PUBLIC=$(CURDIR)/.build/public .venv/bin/python soak/soak.py $(ARGS)

# A throwaway PostgreSQL and two instances on it, on PORT and PORT+1, serving the bundled page as
# `make run` does; Ctrl-C stops everything.
postgres-demo: public
	@scripts/install-deps.sh postgres
	$(RELEASE_BUILD)
	scripts/postgres.sh demo $(PORT)

deps-build:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

deps-bench:
	@scripts/install-deps.sh bench

clean:
	rm -rf .build .venv
