// Package server serves envs over WebSocket + msgpack (encoding/wire): one
// reader and one writer goroutine per connection, replies in request order,
// batches stepped on a shared worker pool, limits enforced at the edge, and
// every byte a connection holds bounded by them (memory.go).
package server

import (
	"log/slog"
	"runtime"
	"time"

	"github.com/splendor-rl/splendor/env"
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
	// MaxConnections bounds open connections, upgrading ones included; more
	// are refused with HTTP 503.
	MaxConnections int
	// MaxMemory, when positive, bounds the bytes the server commits to
	// connections and envs (memory.go); a make past it is refused with
	// limit_exceeded, a connection with HTTP 503.
	MaxMemory int64
	// MaxSearchIterations, when positive, bounds the mcts iterations one
	// request may run over all its envs: a bot_actions, or a step or reset of
	// a batch whose vs-bots seats search (checked when it is made). Over it
	// is limit_exceeded, so that no request holds the cores for minutes.
	MaxSearchIterations int64
	// MaxSearchMemory bounds the bytes the guided searches waiting for
	// their evaluations may hold, all connections together
	// (bots.GuidedBytes per env, reserved by search until it ends); a
	// search past it is refused with limit_exceeded.
	MaxSearchMemory int64
	// SearchTimeout ends a guided search whose client sent no evaluations
	// for this long, giving its memory back (0: a minute).
	SearchTimeout time.Duration
	// IdleTimeout closes a connection that sent no request for this long even
	// though it answers pings, so that forgotten clients free their envs
	// (0: never; dead peers are found by pings).
	IdleTimeout time.Duration
	// PingInterval is how often the server pings; a peer that answers no
	// ping for two intervals is gone (0: no pings).
	PingInterval time.Duration
	// HelloTimeout bounds how long a connection may stay without a
	// successful hello when a token is set.
	HelloTimeout time.Duration
	// HandshakeTimeout bounds reading an HTTP request's header and the
	// WebSocket handshake, so that half-sent requests do not hold sockets
	// (0: 5 s).
	HandshakeTimeout time.Duration
	// AllowedHosts are the host names (besides localhost and IP addresses)
	// a request's Host header may carry: a name outside the list is a DNS
	// rebinding attempt. "*" allows any.
	AllowedHosts []string
	// Workers is the number of goroutines stepping envs (0: one per core).
	Workers int
	// SearchSlots is how many mcts searches run at once, apart from the
	// workers (0: one fewer than the workers, at least one): the share of
	// the cores searches may take while steps keep the rest.
	SearchSlots int
	// Token, when set, must be sent in hello before any other op.
	Token   string
	Logger  *slog.Logger
	Version string // the server's version, announced by hello
}

const (
	// writeWait bounds one frame write, plus a second per MiB of the frame:
	// a client that stops reading must not hold a writer goroutine forever.
	writeWait               = 10 * time.Second
	defaultHandshakeTimeout = 5 * time.Second
	// preHelloReadLimit bounds frames read before a successful hello when a
	// token is set: a stranger gets no megabytes of the server's memory.
	preHelloReadLimit = 4 << 10
	// httpSpare is how many plain HTTP connections (health checks, metrics,
	// refused upgrades) may be open on top of MaxConnections.
	httpSpare = 16
)

func (c *Config) pongWait() time.Duration { return 2 * c.PingInterval }

func (c *Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (c *Config) searchSlots() int {
	if c.SearchSlots > 0 {
		return c.SearchSlots
	}
	return env.DefaultSearchSlots(c.workers())
}
