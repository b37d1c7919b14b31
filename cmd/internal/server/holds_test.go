package server

import (
	"testing"
	"time"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/require"
)

// startSearch starts a 64-simulation guided search of a new batch of n
// envs on c and returns the batch and its first leaves.
func startSearch(t *testing.T, c *Client, n int) (wire.MakeReply, wire.SearchReply, error) {
	made, _ := makeBatch(t, c, n, nil)
	var leaves wire.SearchReply
	err := c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(1),
		Settings: map[string]any{"simulations": 64}}, &leaves)
	return made, leaves, err
}

// uniformEvaluation answers every leaf with equal priors and value 0.
func uniformEvaluation(leaves wire.SearchReply) (priors, values wire.Tensor) {
	l, na := leaves.Mask.Shape[0], leaves.Mask.Shape[1]
	p := make([]float32, l*na)
	for i := range p {
		p[i] = 1
	}
	return wire.Float32Tensor(p, l, na), wire.Float32Tensor(make([]float32, l), l)
}

// runSearch answers a search's leaves until it is done.
func runSearch(t *testing.T, c *Client, handle uint64, leaves wire.SearchReply) {
	for !leaves.Done {
		priors, values := uniformEvaluation(leaves)
		require.NoError(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: handle, Priors: &priors, Values: &values}, &leaves))
	}
}

// A search whose client sends no evaluations ends at search_timeout and
// gives its memory back; the client's next evaluate says why.
func TestAnUnansweredSearchGivesItsMemoryBack(t *testing.T) {
	cfg := testConfig()
	cfg.SearchTimeout = 300 * time.Millisecond
	srv, url := start(t, cfg)
	c := dial(t, url)
	made, _ := makeBatch(t, c, 8, nil)
	committed := srv.memory.used.Load()
	var leaves wire.SearchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(1),
		Settings: map[string]any{"simulations": 64}}, &leaves))
	require.Positive(t, srv.searchMemory.used.Load())
	require.Eventually(t, func() bool { return srv.searchMemory.used.Load() == 0 && srv.memory.used.Load() == committed },
		time.Minute, 10*time.Millisecond, "the reservation comes back")
	priors, values := uniformEvaluation(leaves)
	werr := requireCode(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle, Priors: &priors, Values: &values},
		&wire.SearchReply{}), wire.CodeLimit)
	require.Contains(t, werr.Message, "search_timeout")
	requireCode(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle, Priors: &priors, Values: &values},
		&wire.SearchReply{}), wire.CodeBadRequest) // the search is gone
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(1),
		Settings: map[string]any{"simulations": 64}}, &leaves), "the batch searches again")
	require.False(t, leaves.Done)
}

// A search answered in time is not cut by the deadline: each round trip
// starts it again.
func TestASearchAnsweredInTimeOutlivesTheDeadline(t *testing.T) {
	cfg := testConfig()
	cfg.SearchTimeout = time.Second
	_, url := start(t, cfg)
	c := dial(t, url)
	made, leaves, err := startSearch(t, c, 4)
	require.NoError(t, err)
	for rounds := 0; !leaves.Done; rounds++ {
		time.Sleep(50 * time.Millisecond) // 64 rounds: far longer in all than the deadline
		priors, values := uniformEvaluation(leaves)
		require.NoError(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle, Priors: &priors, Values: &values}, &leaves),
			"round %d", rounds)
	}
}

// One client's idle search cannot make another's fail: when the memory is
// spent, the new search ends a search of another client that has waited
// searchIdle for its evaluations, and runs; a client's own waiting search
// is its own, and a search that no one else's can make room for is
// refused at once.
func TestAnIdleSearchCannotMakeAnotherClientsSearchFail(t *testing.T) {
	cfg := testConfig()
	perSearch := 8 * bots.GuidedBytes(64, splendor.NumActions)
	cfg.MaxSearchMemory = perSearch + perSearch/2
	srv, url := start(t, cfg)
	idle, busy := dial(t, url), dial(t, url)
	idleMade, leaves, err := startSearch(t, idle, 8)
	require.NoError(t, err)

	started := time.Now()
	made, mine, err := startSearch(t, busy, 8)
	require.NoError(t, err, "the idle client's memory is given to this search")
	require.GreaterOrEqual(t, time.Since(started), searchIdle-100*time.Millisecond, "only once the other had waited searchIdle")
	runSearch(t, busy, made.Handle, mine)
	priors, values := uniformEvaluation(leaves)
	werr := requireCode(t, idle.Call(wire.Request{Op: wire.OpEvaluate, Handle: idleMade.Handle, Priors: &priors, Values: &values},
		&wire.SearchReply{}), wire.CodeLimit)
	require.Contains(t, werr.Message, "another client's search")

	_, _, err = startSearch(t, busy, 8)
	require.NoError(t, err)
	started = time.Now()
	_, _, err = startSearch(t, busy, 8)
	requireCode(t, err, wire.CodeLimit) // its own waiting search holds the memory
	require.Less(t, time.Since(started), searchIdle, "refused at once: no other client's search can give room")
	require.Equal(t, perSearch, srv.searchMemory.used.Load())
}

// A search of no envs answers at once, done with empty results, holding
// nothing, as an empty bot_actions does; the batch stays usable.
func TestASearchOfNoEnvsIsDoneAtOnce(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 4, nil)
	for _, settings := range []map[string]any{nil, {"playouts": true, "leaves_per_env": 2}} {
		var r wire.SearchReply
		require.NoError(t, sendMap(c, map[string]any{"id": 9, "op": "search", "handle": made.Handle, "env_ids": []int{}, "settings": settings})())
		require.NoError(t, c.Recv(&r)) // (wire.Request leaves out an empty env_ids)
		require.True(t, r.Done)
		require.Equal(t, []int{0}, r.Action.Shape)
		require.Equal(t, []int{0, 442}, r.Obs.Shape, "a leaf row's width, however many leaves")
		require.Zero(t, srv.searchMemory.used.Load())
	}
	_, leaves, err := startSearch(t, c, 2)
	require.NoError(t, err)
	require.False(t, leaves.Done)
}

// A refused search changes nothing: the batch's search waiting for its
// evaluations waits on, with its memory, and runs to its end.
func TestARefusedSearchLeavesTheWaitingOneAsItWas(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, leaves, err := startSearch(t, c, 4)
	require.NoError(t, err)
	held := srv.searchMemory.used.Load()
	for _, bad := range []wire.Request{
		{Op: wire.OpSearch, Handle: made.Handle, EnvIDs: wire.EnvIDs{7}},
		{Op: wire.OpSearch, Handle: made.Handle, Seeds: wire.Seeds{1, 2}},
		{Op: wire.OpSearch, Handle: made.Handle, Settings: map[string]any{"depth": 3}},
	} {
		require.Error(t, c.Call(bad, &wire.SearchReply{}))
		require.Equal(t, held, srv.searchMemory.used.Load())
	}
	runSearch(t, c, made.Handle, leaves)
	require.Zero(t, srv.searchMemory.used.Load())
}
