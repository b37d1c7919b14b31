# The two commands a new user runs: `make run` and `make test`.
GO      ?= go
BIN     := bin

.PHONY: build run test test-go bench clean

build:
	$(GO) build -o $(BIN)/ ./cmd/...

# Until the server lands, the main job plays one seeded game between random
# players and prints it.
run: build
	$(BIN)/splendorctl play --players 2 --seed 1

test: test-go

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# Speed is checked by benchmarks, never by timed tests.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./env/...

clean:
	rm -rf $(BIN)
