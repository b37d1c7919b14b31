// Command splendor-server serves the registered envs (splendor-v1, …) over
// WebSocket + msgpack (encoding/wire/PROTOCOL.md). Settings: configs/server.yaml
// (--config) < SPLENDOR_* environment < flags. SIGTERM or SIGINT drains it.
package main

import (
	"context"
	"errors"
	"fmt"
	release "github.com/splendor-rl/splendor/cmd/internal/version"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/duelenv"     // registers splendor-duel-v1
	_ "github.com/splendor-rl/splendor/env/splendorenv" // registers splendor-v1
)

// version is what --version prints (and the server's hello announces).
const version = release.Version

// docs is where a user reads the documents the start lines name.
const docs = release.Docs

var stderrWriter io.Writer = os.Stderr

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	switch {
	case errors.Is(err, errHelp):
		fmt.Print(usage())
	case errors.Is(err, errVersion):
		fmt.Println("splendor-server", version)
	case errors.As(err, &usageError{}):
		fmt.Fprintln(os.Stderr, "splendor-server:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "splendor-server:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends (or, with --exit-on-stdin-close, stdin does),
// then drains within shutdown_grace.
func run(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := loadConfig(args)
	if err != nil {
		return err
	}
	loaded, err := server.LoadBaselines(cfg.baselines)
	if err != nil {
		return err
	}
	if cfg.exitOnStdinClose {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	srv := server.New(cfg.Config)
	announce(out, ln.Addr().String(), loaded)
	limitMemory(out, cfg.Config)
	if cfg.pprofListen != "" {
		stopProfiling, err := serveProfiling(cfg.pprofListen, out)
		if err != nil {
			return err
		}
		defer stopProfiling()
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(out, "draining…")
	drainCtx, cancel := context.WithTimeout(context.Background(), cfg.shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(drainCtx); err != nil {
		return err
	}
	return <-served
}

// announce prints where the server listens (its first line, which the
// Python client's LocalServer reads), how to connect, and the baseline
// networks loaded.
func announce(out io.Writer, addr string, baselines []string) {
	fmt.Fprintf(out, "splendor-server %s listening on ws://%s/ws (health: http://%s/healthz, metrics: /metrics)\n", version, addr, addr)
	fmt.Fprintf(out, "envs: %s; protocol: %sencoding/wire/PROTOCOL.md; stop with Ctrl-C\n", strings.Join(env.IDs(), ", "), docs)
	fmt.Fprintf(out, "python: splendor_rl.make_vec(\"splendor-v1\", num_envs=64, url=\"ws://%s/ws\")\n", addr)
	fmt.Fprintf(out, "viewer: http://%s/ (replays and games against the bots in a browser, %sdocs/viewer.md)\n", addr, docs)
	if len(baselines) == 0 {
		baselines = []string{"none"}
	}
	fmt.Fprintf(out, "baseline bots: %s (%sdocs/bots.md)\n", strings.Join(baselines, ", "), docs)
}

// limitMemory states the worst case the limits allow, and asks the Go
// runtime to collect garbage harder as the heap nears a quarter above what
// the server may commit (max_memory, or else that worst case): otherwise
// the heap may grow to twice what is live before a collection.
func limitMemory(out io.Writer, cfg server.Config) {
	worst := server.WorstCaseMemory(cfg)
	committed := worst
	budget := "no max_memory"
	if cfg.MaxMemory > 0 {
		committed = min(worst, cfg.MaxMemory)
		budget = fmt.Sprintf("max_memory %.2f GiB", float64(cfg.MaxMemory)/(1<<30))
	}
	debug.SetMemoryLimit(committed + committed/4)
	fmt.Fprintf(out, "memory: at most %.2f GiB committed with these limits (%s)\n", float64(worst)/(1<<30), budget)
}

// serveProfiling serves net/http/pprof on its own loopback address, apart
// from the clients' port: profiles show the server's insides.
func serveProfiling(addr string, out io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pprof_listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Fprintf(out, "pprof: http://%s/debug/pprof/\n", ln.Addr())
	return func() { _ = srv.Close() }, nil
}
