package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startLoadServer serves on a loopback port for the test's lifetime and
// returns its /ws URL.
func startLoadServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := server.New(server.Config{MaxMessageBytes: 1 << 20, MaxEnvsPerConnection: 1 << 10,
		MaxEnvsTotal: 1 << 12, MaxConnections: 16, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return "ws://" + ln.Addr().String() + "/ws"
}

// runLoadCommand runs `splendorctl load --json` and returns the human report
// and the decoded JSON line.
func runLoadCommand(t *testing.T, args ...string) (string, loadReport, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(append([]string{"load", "--json"}, args...), &out)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	var report loadReport
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &report), out.String())
	return out.String(), report, err
}

func TestLoadStepsBothGamesAndReplaysThemIdentically(t *testing.T) {
	url := startLoadServer(t)
	for _, args := range [][]string{
		{"--env", "splendor-v1"},
		{"--env", "splendor-duel-v1", "--dtype", "float32", "--autoreset", "disabled"},
		{"--env", "splendor-v1", "--autoreset", "same_step", "--seconds", "0.25"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			base := []string{"--url", url, "--clients", "2", "--envs", "4", "--seconds", "0.5", "--verify"}
			text, report, err := runLoadCommand(t, append(base, args...)...)
			require.NoError(t, err, text)
			assert.Contains(t, text, "errors: none")
			assert.Contains(t, text, "trajectories: 2/2 identical")
			assert.Contains(t, text, "rss: ")
			assert.Empty(t, report.Errors)
			assert.Positive(t, report.EnvSteps)
			assert.Equal(t, report.StepRequests*4, report.EnvSteps)
			assert.Positive(t, report.Latency.P50)
			assert.Equal(t, &verifyReport{Verified: 2, Identical: 2}, report.Trajectories)
		})
	}
}

// The verify path must be able to fail: one action changed in one replay,
// to another legal one, makes that trajectory differ.
func TestLoadVerifyDetectsAChangedAction(t *testing.T) {
	cfg, done, err := parseLoad([]string{"--url", startLoadServer(t), "--clients", "2", "--envs", "4",
		"--seconds", "0.3", "--verify"}, io.Discard)
	require.NoError(t, err)
	require.False(t, done)
	report, trajectories := runLoad(cfg, nil)
	require.Empty(t, report.Errors)
	require.Equal(t, 2, report.Trajectories.Identical)
	changed := false
	alter := func(step int, mask []uint8, actions []int32) {
		if !changed {
			changed = changeToAnotherLegal(mask[:len(mask)/len(actions)], &actions[0])
		}
	}
	verdict := verifyTrajectories(&cfg, trajectories[:1], alter)
	require.True(t, changed, "no step of env 0 had two legal actions")
	assert.Equal(t, 0, verdict.Identical)
	require.Len(t, verdict.Differ, 1)
	assert.Contains(t, verdict.Differ[0], "client 0: trajectory differs")
}

// changeToAnotherLegal moves *action to another legal action of mask, if
// there is one.
func changeToAnotherLegal(mask []uint8, action *int32) bool {
	for a, legal := range mask {
		if legal == 1 && int32(a) != *action {
			*action = int32(a)
			return true
		}
	}
	return false
}

// A server that is not there: every client counts a dial error, stops, and
// the command fails without waiting out --seconds.
func TestLoadCountsConnectionErrorsAndFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "ws://" + ln.Addr().String() + "/ws"
	require.NoError(t, ln.Close())
	start := time.Now()
	text, report, err := runLoadCommand(t, "--url", url, "--clients", "3", "--seconds", "30", "--verify")
	require.Error(t, err)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Equal(t, map[string]int{"dial": 3}, report.Errors)
	assert.Contains(t, text, "errors: 3 (dial 3)")
	assert.Contains(t, text, "rss: unavailable (")
	assert.Zero(t, report.EnvSteps)
}

func TestLoadRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--dtype", "int8"}, {"--autoreset", "never"}, {"--clients", "0"}, {"--seconds", "0"}} {
		assert.Error(t, run(append([]string{"load"}, args...), io.Discard), "%v", args)
	}
}

func TestRSSSamplerReadsThePrometheusGauge(t *testing.T) {
	rss := 10 << 20
	metrics := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "/metrics", r.URL.Path)
		_, _ = io.WriteString(w, "# TYPE process_resident_memory_bytes gauge\n"+
			"process_resident_memory_bytes_x 1\nprocess_resident_memory_bytes "+strconv.Itoa(rss)+"\n")
		rss += 1 << 20
	}))
	defer metrics.Close()
	s := startRSS(metricsURL(strings.Replace(metrics.URL, "http", "ws", 1) + "/ws"))
	report, err := s.finish()
	require.NoError(t, err)
	assert.Equal(t, rssReport{Start: 10 << 20, Peak: 11 << 20, End: 11 << 20, Samples: 2}, report)
}

func TestParseRSSReportsAMissingGauge(t *testing.T) {
	_, err := parseRSS(bufio.NewScanner(strings.NewReader("go_goroutines 7\n")), "x")
	assert.ErrorContains(t, err, "no process_resident_memory_bytes")
}

func TestHistogramQuantilesAreWithinABucket(t *testing.T) {
	var h histogram
	for us := 1; us <= 1000; us++ {
		h.add(time.Duration(us) * time.Microsecond)
	}
	assert.InEpsilon(t, float64(500*time.Microsecond), float64(h.quantile(0.5)), 1.0/64)
	assert.InEpsilon(t, float64(990*time.Microsecond), float64(h.quantile(0.99)), 1.0/64)
	assert.Equal(t, time.Millisecond, h.max)
	assert.Equal(t, time.Duration(0), (&histogram{}).quantile(0.5))
	for _, d := range []time.Duration{0, 63, 64, 1000, time.Hour, 1<<63 - 1} {
		b := bucketOf(d)
		require.Less(t, b, len(h.counts))
		assert.InDelta(t, float64(d), float64(bucketValue(b)), float64(d)/64+1, "%v", d)
	}
}
