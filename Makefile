# Pulldown: `make run` starts the demo server, `make test` runs every test.
# Both install what they need (Debian packages, a local Python environment) first.
SHELL := /bin/bash
PORT ?= 8080
ARGS ?=

.PHONY: run test build deps-build deps-test test-swift test-js test-live clean

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

deps-build:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

clean:
	rm -rf .build .venv
