package server

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/require"
)

// bot_actions with targets: the same actions as without, a policy row per
// env over the fixed action space and a value per env; a bot that does not
// search is refused with bad_option.
func TestBotActionsWithTargets(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 3, nil)
	ask := wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "mcts:60", Seed: seed(4)}
	var plain, targets wire.ActionsReply
	require.NoError(t, c.Call(ask, &plain))
	require.Nil(t, plain.Policy)
	ask.Targets = true
	require.NoError(t, c.Call(ask, &targets))
	require.Equal(t, plain.Actions, targets.Actions)
	na := made.Spec.NumActions
	require.Equal(t, wire.Float32, targets.Policy.Dtype)
	require.Equal(t, []int{3, na}, targets.Policy.Shape)
	require.Equal(t, []int{3}, targets.Value.Shape)
	require.Equal(t, []int{3, 2}, targets.Values.Shape)
	values := float32s(*targets.Values)
	for i, v := range float32s(*targets.Value) {
		require.Equal(t, v, values[2*i], "values' first column is value")
	}
	policy := float32s(*targets.Policy)
	for i, action := range int32s(targets.Actions) {
		require.Equal(t, uint8(1), first.Mask.Data[i*na+int(action)])
		require.Greater(t, policy[i*na+int(action)], float32(0))
	}
	ask.Bot = "greedy"
	requireCode(t, c.Call(ask, &targets), wire.CodeBadOption)
}

// A targets reply is at most two step replies' worth of its envs, so that
// it stays within the three replies a connection is counted for
// (memory.go), for every game and table size.
func TestTargetRowsFitTheRepliesMemory(t *testing.T) {
	for _, id := range env.IDs() {
		for players := 1; players <= 4; players++ {
			v, err := env.Make(id, 1, env.Options{"players": players}, 0, nil)
			if err != nil {
				continue // not a table size of this game
			}
			row := 4*int64(v.Spec.NumActions) + 4 + 4*int64(v.Spec.Players) + 4 // policy, value, values, action
			require.LessOrEqual(t, row, 2*replyBytesPerEnv(&v.Spec), "%s, %d players", id, players)
		}
	}
}

func float32s(t wire.Tensor) []float32 {
	out := make([]float32, len(t.Data)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
	}
	return out
}

// A guided search over the wire: leaves until done, bad evaluations refused
// with bad_evaluation and then answered, evaluate without a search refused.
func TestGuidedSearchOverTheWire(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 3, nil)
	var r wire.SearchReply
	requireCode(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle,
		Priors: ptrTo(wire.Float32Tensor(nil, 0, 0)), Values: ptrTo(wire.Float32Tensor(nil, 0))}, &r), wire.CodeBadRequest)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2),
		Settings: map[string]any{"simulations": 6, "algorithm": "puct"}}, &r))
	na, bad := made.Spec.NumActions, true
	for !r.Done {
		l := r.LeafEnvs.Shape[0]
		priors, values := make([]float32, l*na), make([]float32, l)
		for j := range priors {
			priors[j] = float32(r.Mask.Data[j])
		}
		if bad {
			values[0] = 3
			requireCode(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle,
				Priors: ptrTo(wire.Float32Tensor(priors, l, na)), Values: ptrTo(wire.Float32Tensor(values, l))}, &r),
				wire.CodeBadEvaluation)
			values[0], bad = 0, false
		}
		require.NoError(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle,
			Priors: ptrTo(wire.Float32Tensor(priors, l, na)), Values: ptrTo(wire.Float32Tensor(values, l))}, &r))
	}
	require.Equal(t, []int{3, na}, r.Policy.Shape)
	require.Equal(t, []int{3}, r.Action.Shape)
	require.Zero(t, srv.searchMemory.used.Load(), "a search that ended holds nothing")
	for _, bad := range []map[string]any{{"simulations": 0}, {"algorithm": "alphabeta"}, {"playouts": 1},
		{"pb_c_init": "high"}, {"dirichlet_fraction": 2}, {"depth": 3}} {
		requireCode(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Settings: bad}, &r), wire.CodeBadOption)
	}
}

func ptrTo[T any](v T) *T { return &v }

// An evaluate may give every seat's value ([L, players], from each leaf's
// seat to play's view); the results hold every seat's root value. Values
// of another shape are bad_shape.
func TestGuidedSearchTakesEverySeatsValues(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 2, map[string]any{"players": 3})
	var r wire.SearchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2),
		Settings: map[string]any{"simulations": 6}}, &r))
	na := made.Spec.NumActions
	for !r.Done {
		l := r.LeafEnvs.Shape[0]
		priors, values := make([]float32, l*na), make([]float32, 3*l)
		for j := range priors {
			priors[j] = float32(r.Mask.Data[j])
		}
		for j := range l {
			copy(values[3*j:], []float32{1, -0.5, -0.5}) // every leaf won by its seat to play
		}
		evaluate := wire.Request{Op: wire.OpEvaluate, Handle: made.Handle, Priors: ptrTo(wire.Float32Tensor(priors, l, na))}
		evaluate.Values = ptrTo(wire.Float32Tensor(values[:2*l], l, 2))
		requireCode(t, c.Call(evaluate, &r), wire.CodeBadShape)
		evaluate.Values = ptrTo(wire.Float32Tensor(values, l, 3))
		require.NoError(t, c.Call(evaluate, &r))
	}
	require.Equal(t, []int{2, 3}, r.Values.Shape)
	values := float32s(*r.Values)
	require.Equal(t, float32s(*r.Value), []float32{values[0], values[3]})
	for _, v := range values {
		require.True(t, v >= -0.5 && v <= 1, "%v", values)
	}
}

// Guided searches waiting for evaluations hold their trees' bound of
// max_search_memory: one that would pass it is refused with
// limit_exceeded, and a search's memory comes back when its batch closes
// (or when it ends, or another replaces it).
func TestGuidedSearchesShareMaxSearchMemory(t *testing.T) {
	cfg := testConfig()
	perSearch := 3 * bots.GuidedBytes(64, splendor.NumActions)
	cfg.MaxSearchMemory = perSearch + perSearch/2
	srv, url := start(t, cfg)
	c := dial(t, url)
	a, _ := makeBatch(t, c, 3, nil)
	b, _ := makeBatch(t, c, 3, nil)
	search := func(handle uint64) error {
		return c.Call(wire.Request{Op: wire.OpSearch, Handle: handle, Seed: seed(1),
			Settings: map[string]any{"simulations": 64}}, &wire.SearchReply{})
	}
	require.NoError(t, search(a.Handle))
	require.Equal(t, perSearch, srv.searchMemory.used.Load())
	require.NoError(t, search(a.Handle), "a new search replaces the batch's own")
	requireCode(t, search(b.Handle), wire.CodeLimit)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpClose, Handle: a.Handle}, &wire.CloseReply{}))
	require.NoError(t, search(b.Handle))
	require.Equal(t, perSearch, srv.searchMemory.used.Load())
}

// A search on playouts starts from bots.PlayoutGuided (its own pb_c_init),
// one with an evaluator from bots.DefaultGuided; a setting given wins.
func TestPlayoutSearchesHaveTheirOwnDefaults(t *testing.T) {
	for _, c := range []struct {
		settings map[string]any
		want     bots.GuidedSettings
	}{
		{nil, bots.DefaultGuided},
		{map[string]any{"playouts": false}, bots.DefaultGuided},
		{map[string]any{"playouts": true}, bots.PlayoutGuided},
	} {
		set, err := guidedSettings(c.settings)
		require.NoError(t, err)
		require.Equal(t, c.want, set, "%v", c.settings)
	}
	set, err := guidedSettings(map[string]any{"playouts": true, "pb_c_init": 2.0})
	require.NoError(t, err)
	require.Equal(t, 2.0, set.PbCInit)
	require.NotEqual(t, bots.DefaultGuided.PbCInit, bots.PlayoutGuided.PbCInit)
	set, err = guidedSettings(map[string]any{"playout_weight": 0.25})
	require.NoError(t, err)
	require.Equal(t, 0.25, set.PlayoutWeight)
	set, err = guidedSettings(map[string]any{"fpu_reduction": 0})
	require.NoError(t, err)
	require.True(t, set.FirstPlay, "first-play urgency at the parent's value")
	require.Zero(t, set.FPUReduction)
	for _, bad := range []map[string]any{{"playout_weight": 1.5}, {"playout_weight": -0.1},
		{"playouts": true, "playout_weight": 0.5}, {"fpu_reduction": 2.5}} {
		_, err = guidedSettings(bad)
		require.ErrorIs(t, err, env.ErrBadOption, "%v", bad)
	}
}

// A batch holds a search per part: two searches of shares of its envs, their
// round trips interleaved, end as one search of all its envs does, each
// holding its own memory until it ends or the batch closes; a part that is
// not 0 or 1 is bad_request.
func TestSearchPartsInterleave(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 5, nil)
	na := made.Spec.NumActions
	// Evaluations that each leaf's observation decides, whatever its row.
	uneven := func(r *wire.SearchReply) (*wire.Tensor, *wire.Tensor) {
		l, width := r.LeafEnvs.Shape[0], r.Obs.Shape[1]
		priors, values := make([]float32, l*na), make([]float32, l)
		for j := range values {
			row := r.Obs.Data[j*width : (j+1)*width]
			sum := 0
			for _, x := range row {
				sum = sum*31 + int(x)
			}
			for a := range na {
				priors[j*na+a] = float32(r.Mask.Data[j*na+a]) * float32(1+(sum+a)&7)
			}
			values[j] = float32(sum&7)/8 - 0.4
		}
		return ptrTo(wire.Float32Tensor(priors, l, na)), ptrTo(wire.Float32Tensor(values, l))
	}
	settings := map[string]any{"simulations": 8, "algorithm": "puct"}
	var whole wire.SearchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2), Settings: settings}, &whole))
	for !whole.Done {
		priors, values := uneven(&whole)
		require.NoError(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle, Priors: priors, Values: values}, &whole))
	}

	parts := [2]wire.SearchReply{}
	for p, ids := range []wire.EnvIDs{{0, 1}, {2, 3, 4}} {
		require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2), Settings: settings,
			EnvIDs: ids, Part: p}, &parts[p]))
	}
	require.Equal(t, (2+3)*bots.GuidedBytes(8, na), srv.searchMemory.used.Load(), "each part holds its own")
	for !parts[0].Done || !parts[1].Done {
		for p := range parts {
			if !parts[p].Done {
				priors, values := uneven(&parts[p])
				require.NoError(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle, Part: p,
					Priors: priors, Values: values}, &parts[p]))
			}
		}
	}
	require.Equal(t, whole.Action.Data, append(slices.Clone(parts[0].Action.Data), parts[1].Action.Data...))
	require.Equal(t, whole.Policy.Data, append(slices.Clone(parts[0].Policy.Data), parts[1].Policy.Data...))
	require.Zero(t, srv.searchMemory.used.Load(), "both parts ended")

	var r wire.SearchReply
	for _, part := range []int{2, -1} {
		requireCode(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Part: part, Settings: settings}, &r), wire.CodeBadRequest)
	}
	requireCode(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle, Part: 1,
		Priors: ptrTo(wire.Float32Tensor(nil, 0, na)), Values: ptrTo(wire.Float32Tensor(nil, 0))}, &r), wire.CodeBadRequest)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Settings: settings, Part: 0,
		EnvIDs: wire.EnvIDs{0, 1, 2}}, &r))
	requireCode(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Settings: settings, Part: 1,
		EnvIDs: wire.EnvIDs{2, 3, 4}}, &r), wire.CodeLimit) // 6 envs searched of 5: a leaf row per env is what a batch holds
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Settings: settings, Part: 1,
		EnvIDs: wire.EnvIDs{3, 4}}, &r))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpClose, Handle: made.Handle}, &wire.CloseReply{}))
	require.Zero(t, srv.searchMemory.used.Load(), "a close ends every part's search")
}
