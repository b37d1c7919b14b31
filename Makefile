# The two commands a new user runs: `make run` and `make test`.
GO      ?= go
BIN     := bin

.PHONY: build run test test-go bench clean

build:
	$(GO) build -o $(BIN)/ ./cmd/...

# The main job: the server with the defaults in configs/.
run: build
	$(BIN)/splendor-server --config configs/server.yaml

test: test-go

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# Speed is checked by benchmarks, never by timed tests.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./env/...

clean:
	rm -rf $(BIN)
