package envtest

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/stretchr/testify/require"
)

// VisitRandomPlay plays steps batched steps of 16 envs of id with opts,
// seeded random legal actions, and calls visit with each env's observation
// and mask before each step: for checks of what an observation says
// against what the mask allows.
func VisitRandomPlay(t *testing.T, id string, opts env.Options, steps int, visit func(obs, mask []uint8)) {
	v, err := env.Make(id, 16, opts, 4, nil)
	require.NoError(t, err)
	require.NoError(t, v.Reset(nil, nil))
	p := newPlayers(v.Len(), 5)
	na, size := v.Spec.NumActions, v.Spec.ObsSize()
	actions := make([]int32, v.Len())
	for range steps {
		for i := range v.Len() {
			visit(v.Obs[i*size:(i+1)*size], v.Mask[i*na:(i+1)*na])
		}
		p.choose(v, actions)
		require.NoError(t, v.Step(actions))
	}
}
