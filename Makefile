# The two commands a new user runs: `make run` and `make test`.
GO      ?= go
PYTHON  ?= python3
BIN     := bin

.PHONY: build run test test-go test-python bench clean

build:
	$(GO) build -o $(BIN)/ ./cmd/...

# The main job: the server with the defaults in configs/.
run: build
	$(BIN)/splendor-server --config configs/server.yaml

test: test-go test-python

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -race ./env/ ./cmd/internal/server/

# The Python client against the real server binary.
test-python: build
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e 'python_client[test]'
	SPLENDOR_SERVER_BIN=$(CURDIR)/$(BIN)/splendor-server $(PYTHON) -m pytest -q python_client/tests

# Speed is checked by benchmarks, never by timed tests.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./env/... ./cmd/internal/server/
	$(GO) run ./cmd/splendorctl bench --mode inproc --seconds 3
	$(GO) run ./cmd/splendorctl bench --mode wire --seconds 3
	$(PYTHON) -m splendor_rl.bench --seconds 3

clean:
	rm -rf $(BIN)
