package server

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
)

// Server hosts env batches for WebSocket clients at /ws, with /healthz for
// probes.
type Server struct {
	cfg      Config
	pool     *env.Pool
	upgrader websocket.Upgrader
	http     *http.Server
	envs     atomic.Int64 // envs made and not yet closed, all connections

	mu        sync.Mutex
	conns     map[*conn]struct{}
	admitted  int // connections past admit, upgraded or still upgrading
	draining  bool
	wg        sync.WaitGroup // one per connection
	closePool sync.Once
}

// New builds a server; Serve starts it.
func New(cfg Config) *Server {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	s := &Server{cfg: cfg, pool: env.NewPool(cfg.Workers), conns: map[*conn]struct{}{}}
	// A reply is written as one frame when it fits the write buffer (a 1024-env
	// step reply is ~0.5 MiB); fragments would make every client reassemble.
	// The buffers come from a pool, so idle connections hold none.
	s.upgrader = websocket.Upgrader{ReadBufferSize: 64 << 10, WriteBufferSize: 1 << 20, WriteBufferPool: &sync.Pool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", s.serveWS)
	mux.HandleFunc("/healthz", s.serveHealth)
	s.http = &http.Server{Handler: mux}
	return s
}

// Serve accepts connections on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	err := s.http.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Limits are the limits hello announces.
func (s *Server) Limits() wire.Limits {
	return wire.Limits{MaxMessageBytes: s.cfg.MaxMessageBytes, MaxEnvsPerConnection: s.cfg.MaxEnvsPerConnection,
		MaxEnvsTotal: s.cfg.MaxEnvsTotal, MaxConnections: s.cfg.MaxConnections}
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.admit() {
		http.Error(w, "too many connections or shutting down", http.StatusServiceUnavailable)
		return
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.release()
		return // the upgrader has answered the client
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

// admit reserves a connection slot, or refuses when full or draining.
func (s *Server) admit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining || s.admitted >= s.cfg.MaxConnections {
		return false
	}
	s.admitted++
	s.wg.Add(1)
	return true
}

// release gives back a slot taken by admit.
func (s *Server) release() {
	s.mu.Lock()
	s.admitted--
	s.mu.Unlock()
	s.wg.Done()
}

func (s *Server) forget(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	s.release()
}

func (s *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	status := struct {
		Status      string `json:"status"`
		Connections int    `json:"connections"`
		Envs        int64  `json:"envs"`
	}{"ok", len(s.conns), s.envs.Load()}
	if s.draining {
		status.Status = "draining"
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(status)
}

// Shutdown stops accepting connections, lets every connection finish the
// request it is handling and send its replies, closes them with "going
// away", and waits for them until ctx ends (then it closes them at once).
// Calling it again is harmless.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.draining = true
	for c := range s.conns {
		c.drain()
	}
	s.mu.Unlock()
	err := s.http.Shutdown(ctx)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		s.mu.Lock()
		for c := range s.conns {
			c.ws.Close()
		}
		s.mu.Unlock()
		<-done
		err = ctx.Err()
	}
	s.closePool.Do(s.pool.Close) // a second Shutdown finds nothing left to do
	return err
}

// reserveEnvs takes n envs from the total budget, or reports that it is spent.
func (s *Server) reserveEnvs(n int) bool {
	for {
		cur := s.envs.Load()
		if int64(n) > int64(s.cfg.MaxEnvsTotal)-cur {
			return false
		}
		if s.envs.CompareAndSwap(cur, cur+int64(n)) {
			return true
		}
	}
}

func (s *Server) releaseEnvs(n int) { s.envs.Add(-int64(n)) }
