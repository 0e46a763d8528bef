# Plugboard's two commands: `make run` and `make test`. Both install what is missing first, so a fresh
# Debian/Ubuntu machine needs nothing else. Other targets are the pieces they are made of.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# One target dir outside the clone: a clean debug build takes minutes and ~5 GB, so every clone shares it.
CARGO_TARGET_DIR ?= $(HOME)/.cache/plugboard/target
export CARGO_TARGET_DIR
# Node fetched by install-deps.sh when the system one is missing or too old.
export PATH := $(CURDIR)/.tools/node/bin:$(PATH)

# The app serves ui/dist (custom protocol) in every build made here: a plain dev build loads the Vite dev server.
FEATURES := --features custom-protocol
# The window binary, and the `plugboard` command (crates/plugboard-cli: the CLI and `serve`, no GUI linked).
APP_BIN := $(CARGO_TARGET_DIR)/debug/plugboard-desktop
CLI_BIN := $(CARGO_TARGET_DIR)/debug/plugboard
HARNESS := tests/harness/isolated-env.sh
# A private Docker engine (its own dockerd, socket and data root, stopped after) with the test images loaded.
DOCKER_ENGINE := tests/harness/docker-engine.sh
TAURI := ui/node_modules/.bin/tauri

.PHONY: help run test deps deps-tests ui app lint lint-rust lint-ui test-ui test-ui-browser test-rust test-docker conformance test-gateway test-e2e bench-gateway bench-suite bench-calls bench-big bench-cold bench-startup bench-footprint bench-bundle bench-history bench-window bench-ui fuzz-smoke fuzz bench bindings bundle clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | column -t -s $$'\t'

run: deps app ## Install what is missing, build, and open the app
	src-tauri/scripts/launch.sh $(APP_BIN)

test: deps-tests lint test-ui test-ui-browser test-rust conformance test-gateway fuzz-smoke test-e2e ## Install what is missing and run every suite
	@echo "make test: every suite passed"

deps: ## Install missing Debian packages, Node.js and npm packages
	src-tauri/scripts/install-deps.sh

deps-tests: ## deps, plus tauri-driver and cargo-fuzz for the test suites
	src-tauri/scripts/install-deps.sh --for-tests

ui: deps ## Build the web UI into ui/dist
	npm --prefix ui run build

app: ui ## Build the window, the `plugboard` command and the keeper of stdio servers (debug, the window serving ui/dist)
	cargo build $(FEATURES)
	cargo build -p plugboard-cli
	cargo build -p plugboard-core --bin plugboard-keeper

lint: lint-rust lint-ui ## fmt, clippy, tsc and eslint

lint-rust: ui
	cargo fmt --all --check
	cargo clippy --workspace --all-targets $(FEATURES) -- -D warnings

lint-ui:
	npm --prefix ui run typecheck
	npm --prefix ui run lint

test-ui: ## Vitest component tests
	npm --prefix ui test

test-ui-browser: ## Playwright flows and axe checks of the built UI in Debian's Chromium, IPC mocked
	npm --prefix ui run test:browser

test-rust: ui ## Rust unit and integration tests, incl. the keychain, MCP smoke and Docker tests, in the isolated harness beside a private Docker engine
	$(DOCKER_ENGINE) -- $(HARNESS) -- cargo test --workspace $(FEATURES) -- --include-ignored

test-docker: ## Only the Docker servers' tests, against a private Docker engine (part of test-rust)
	$(DOCKER_ENGINE) -- $(HARNESS) -- bash -c 'cargo test -p plugboard-core --lib docker -- --include-ignored \
		&& cargo test -p plugboard-cli --test cli docker_cli -- --include-ignored'

conformance: deps-tests ## The MCP conformance suite's 2025-11-25 and 2026-07-28 requirement sets, their extensions and 13 more auth scenarios, against Plugboard's core (in the harness: the machine logins keep their secrets and tokens in its Secret Service)
	$(HARNESS) -- src-tauri/scripts/conformance.sh

test-gateway: app ## The gateway (serve --stdio and --http) driven by the official TypeScript and Python SDK clients and the conformance suite, real upstreams
	cargo build -p plugboard-testservers --bin plugboard-testserver
	PLUGBOARD_CLI_BIN=$(CLI_BIN) PLUGBOARD_TESTSERVER_BIN=$(CARGO_TARGET_DIR)/debug/plugboard-testserver \
		$(HARNESS) -- npm --prefix tests run gateway

test-e2e: app ## WebDriver end-to-end tests of the real app under Xvfb
	cargo build -p plugboard-testservers --bin plugboard-testserver
	PLUGBOARD_APP_BIN=$(APP_BIN) PLUGBOARD_CLI_BIN=$(CLI_BIN) \
		PLUGBOARD_TESTSERVER_BIN=$(CARGO_TARGET_DIR)/debug/plugboard-testserver \
		$(HARNESS) --webdriver -- npm --prefix tests run e2e

# The suite's parts (plugboard-bench): all of them unless BENCH_PARTS names some.
BENCH_PARTS ?= all

bench: deps bench-suite bench-gateway bench-history bench-window bench-ui ## Every benchmark: Plugboard beside bare rmcp, the SDK clients and a no-SDK floor; the gateway's; the history's; the UI's frame times (release; figures only, never a failure)

# plugboard-core for its keeper: Plugboard runs every stdio server under it, as installed, so the suite does too.
bench-suite: deps ## The suite of issue 17 (BENCH_PARTS=calls-stdio calls-http big-stdio big-http cold startup footprint, or all)
	cargo build --release -p plugboard-bench -p plugboard-testservers -p plugboard-cli -p plugboard-core
	$(HARNESS) -- $(CARGO_TARGET_DIR)/release/plugboard-bench $(BENCH_PARTS)

bench-calls: ## Per call (p50, p99, calls/s, 8 at once) over stdio and Streamable HTTP: floor, rmcp, supervisor, gateway, SDKs
	$(MAKE) bench-suite BENCH_PARTS="calls-stdio calls-http"

bench-big: ## A 5 MiB tool result through each side, stdio and Streamable HTTP
	$(MAKE) bench-suite BENCH_PARTS="big-stdio big-http"

bench-cold: ## Cold use: `plugboard call` beside an rmcp client binary and the SDK clients, start to exit
	$(MAKE) bench-suite BENCH_PARTS=cold

bench-startup: ## 1 and 50 stdio servers connecting at once, and the gateway's memory with 50 Ready
	$(MAKE) bench-suite BENCH_PARTS=startup

bench-footprint: ## The release binaries' and the last .deb's size (no build of the .deb)
	$(MAKE) bench-suite BENCH_PARTS=footprint

bench-bundle: bundle ## Build the .deb (minutes), then measure the footprint with it
	$(MAKE) bench-suite BENCH_PARTS=footprint

bench-window: deps-tests ui ## The window's cold start and memory (PSS, idle and with 10,000 history rows) beside a minimal Tauri 2 window
	cargo build --release $(FEATURES) -p plugboard -p plugboard-minimal-window
	cargo build --release -p plugboard-cli -p plugboard-testservers
	cargo build --release -p plugboard-core --bin plugboard-keeper
	PLUGBOARD_APP_BIN=$(CARGO_TARGET_DIR)/release/plugboard-desktop \
		PLUGBOARD_MINIMAL_WINDOW_BIN=$(CARGO_TARGET_DIR)/release/plugboard-minimal-window \
		PLUGBOARD_CLI_BIN=$(CARGO_TARGET_DIR)/release/plugboard \
		PLUGBOARD_TESTSERVER_BIN=$(CARGO_TARGET_DIR)/release/plugboard-testserver \
		$(HARNESS) --webdriver -- node tests/bench/window.mjs

bench-history: ## The call history's queries over 10,000 rows
	cargo bench -p plugboard-core --bench history

bench-ui: deps ## UI frame times in Chromium, IPC mocked: the Servers page with 200 servers, the console's 10,000 history rows and a 1,000-event stream
	npm --prefix ui run bench:browser

bench-gateway: deps ## The gateway hop and start-up beside a direct SDK client and a bare server (release build)
	cargo build --release -p plugboard-testservers --bin plugboard-testserver
	cargo build --release -p plugboard-cli
	cargo build --release -p plugboard-core --bin plugboard-keeper
	PLUGBOARD_CLI_BIN=$(CARGO_TARGET_DIR)/release/plugboard \
		PLUGBOARD_TESTSERVER_BIN=$(CARGO_TARGET_DIR)/release/plugboard-testserver \
		$(HARNESS) -- node tests/bench/gateway.mjs

fuzz-smoke: ## Every fuzz target for a few seconds (part of make test)
	src-tauri/scripts/fuzz.sh 5

fuzz: ## Every fuzz target for a minute
	src-tauri/scripts/fuzz.sh 60

bindings: ## Regenerate ui/src/ipc/bindings.ts from the Rust commands
	UPDATE_BINDINGS=1 cargo test $(FEATURES) --test app bindings

bundle: deps ## Build a .deb with the Tauri CLI (AppImage is not possible here: it downloads tooling)
	# The `plugboard` command and the keeper of stdio servers go into the .deb beside the window
	# (tauri.conf.json: bundle.linux.deb.files).
	cargo build --release -p plugboard-cli
	cargo build --release -p plugboard-core --bin plugboard-keeper
	mkdir -p src-tauri/bundle-files && cp $(CARGO_TARGET_DIR)/release/plugboard src-tauri/bundle-files/plugboard
	cp $(CARGO_TARGET_DIR)/release/plugboard-keeper src-tauri/bundle-files/plugboard-keeper
	rm -f $(CARGO_TARGET_DIR)/release/bundle/deb/*.deb
	$(TAURI) build --bundles deb
	src-tauri/scripts/ship-deb.sh $(CARGO_TARGET_DIR)/release/bundle/deb/*.deb
	@ls -la $(CARGO_TARGET_DIR)/release/bundle/deb/*.deb

clean: ## Remove build outputs of this clone (the shared target dir stays)
	rm -rf ui/dist tests/output
