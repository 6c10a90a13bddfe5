# Pulldown: `make run` starts the demo server, `make test` runs every test.
# Both install what they need (Debian packages, a local Python environment) first.
SHELL := /bin/bash
PORT ?= 8080
ARGS ?=

.PHONY: run test bench build deps-build deps-test deps-bench test-swift test-js test-live clean

run: deps-build
	swift build -c release --product pulldown
	.build/release/pulldown --port $(PORT) $(ARGS)

build: deps-build
	swift build

test: deps-test build
	$(MAKE) --no-print-directory test-swift test-js test-live

test-swift:
	swift test --parallel

test-js:
	node --test Tests/js/

test-live:
	PULLDOWN_BIN=$(CURDIR)/.build/debug/pulldown .venv/bin/python -m pytest -q Tests/live

# Pulldown against nginx on loopback; ARGS=--quick for a run under two minutes.
bench: deps-bench
	swift build -c release --product pulldown
	.venv/bin/python bench/bench.py $(ARGS)

deps-build:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

deps-bench:
	@scripts/install-deps.sh bench

clean:
	rm -rf .build .venv
