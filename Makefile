# The two commands a new user runs: `make run` and `make test`.
GO   ?= go
BIN  := bin
VENV := .venv

# The Python that runs the client, its tests and tools: the project's own
# virtual environment (created on first use, so no system or shared Python is
# touched), unless PYTHON names another (make test PYTHON=python3.12).
ifeq ($(origin PYTHON),undefined)
PYTHON     := $(VENV)/bin/python
PYTHON_ENV := $(VENV)/bin/python
endif

# The networks of the baseline bots evaluate with vector kernels, 16 or 8 wide (env/nets/kernel_simd.go: the same
# bits, 1.7–2.9× as fast) in a build with Go's GOEXPERIMENT=simd (Go 1.26+, amd64), which every go command here gets when
# this Go has it; another Go, or `go install`, builds the Go kernels. A GOEXPERIMENT of your own is kept.
ifeq ($(origin GOEXPERIMENT),undefined)
GOEXPERIMENT := $(shell GOEXPERIMENT=simd $(GO) list simd/archsimd >/dev/null 2>&1 && echo simd)
endif
export GOEXPERIMENT

.PHONY: build run test test-go cc test-python python-client chromium bench wheel clean

build:
	$(GO) build -o $(BIN)/ ./cmd/...

# The main job: the server with the defaults in configs/.
run: build
	$(BIN)/splendor-server --config configs/server.yaml

test: test-go test-python
	@echo "all tests passed; next: 'make run' starts the server, '. $(VENV)/bin/activate' gives you splendor_rl (README)"

# -timeout: on a machine busy with other work the engine suites run for minutes, near go test's 10-minute default.
# The race tests need cgo, so a C compiler: without one make test stops at once, unless RACE=0 skips them.
RACE ?= 1
test-go: $(if $(filter 1,$(RACE)),cc)
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./...
	GOEXPERIMENT= $(GO) test -count=1 ./env/nets/ # the Go kernels, as a build without the experiment has them
	$(if $(filter 1,$(RACE)),$(GO) test -count=1 -timeout 30m -race ./env/ ./cmd/internal/server/,@echo "RACE=0: the race tests (go test -race) were skipped")

cc:
	@set -- $$($(GO) env CC); command -v "$$1" >/dev/null || { echo "make test needs a C compiler for go test -race (Debian: apt-get install gcc), or RACE=0 to skip the race tests"; exit 1; }

$(VENV)/bin/python:
	python3 -m venv $(VENV) || { echo "make test needs Python's venv module (Debian: apt-get install python3-venv), or PYTHON=<your python>"; exit 1; }

# The client with its test extras (PyTorch is large: pip shows its progress).
python-client: $(PYTHON_ENV)
	$(PYTHON) -m pip install --progress-bar on -e 'python_client[test,rllib]'

# The viewer's browser tests (python_client/tests/test_viewer.py) drive Debian's chromium, installed here when
# missing: Playwright is told to use it, so no browser is downloaded from anywhere else.
chromium:
	@test -x /usr/bin/chromium || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } \
		|| { echo "the viewer's browser tests need Debian's chromium: run 'apt-get install chromium' as root"; exit 1; }

# The Python client against the real server binary.
test-python: build python-client chromium
	SPLENDOR_SERVER_BIN=$(CURDIR)/$(BIN)/splendor-server SPLENDOR_EXPECT_VENV=$(if $(PYTHON_ENV),$(CURDIR)/$(VENV)) \
		$(PYTHON) -m pytest -q python_client/tests

# Speed is checked by benchmarks, never by timed tests.
bench: build python-client
	$(GO) test -run '^$$' -bench . -benchmem ./env/... ./cmd/internal/server/
	$(GO) run ./cmd/splendorctl bench --mode inproc --seconds 3
	$(GO) run ./cmd/splendorctl bench --mode wire --seconds 3
	SPLENDOR_SERVER_BIN=$(CURDIR)/$(BIN)/splendor-server $(PYTHON) -m splendor_rl.bench --seconds 3

# A wheel of splendor_rl that carries both binaries, for machines without Go: python_client/hatch_build.py
# cross-compiles and tags it, for this machine's architecture unless WHEEL_ARCHS names others (amd64 arm64: one
# wheel each). pip fetches the build backend (hatchling) for its isolated build.
WHEEL_ARCHS ?= $(shell $(GO) env GOARCH)
WHEEL_DIR   ?= dist
wheel: $(PYTHON_ENV)
	for arch in $(WHEEL_ARCHS); do \
		SPLENDOR_WHEEL_GOARCH=$$arch GO=$(GO) $(PYTHON) -m pip wheel -q --no-deps -w $(WHEEL_DIR) ./python_client || exit 1; \
	done
	@ls -l $(WHEEL_DIR)/*.whl
	@echo "next, on the machine that trains: pip install '$$(ls -t $(WHEEL_DIR)/*.whl | head -1)[train]' (extras: docs/python.md)"

clean:
	rm -rf $(BIN) $(WHEEL_DIR)
