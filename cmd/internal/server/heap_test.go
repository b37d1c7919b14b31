package server

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// liveHeap is the bytes the process holds live, after collecting twice.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// heapSlack is what the targets allow above the committed bytes: the
// runtime's and the test clients' own.
const heapSlack = 64 << 20

// leanCall is Call for a test that measures the server's heap: the client
// lets go of the reply's frame, and of the reply but for its mask.
func leanCall(t *testing.T, c *Client, req wire.Request, reply any) error {
	t.Helper()
	err := c.Call(req, reply)
	c.in = bytes.Buffer{}
	return err
}

// What a connection keeps after its batches are closed is within what it
// was admitted for, however large the replies it sent: connections that
// each made, stepped and closed 16,384 envs and stay open hold next to
// nothing (they held the buffers of their largest replies, up to 89 MiB
// each: the codec kept the last, and a buffer written as the batch closed
// could be pooled after the pool was emptied).
func TestClosedBatchesLeaveNoBuffersBehind(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMemory = 512 << 20
	cfg.MaxEnvsPerConnection, cfg.MaxEnvsTotal, cfg.MaxConnections = 1<<16, 1<<18, 16
	srv, url := start(t, cfg)
	base := liveHeap()
	for range 6 {
		c := dial(t, url)
		for _, opts := range []map[string]any{nil, {"obs_dtype": "float32", "autoreset": "same_step"}} {
			var made wire.MakeReply
			require.NoError(t, leanCall(t, c, wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1 << 14, Options: opts}, &made))
			var r wire.BatchReply
			require.NoError(t, leanCall(t, c, wire.Request{Op: wire.OpReset, Handle: made.Handle}, &r))
			actions := firstLegal(r.Mask)
			r = wire.BatchReply{}
			for range 3 {
				require.NoError(t, leanCall(t, c, wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: &actions}, &wire.BatchReply{}))
			}
			require.NoError(t, leanCall(t, c, wire.Request{Op: wire.OpClose, Handle: made.Handle}, &wire.CloseReply{}))
		}
	}
	held := liveHeap() - base
	require.Zero(t, srv.envs.used.Load())
	require.LessOrEqual(t, held, srv.memory.used.Load(), "what open connections without envs hold, within what they were admitted for")
	t.Logf("six open connections without envs: %d MiB live, %d MiB committed", held>>20, srv.memory.used.Load()>>20)
}

// Along a seeded sequence of makes, steps and closes over several open
// connections, with the heaviest options, the live heap stays within what
// the server has committed (so within max_memory) plus heapSlack.
func TestLiveHeapStaysWithinTheCommittedBytes(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMemory = 384 << 20
	cfg.MaxEnvsPerConnection, cfg.MaxEnvsTotal, cfg.MaxConnections = 1<<16, 1<<18, 8
	srv, url := start(t, cfg)
	options := []map[string]any{nil, {"obs_dtype": "float32", "autoreset": "same_step"},
		{"players": 4, "obs_seats": "all", "obs_dtype": "float32", "autoreset": "same_step", "features": "derived"}}
	type open struct {
		c       *Client
		handle  uint64
		actions wire.Tensor
	}
	clients := []*Client{dial(t, url), dial(t, url), dial(t, url), dial(t, url)}
	var batches []open
	r := rand.New(rand.NewPCG(7, 8))
	base := liveHeap()
	for op := range 60 {
		switch k := r.IntN(3); {
		case k == 0 || len(batches) == 0:
			c := clients[r.IntN(len(clients))]
			var made wire.MakeReply
			err := leanCall(t, c, wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1 + r.IntN(1<<13), Options: options[r.IntN(len(options))]}, &made)
			if err != nil {
				requireCode(t, err, wire.CodeLimit) // the budget is spent
				continue
			}
			var first wire.BatchReply
			require.NoError(t, leanCall(t, c, wire.Request{Op: wire.OpReset, Handle: made.Handle}, &first))
			batches = append(batches, open{c, made.Handle, firstLegal(first.Mask)})
		case k == 1:
			b := &batches[r.IntN(len(batches))]
			var stepped wire.BatchReply
			require.NoError(t, leanCall(t, b.c, wire.Request{Op: wire.OpStep, Handle: b.handle, Actions: &b.actions}, &stepped))
			b.actions = firstLegal(stepped.Mask)
		default:
			i := r.IntN(len(batches))
			require.NoError(t, leanCall(t, batches[i].c, wire.Request{Op: wire.OpClose, Handle: batches[i].handle}, &wire.CloseReply{}))
			batches = append(batches[:i], batches[i+1:]...)
		}
		live, committed := liveHeap()-base, srv.memory.used.Load()
		require.LessOrEqual(t, live, committed+heapSlack, "op %d: %d MiB live, %d MiB committed", op, live>>20, committed>>20)
	}
}
