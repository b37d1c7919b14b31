package server

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// Error replies quote at most a few dozen bytes of what the client sent,
// however much it sent.
func TestErrorsDoNotEchoTheirInput(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	long := strings.Repeat("x", 500_000)
	keys := map[string]any{}
	for i := range 300 {
		keys[strings.Repeat("k", 1000)+string(rune('a'+i%26))+string(rune(i))] = 1
	}
	for name, req := range map[string]map[string]any{
		"option value":   {"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{"mode": long}},
		"option list":    {"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{"bots": make([]any, 1000)}},
		"option keys":    {"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": keys},
		"env id":         {"id": 1, "op": "make", "env": long, "num_envs": 1},
		"op":             {"id": 1, "op": long},
		"field":          {"id": 1, "op": "hello", long: 1},
		"too many items": {"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{"mode": make([]any, 100_000)}},
	} {
		require.NoError(t, sendMap(c, req)(), name)
		var werr *wire.Error
		require.ErrorAs(t, c.Recv(&wire.HelloReply{}), &werr, name)
		require.Less(t, len(werr.Message), 300, "%s: %s", name, werr.Message)
	}
}

// After a large request a connection keeps no large buffer; after its
// batches close it keeps no reply buffer.
func TestConnectionsLetGoOfLargeBuffers(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	require.NoError(t, sendMap(c, map[string]any{"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1,
		"options": map[string]any{"mode": strings.Repeat("x", 900_000)}})())
	requireCode(t, c.Recv(&wire.MakeReply{}), wire.CodeBadOption)
	made, first := makeBatch(t, c, 256, map[string]any{"obs_dtype": "float32"})
	require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}, &wire.BatchReply{}))
	sc := onlyConn(t, srv)
	require.Positive(t, sc.held.Load(), "a written step reply is pooled for the next step")
	require.NoError(t, c.Call(wire.Request{Op: wire.OpClose, Handle: made.Handle}, &wire.CloseReply{}))

	waitUntil(t, func() bool { return sc.held.Load() <= replySlack }, "the closed batch's reply buffers are let go")
	require.LessOrEqual(t, counterValue(t, srv, "splendor_frame_buffer_bytes", ""), float64(keptFrameBytes),
		"the large frame's buffer is let go")
	require.Zero(t, sc.replyBytes.Load())
	require.Zero(t, counterValue(t, srv, "splendor_queued_replies", ""))
}

// A client that sends steps and never reads its replies gets a bounded
// queue: the server stops reading its requests instead of encoding them.
func TestAClientThatStopsReadingHoldsBoundedMemory(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 256, map[string]any{"obs_dtype": "float32", "autoreset": "same_step"})
	step := wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}
	sc := onlyConn(t, srv)
	for range 200 { // ~1.8 MiB of replies each: far more than the kernel's socket buffers take
		_, err := c.Send(step)
		require.NoError(t, err)
	}
	time.Sleep(300 * time.Millisecond)
	oneReply := sc.replyBytes.Load()
	require.LessOrEqual(t, sc.held.Load(), 2*sc.oneReply()+oneReply, "at most one reply queued, one being written and one pooled")
	require.LessOrEqual(t, counterValue(t, srv, "splendor_queued_replies", ""), float64(queued))
	var r wire.BatchReply
	require.NoError(t, c.Recv(&r), "the replies are still there to read")
	require.Equal(t, 256, r.Obs.Shape[0])
}

// max_memory refuses a make that would commit more than it allows, and
// counts a batch's memory until it is closed.
func TestMaxMemoryRefusesNewEnvs(t *testing.T) {
	cfg := testConfig()
	perConn := connectionBytes(cfg.MaxMessageBytes)
	cfg.MaxMemory = perConn + 200*15500 // one connection and 200 float32 same_step Splendor envs
	srv, url := start(t, cfg)
	c := dial(t, url)
	opts := map[string]any{"obs_dtype": "float32", "autoreset": "same_step"}
	made, _ := makeBatch(t, c, 150, opts)
	err := c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 100, Options: opts}, &wire.MakeReply{})
	werr := requireCode(t, err, wire.CodeLimit)
	require.Contains(t, werr.Message, "max_memory")
	require.NoError(t, c.Call(wire.Request{Op: wire.OpClose, Handle: made.Handle}, &wire.CloseReply{}))
	makeBatch(t, c, 100, opts)
	require.Equal(t, float64(srv.memory.used.Load()), counterValue(t, srv, "splendor_memory_committed_bytes", ""))

	_, resp, err := dialRaw(url, nil)
	require.Error(t, err, "a second connection does not fit the budget")
	require.Equal(t, 503, resp.StatusCode)
}

func onlyConn(t *testing.T, srv *Server) *conn {
	t.Helper()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	require.Len(t, srv.conns, 1)
	for c := range srv.conns {
		return c
	}
	return nil
}

// max_memory holds when several connections make at once: each make
// reserves before it builds, so exactly as many fit as the budget allows.
func TestMaxMemoryHoldsAcrossConcurrentMakes(t *testing.T) {
	probe, err := env.Make("splendor-v1", 1, nil, 0, nil)
	require.NoError(t, err)
	cfg := testConfig()
	cfg.MaxMemory = 8*connectionBytes(cfg.MaxMessageBytes) + 3*100*envBytes(probe) + 1000 // 8 connections, 3 batches
	srv, url := start(t, cfg)
	clients := make([]*Client, 8)
	for i := range clients {
		clients[i] = dial(t, url)
	}
	made := make(chan error, len(clients))
	for _, c := range clients {
		go func() {
			made <- c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 100}, &wire.MakeReply{})
		}()
	}
	ok := 0
	for range clients {
		if err := <-made; err == nil {
			ok++
		} else {
			requireCode(t, err, wire.CodeLimit)
		}
	}
	require.Equal(t, 3, ok)
	require.LessOrEqual(t, srv.memory.used.Load(), cfg.MaxMemory)
}

// One env's share of a view reply stays within viewBytesPerEnv, whatever
// the game, table size, viewer and position (played whole games).
func TestViewRepliesStayWithinTheirBound(t *testing.T) {
	codec := wire.NewCodec()
	largest := 0
	for _, c := range []struct {
		id      string
		players int
	}{{"splendor-v1", 2}, {"splendor-v1", 3}, {"splendor-v1", 4}, {"splendor-duel-v1", 2}} {
		v, err := env.Make(c.id, 16, env.Options{"players": c.players}, 1, nil)
		require.NoError(t, err)
		require.NoError(t, v.Reset(nil, nil))
		r := rng.New(3)
		actions := make([]int32, v.Len())
		for range 300 {
			for i := range actions {
				actions[i] = env.SampleLegal(v.Mask[i*v.Spec.NumActions:(i+1)*v.Spec.NumActions], &r)
			}
			require.NoError(t, v.Step(actions))
			for viewer := -1; viewer < c.players; viewer++ {
				views, boards, err := v.Views(nil, viewer)
				require.NoError(t, err)
				for i := range views {
					var b bytes.Buffer
					require.NoError(t, codec.Encode(&b, &wire.ViewsReply{Views: views[i : i+1], Boards: boards[i : i+1]}))
					largest = max(largest, b.Len())
				}
			}
		}
	}
	t.Logf("largest view of one env: %d bytes (bound %d)", largest, viewBytesPerEnv)
	require.LessOrEqual(t, largest, viewBytesPerEnv)
}

// A view of more envs than the batch's replies are counted for is refused
// with limit_exceeded, saying how many to ask for at a time.
func TestViewsOfALargeBatchComeInParts(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 256, nil)
	var views wire.ViewsReply
	werr := requireCode(t, c.Call(wire.Request{Op: wire.OpView, Handle: made.Handle}, &views), wire.CodeLimit)
	require.Contains(t, werr.Message, "ask for at most 116 at a time")
	ids := make(wire.EnvIDs, 116)
	for i := range ids {
		ids[i] = i
	}
	require.NoError(t, c.Call(wire.Request{Op: wire.OpView, Handle: made.Handle, EnvIDs: ids}, &views))
	require.Len(t, views.Views, 116)
}

// The heaviest env the worst case counts is at least as heavy as an env of
// any game, table size and combination of options with choices.
func TestHeaviestEnvBytesBoundsEveryCombinationOfOptions(t *testing.T) {
	heaviest := HeaviestEnvBytes()
	pool := env.NewPool(1)
	defer pool.Close()
	for _, id := range env.IDs() {
		described, err := env.Describe(id)
		require.NoError(t, err)
		for players := 1; players <= 4; players++ {
			combinations(described, env.Options{"players": players}, func(opts env.Options) {
				if v, err := env.Make(id, 1, opts, 0, pool); err == nil {
					require.LessOrEqual(t, envBytes(v), heaviest, "%s %v", id, opts)
				}
			})
		}
	}
}

// combinations calls try with opts and every combination of choices of the
// string options of described.
func combinations(described []env.OptionSpec, opts env.Options, try func(env.Options)) {
	if len(described) == 0 {
		try(opts)
		return
	}
	o, rest := described[0], described[1:]
	if o.Type != "str" {
		combinations(rest, opts, try)
		return
	}
	for _, choice := range o.Choices {
		opts[o.Name] = choice
		combinations(rest, opts, try)
	}
	delete(opts, o.Name)
}
