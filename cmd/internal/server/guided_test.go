package server

import (
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// A guided search over the wire: leaves until done, bad evaluations refused
// with bad_evaluation and then answered, evaluate without a search refused.
func TestGuidedSearchOverTheWire(t *testing.T) {
	_, url := start(t, testConfig())
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
	requireCode(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle,
		Settings: map[string]any{"simulations": 0}}, &r), wire.CodeBadOption)
}

func ptrTo[T any](v T) *T { return &v }
