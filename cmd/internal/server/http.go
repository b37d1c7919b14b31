package server

import (
	"encoding/json"
	"log"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/splendor-rl/splendor/internal/quote"
	"github.com/splendor-rl/splendor/web"
)

// routes are the server's HTTP endpoints, each behind the Host check.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", s.serveWS)
	mux.Handle("/healthz", readOnly(http.HandlerFunc(s.serveHealth)))
	mux.Handle("/metrics", readOnly(s.metrics.handler()))
	mux.Handle(componentsPath, readOnly(http.HandlerFunc(serveComponents)))
	mux.Handle("/", readOnly(web.Handler())) // the browser viewer (docs/viewer.md)
	return s.checkHost(mux)
}

// checkHost refuses a request whose Host names a host the server was not
// told it has: a web page whose name was rebound to this machine's address
// sends its own name, and must not reach the envs (DNS rebinding). IP
// addresses cannot be rebound, so any is accepted; Origin is checked by the
// WebSocket upgrader (same origin or none).
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			s.cfg.Logger.Info("refused a request for an unknown host", "host", quote.String(r.Host), "remote", r.RemoteAddr)
			http.Error(w, "unknown host: add it to allowed_hosts", http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) hostAllowed(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport // no port
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "localhost" || net.ParseIP(host) != nil || slices.Contains(s.cfg.AllowedHosts, "*") {
		return true
	}
	listen, _, _ := net.SplitHostPort(s.cfg.Listen)
	return host == strings.ToLower(listen) || slices.Contains(s.cfg.AllowedHosts, host)
}

// readOnly answers GET and HEAD only.
func readOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	status := struct {
		Status      string `json:"status"`
		Connections int    `json:"connections"`
		Envs        int64  `json:"envs"`
	}{"ok", len(s.conns), s.envs.used.Load()}
	if s.draining {
		status.Status = "draining"
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(status)
}

// slogError routes net/http's own complaints (bad TLS, header errors) to
// the server's logger at debug: they are a stranger's noise.
func slogError(l *slog.Logger) *log.Logger {
	if l == nil {
		return nil
	}
	return slog.NewLogLogger(l.Handler(), slog.LevelDebug)
}
