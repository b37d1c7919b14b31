// Command splendor-server serves the registered envs (splendor-v1, …) over
// WebSocket + msgpack (encoding/wire/PROTOCOL.md). Settings: configs/server.yaml
// (--config) < SPLENDOR_* environment < flags. SIGTERM or SIGINT drains it.
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/duelenv"     // registers splendor-duel-v1
	_ "github.com/splendor-rl/splendor/env/splendorenv" // registers splendor-v1
)

const version = "0.1.0"

// shutdownGrace bounds how long a drain waits for connections to finish.
const shutdownGrace = 30 * time.Second

var stderrWriter io.Writer = os.Stderr

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "splendor-server:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends, then drains.
func run(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := loadConfig(args, stderrWriter)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	srv := server.New(cfg)
	addr := ln.Addr().String()
	fmt.Fprintf(out, "splendor-server %s listening on ws://%s/ws (health: http://%s/healthz)\n", version, addr, addr)
	fmt.Fprintf(out, "envs: %s; protocol: encoding/wire/PROTOCOL.md; stop with Ctrl-C\n", strings.Join(env.IDs(), ", "))
	fmt.Fprintf(out, "python: splendor_rl.make_vec(\"splendor-v1\", num_envs=64, url=\"ws://%s/ws\")\n", addr)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(out, "draining…")
	drainCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(drainCtx); err != nil {
		return err
	}
	return <-served
}
