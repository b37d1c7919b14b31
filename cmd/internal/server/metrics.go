package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env/bots"
)

// Drop reasons: why a connection ended other than by its client closing it.
const (
	dropPingTimeout  = "ping_timeout"
	dropIdleTimeout  = "idle_timeout"
	dropHelloTimeout = "hello_timeout"
	dropUnauthorized = "unauthorized"
	dropTooBig       = "message_too_big"
	dropReadError    = "read_error"
	dropWriteError   = "write_error"
	dropShutdown     = "shutdown"
	dropForced       = "shutdown_grace_ended"
)

var dropReasons = []string{dropPingTimeout, dropIdleTimeout, dropHelloTimeout, dropUnauthorized, dropTooBig,
	dropReadError, dropWriteError, dropShutdown, dropForced}

// metrics are the server's Prometheus series, on a registry of its own so
// that several servers (tests) do not share them. Series are looked up once
// here, so counting on the step path is an atomic add.
type metrics struct {
	registry    *prometheus.Registry
	steps       prometheus.Counter
	bytesIn     prometheus.Counter
	bytesOut    prometheus.Counter
	queued      prometheus.Gauge
	queuedBytes prometheus.Gauge
	frameBytes  prometheus.Gauge
	requests    map[string]prometheus.Counter // by op, "other" for unknown ones
	errors      map[wire.Code]prometheus.Counter
	drops       map[string]prometheus.Counter
}

func newMetrics(s *Server) *metrics {
	r := prometheus.NewRegistry()
	r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &metrics{registry: r,
		steps:       counter(r, "splendor_env_steps_total", "Env steps taken (one per env of each step request)."),
		bytesIn:     counter(r, "splendor_received_bytes_total", "Bytes of request frames read."),
		bytesOut:    counter(r, "splendor_sent_bytes_total", "Bytes of reply frames written."),
		queued:      gauge(r, "splendor_queued_replies", "Replies encoded and not yet written."),
		queuedBytes: gauge(r, "splendor_queued_reply_bytes", "Bytes of reply buffers held for writers (queued or pooled)."),
		frameBytes:  gauge(r, "splendor_frame_buffer_bytes", "Bytes of request frame buffers kept by connections."),
	}
	m.requests = byLabel(r, "splendor_requests_total", "Requests read, by op.", "op",
		[]string{wire.OpHello, wire.OpMake, wire.OpReset, wire.OpStep, wire.OpClose, wire.OpGetState, wire.OpSetState,
			wire.OpDeterminize, wire.OpFork, wire.OpBotActions, "other"})
	m.errors = byLabel(r, "splendor_errors_total", "Error replies, by code.", "code", wire.Codes)
	m.drops = byLabel(r, "splendor_dropped_connections_total", "Connections the server ended, by reason.", "reason", dropReasons)
	gaugeFunc(r, "splendor_connections", "Open WebSocket connections.", func() float64 { return float64(s.connections()) })
	gaugeFunc(r, "splendor_envs", "Envs made and not yet closed.", func() float64 { return float64(s.envs.used.Load()) })
	gaugeFunc(r, "splendor_memory_committed_bytes", "Bytes committed to connections and envs (the max_memory budget).",
		func() float64 { return float64(s.memory.used.Load()) })
	gaugeFunc(r, "splendor_memory_limit_bytes", "max_memory (0: none).", func() float64 { return float64(s.memory.limit) })
	counterFunc(r, "splendor_search_iterations_total",
		"Iterations of the mcts bots' searches (bot_actions and vs-bots seats), of every server in the process.",
		func() float64 { iterations, _ := bots.Searched(); return float64(iterations) })
	counterFunc(r, "splendor_search_seconds_total",
		"Seconds the mcts bots' searches ran, added over the cores that ran them, of every server in the process.",
		func() float64 { _, seconds := bots.Searched(); return seconds })
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

func (m *metrics) request(op string) {
	if c, ok := m.requests[op]; ok {
		c.Inc()
		return
	}
	m.requests["other"].Inc()
}

func counter(r *prometheus.Registry, name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	r.MustRegister(c)
	return c
}

func gauge(r *prometheus.Registry, name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	r.MustRegister(g)
	return g
}

func gaugeFunc(r *prometheus.Registry, name, help string, f func() float64) {
	r.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
}

func counterFunc(r *prometheus.Registry, name, help string, f func() float64) {
	r.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
}

// byLabel registers a counter per value of one label, all present from the
// start (a series that appears only after its first event hides rates).
func byLabel[L ~string](r *prometheus.Registry, name, help, label string, values []L) map[L]prometheus.Counter {
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label})
	r.MustRegister(vec)
	out := make(map[L]prometheus.Counter, len(values))
	for _, v := range values {
		out[v] = vec.WithLabelValues(string(v))
	}
	return out
}
