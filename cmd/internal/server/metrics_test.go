package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// counterValue reads a counter (or gauge) from the server's registry; label
// is the value of its one label, or "" for an unlabelled series.
func counterValue(t *testing.T, srv *Server, name, label string) float64 {
	t.Helper()
	families, err := srv.metrics.registry.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if label != "" && (len(m.GetLabel()) != 1 || m.GetLabel()[0].GetValue() != label) {
				continue
			}
			if m.Counter != nil {
				return m.GetCounter().GetValue()
			}
			return m.GetGauge().GetValue()
		}
	}
	t.Fatalf("no series %s{%s}", name, label)
	return 0
}

func httpURL(wsURL, path string) string {
	return strings.Replace(strings.TrimSuffix(wsURL, "/ws"), "ws://", "http://", 1) + path
}

// /metrics serves the server's series in Prometheus' text format, counting
// what clients did.
func TestMetricsCountWhatHappened(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 8, nil)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}, &wire.BatchReply{}))
	requireCode(t, c.Call(wire.Request{Op: wire.OpStep, Handle: 99, Actions: ptr(firstLegal(first.Mask))}, &wire.BatchReply{}), wire.CodeUnknownHandle)

	resp, err := http.Get(httpURL(url, "/metrics"))
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	text := string(body)
	for _, line := range []string{
		"splendor_env_steps_total 8",
		`splendor_requests_total{op="step"} 2`,
		`splendor_errors_total{code="unknown_handle"} 1`,
		"splendor_connections 1",
		"splendor_envs 8",
		"process_resident_memory_bytes",
		"splendor_memory_committed_bytes",
	} {
		require.Contains(t, text, line)
	}
	require.Greater(t, counterValue(t, srv, "splendor_received_bytes_total", ""), 0.0)
	require.Greater(t, counterValue(t, srv, "splendor_sent_bytes_total", ""), 0.0)
}

// The mcts bots' searches are counted: their iterations and seconds.
func TestMetricsCountSearches(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 4, nil)
	before := counterValue(t, srv, "splendor_search_iterations_total", "")
	seconds := counterValue(t, srv, "splendor_search_seconds_total", "")
	var advice wire.ActionsReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "mcts:50", Seed: seed(1)}, &advice))
	require.Equal(t, 4*50.0, counterValue(t, srv, "splendor_search_iterations_total", "")-before,
		"4 searches of 50 iterations (no test runs searches in parallel with this one)")
	require.Greater(t, counterValue(t, srv, "splendor_search_seconds_total", ""), seconds)
}
