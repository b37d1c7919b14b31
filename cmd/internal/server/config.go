// Package server serves envs over WebSocket + msgpack (encoding/wire): one
// reader and one writer goroutine per connection, replies in request order,
// batches stepped on a shared worker pool, limits enforced at the edge.
package server

import (
	"log/slog"
	"time"
)

// Config is the server's settings; cmd/splendor-server fills it from
// configs/server.yaml, SPLENDOR_* variables and flags.
type Config struct {
	Listen string // host:port
	// MaxMessageBytes bounds a request frame: a larger one closes the
	// connection (WebSocket close 1009) before it is buffered.
	MaxMessageBytes int64
	// MaxEnvsPerConnection and MaxEnvsTotal bound memory and CPU held by
	// made batches; a make over either is refused with limit_exceeded.
	MaxEnvsPerConnection int
	MaxEnvsTotal         int
	// MaxConnections bounds open connections; more are refused with HTTP 503.
	MaxConnections int
	// IdleTimeout closes a connection that sent no request for this long, so
	// forgotten clients free their envs (0: never).
	IdleTimeout time.Duration
	// PingInterval is how often the server pings; a peer that answers no
	// ping for two intervals is gone (0: no pings).
	PingInterval time.Duration
	// Workers is the number of goroutines stepping envs (0: one per core).
	Workers int
	// Token, when set, must be sent in hello before any other op.
	Token   string
	Logger  *slog.Logger
	Version string // the server's version, announced by hello
}

// writeWait bounds one frame write: a client that stops reading must not
// hold a writer goroutine forever.
const writeWait = 10 * time.Second

func (c *Config) pongWait() time.Duration { return 2 * c.PingInterval }
