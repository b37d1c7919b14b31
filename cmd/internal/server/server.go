package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
)

// Server hosts env batches for WebSocket clients at /ws, with /healthz for
// probes and /metrics for Prometheus.
type Server struct {
	cfg      Config
	pool     *env.Pool
	upgrader websocket.Upgrader
	http     *http.Server
	metrics  *metrics
	envs     budget // envs made and not yet closed, all connections
	memory   budget // bytes committed (memory.go)
	// searchMemory is the bytes guided searches hold between round trips
	// (max_search_memory), part of memory too.
	searchMemory budget
	holdsMu      sync.Mutex
	holds        map[*hold]struct{} // every guided search's hold (holds.go)
	connCost     int64              // what one connection commits
	// envOptions describes each env's options for hello (fixed once the
	// envs are registered).
	envOptions map[string][]wire.OptionSpec

	mu        sync.Mutex
	conns     map[*conn]struct{}
	admitted  int        // connections past admit, upgraded or still upgrading
	slotFreed *sync.Cond // on mu: admitted went down, or draining began
	listener  *limitListener
	grace     time.Duration // how long a stranger keeps its slot (slots.go)
	draining  bool
	wg        sync.WaitGroup // one per connection
	closePool sync.Once
}

// New builds a server; Serve starts it.
func New(cfg Config) *Server {
	cfg.Workers, cfg.SearchSlots = cfg.workers(), cfg.searchSlots()
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = defaultHandshakeTimeout
	}
	if cfg.SearchTimeout <= 0 {
		cfg.SearchTimeout = defaultSearchTimeout
	}
	pool := env.NewPool(cfg.Workers)
	pool.SetSearchSlots(cfg.SearchSlots)
	s := &Server{cfg: cfg, pool: pool, conns: map[*conn]struct{}{},
		envs: budget{limit: int64(cfg.MaxEnvsTotal)}, memory: budget{limit: cfg.MaxMemory},
		searchMemory: budget{limit: cfg.MaxSearchMemory}, holds: map[*hold]struct{}{},
		connCost: connectionBytes(cfg.MaxMessageBytes), envOptions: envOptions(), grace: strangerGrace}
	s.slotFreed = sync.NewCond(&s.mu)
	s.metrics = newMetrics(s)
	// WriteMessage sends a reply as one frame whatever its size: the part that
	// fits the write buffer is copied there, the rest written from the reply's
	// own buffer in the same writev, so a small write buffer saves copying a
	// large reply (a 1024-env step reply is ~0.5 MiB). Each connection keeps
	// its own: a shared sync.Pool is emptied by every GC, and refilling it
	// allocated a buffer per connection and cycle.
	s.upgrader = websocket.Upgrader{ReadBufferSize: readBufferBytes, WriteBufferSize: writeBufferBytes,
		HandshakeTimeout: cfg.HandshakeTimeout}
	s.http = &http.Server{Handler: s.routes(), ReadHeaderTimeout: cfg.HandshakeTimeout, IdleTimeout: time.Minute,
		MaxHeaderBytes: 16 << 10, ErrorLog: slogError(cfg.Logger)}
	return s
}

// Serve accepts connections on ln until Shutdown; at most MaxConnections
// plus a few for plain HTTP are open at once, counted from the moment they
// are accepted, and strangers give way to newcomers (slots.go).
func (s *Server) Serve(ln net.Listener) error {
	limited := newLimitListener(ln, s.cfg.MaxConnections+httpSpare, s.grace)
	s.mu.Lock()
	s.listener = limited
	s.mu.Unlock()
	err := s.http.Serve(limited)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Limits are the limits hello announces.
func (s *Server) Limits() wire.Limits {
	return wire.Limits{MaxMessageBytes: s.cfg.MaxMessageBytes, MaxEnvsPerConnection: s.cfg.MaxEnvsPerConnection,
		MaxEnvsTotal: s.cfg.MaxEnvsTotal, MaxConnections: s.cfg.MaxConnections, SearchSlots: s.cfg.SearchSlots}
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.admit() {
		http.Error(w, "too many connections, memory budget spent, or shutting down", http.StatusServiceUnavailable)
		return
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.release()
		return // the upgrader has answered the client
	}
	upgraded(ws)
	if s.cfg.Token == "" {
		settle(ws) // no hello owed: a client from now on
	}
	c := newConn(s, ws)
	s.mu.Lock()
	s.conns[c] = struct{}{}
	if s.draining { // Shutdown began during the upgrade
		c.drain()
	}
	s.mu.Unlock()
	go c.run()
}

// admit reserves a connection slot and its memory. When there is none, a
// WebSocket that owes its hello and has had its grace gives way (slots.go);
// it refuses when none does within the handshake timeout, or when draining.
func (s *Server) admit() bool {
	deadline := time.Now().Add(s.cfg.HandshakeTimeout)
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.draining {
		if s.admitted < s.cfg.MaxConnections && s.memory.take(s.connCost) {
			s.admitted++
			s.wg.Add(1)
			return true
		}
		wait, ok := s.makeWay()
		if !ok || time.Now().Add(wait).After(deadline) {
			return false
		}
		s.waitForSlot(wait)
	}
	return false
}

// release gives back what admit took.
func (s *Server) release() {
	s.memory.give(s.connCost)
	s.mu.Lock()
	s.admitted--
	s.slotFreed.Broadcast()
	s.mu.Unlock()
	s.wg.Done()
}

func (s *Server) forget(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	s.release()
}

func (s *Server) connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Shutdown stops accepting connections and requests: every connection
// finishes the request it is handling and any it has already read, sends
// their replies, then closes with "going away". Connections still open when
// ctx ends are cut (their clients get no close frame). Calling it again is
// harmless.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.draining = true
	s.slotFreed.Broadcast()
	for c := range s.conns {
		c.drain()
	}
	s.mu.Unlock()
	err := s.http.Shutdown(ctx)
	if errors.Is(err, ctx.Err()) {
		err = nil // plain HTTP connections still open are cut below, like the rest
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		s.cut()
		<-done
		err = nil // cutting what is left is what the grace promises
	}
	s.closePool.Do(s.pool.Close) // a second Shutdown finds nothing left to do
	return err
}

// cut closes every connection at once, when the shutdown grace has ended,
// and stops the searches they run: the process exits without waiting for
// them.
func (s *Server) cut() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.dropped(dropForced)
		c.stopSearch()
		c.ws.Close()
	}
	if len(s.conns) > 0 {
		s.cfg.Logger.Warn("shutdown grace ended; connections cut", "connections", len(s.conns))
	}
}
