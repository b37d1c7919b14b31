package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// peakRSS is the most memory process pid has held resident (VmHWM).
func peakRSS(t *testing.T, pid int) int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	require.NotNil(t, m)
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// The worst case the server prints bounds what it really holds: with
// small limits filled by the heaviest envs of each kind, stepped with
// replies in flight on every connection while a bot searches, the peak
// resident memory stays within 1.2 times the printed figure.
func TestPeakRSSStaysWithinThePrintedWorstCase(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs Linux's /proc")
	}
	for name, make := range map[string]wire.Request{
		"splendor 4p, every seat, features": {Env: "splendor-v1", Options: map[string]any{"players": 4, "obs_seats": "all",
			"obs_dtype": "float32", "autoreset": "same_step", "features": "derived"}},
		"duel, every seat, features": {Env: "splendor-duel-v1", Options: map[string]any{"obs_seats": "all",
			"obs_dtype": "float32", "autoreset": "same_step", "features": "derived"}},
	} {
		const conns, perConn = 2, 4096
		cmd, url, lines := startBinary(t, "--max-connections", strconv.Itoa(conns), "--max-envs-total", strconv.Itoa(conns*perConn),
			"--max-search-memory", "1MiB", "--search-slots", "1", "--workers", "2")
		var printed float64
		for line := range lines {
			if m := regexp.MustCompile(`memory: at most ([\d.]+) GiB`).FindStringSubmatch(line); m != nil {
				printed, _ = strconv.ParseFloat(m[1], 64)
				break
			}
		}
		require.Positive(t, printed, name)
		var wg sync.WaitGroup
		for k := range conns {
			c, err := server.Dial(url)
			require.NoError(t, err)
			defer c.Close()
			req := make
			req.Op, req.NumEnvs, req.Seed = wire.OpMake, perConn, ptrSeed(wire.Seed(k))
			var made wire.MakeReply
			require.NoError(t, c.Call(req, &made), name)
			wg.Add(1)
			go func() {
				defer wg.Done()
				stepWithRepliesInFlight(t, c, made.Handle, 20)
				if k == 0 {
					require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "mcts:2000",
						EnvIDs: wire.EnvIDs{0, 1, 2, 3}, Seed: ptrSeed(1)}, &wire.ActionsReply{}))
				}
			}()
		}
		wg.Wait()
		rss := float64(peakRSS(t, cmd.Process.Pid)) / (1 << 30)
		t.Logf("%s: peak RSS %.3f GiB, printed worst case %.2f GiB (%.2f×)", name, rss, printed, rss/printed)
		require.LessOrEqual(t, rss, 1.2*printed, name)
		_ = cmd.Process.Kill()
		time.Sleep(10 * time.Millisecond)
	}
}

func ptrSeed(s wire.Seed) *wire.Seed { return &s }

// stepWithRepliesInFlight resets the batch, then steps it n times, the
// first legal action of every env, with two steps in flight: the server
// holds a reply queued while it encodes the next.
func stepWithRepliesInFlight(t *testing.T, c *server.Client, handle uint64, n int) {
	var r wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: handle}, &r))
	for range n {
		actions := firstLegalActions(r.Mask)
		step := wire.Request{Op: wire.OpStep, Handle: handle, Actions: &actions}
		_, err := c.Send(step)
		require.NoError(t, err)
		_, err = c.Send(wire.Request{Op: wire.OpHello})
		require.NoError(t, err)
		require.NoError(t, c.Recv(&r))
		require.NoError(t, c.Recv(&wire.HelloReply{}))
	}
}

func firstLegalActions(mask wire.Tensor) wire.Tensor {
	n, na := mask.Shape[0], mask.Shape[1]
	actions := make([]int32, n)
	for i := range actions {
		actions[i] = int32(strings.IndexByte(string(mask.Data[i*na:(i+1)*na]), 1))
	}
	return wire.Int32Tensor(actions, n)
}
