package env_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/stretchr/testify/require"
)

// guidedVector is a reset batch of n Splendor envs, the last never reset.
func guidedVector(t *testing.T, n int, opts env.Options) *env.Vector {
	v, err := env.Make("splendor-v1", n, opts, 5, nil)
	require.NoError(t, err)
	ids := make([]int, n-1)
	for i := range ids {
		ids[i] = i
	}
	require.NoError(t, v.Reset(ids, nil))
	return v
}

// uniformEvaluations are equal priors over each leaf's legal actions and a
// value from its observation, so that they differ from leaf to leaf.
func uniformEvaluations(b *env.GuidedBatch, na int) ([]float32, []float32) {
	priors := make([]float32, len(b.LeafMask))
	for j, m := range b.LeafMask {
		priors[j] = float32(m)
	}
	values := make([]float32, len(b.LeafEnvs))
	obs := len(b.LeafObs) / len(b.LeafEnvs)
	for j := range values {
		values[j] = float32(b.LeafObs[j*obs]%5)/5 - 0.4
	}
	return priors, values
}

func runGuided(t *testing.T, v *env.Vector, set bots.GuidedSettings) *env.GuidedBatch {
	b, err := v.StartGuided(nil, set, 3, nil)
	require.NoError(t, err)
	for rounds := 0; !b.Done(); rounds++ {
		require.LessOrEqual(t, len(b.LeafEnvs), v.Len()*set.LeavesPerEnv)
		require.NoError(t, b.Evaluate(uniformEvaluations(b, v.Spec.NumActions)))
		require.Less(t, rounds, set.Simulations+1, "a round evaluates at least one leaf per search")
	}
	return b
}

func TestGuidedBatchResults(t *testing.T) {
	for _, algorithm := range []bots.Algorithm{bots.Gumbel, bots.PUCT} {
		for _, leaves := range []int{1, 3} {
			v := guidedVector(t, 5, nil)
			set := bots.DefaultGuided
			set.Algorithm, set.Simulations, set.LeavesPerEnv = algorithm, 24, leaves
			a, b := runGuided(t, v, set), runGuided(t, v, set)
			require.Equal(t, a.Policy, b.Policy, "the same seed and evaluations, the same search")
			require.Equal(t, a.Action, b.Action)
			na := v.Spec.NumActions
			for k, action := range a.Action {
				if k == v.Len()-1 {
					require.Equal(t, int32(-1), action, "an env never reset is not searched")
					continue
				}
				require.Equal(t, uint8(1), v.Mask[k*na+int(action)])
				sum := float32(0)
				for x, p := range a.Policy[k*na : (k+1)*na] {
					require.False(t, p > 0 && v.Mask[k*na+x] == 0, "policy on an illegal action")
					sum += p
				}
				require.InDelta(t, 1, sum, 1e-5)
				require.InDelta(t, 0, a.Value[k], 1)
			}
		}
	}
}

// waitingSearch is a search of 8 simulations of 3 envs made with opts
// waiting for its first evaluations, the same search run to its end with
// uniformEvaluations, and the envs' number of actions.
func waitingSearch(t *testing.T, opts env.Options) (clean, b *env.GuidedBatch, actions int) {
	v := guidedVector(t, 3, opts)
	set := bots.DefaultGuided
	set.Simulations = 8
	clean = runGuided(t, v, set)
	b, err := v.StartGuided(nil, set, 3, nil)
	require.NoError(t, err)
	return clean, b, v.Spec.NumActions
}

// A bad evaluation is refused naming its row, and changes nothing: the
// search answered correctly afterwards ends as if it never came.
func TestGuidedBatchRefusesBadEvaluations(t *testing.T) {
	clean, b, na := waitingSearch(t, nil)
	priors, values := uniformEvaluations(b, na)
	require.ErrorIs(t, b.Evaluate(priors[na:], values), env.ErrBadShape)
	for name, spoil := range map[string]func(p, v []float32){
		"value 1.5": func(p, v []float32) { v[1] = 1.5 },
		"NaN prior": func(p, v []float32) { p[na+3] = float32(nanf()) },
		"negative":  func(p, v []float32) { p[na+3] = -1 },
		"no mass": func(p, v []float32) {
			clear(p[na : 2*na])
		},
	} {
		p, vals := append([]float32(nil), priors...), append([]float32(nil), values...)
		spoil(p, vals)
		err := b.Evaluate(p, vals)
		require.ErrorIs(t, err, env.ErrBadEvaluation, name)
		require.Contains(t, err.Error(), "leaf 1 (env 1)", name)
	}
	for !b.Done() {
		require.NoError(t, b.Evaluate(uniformEvaluations(b, na)))
	}
	require.Equal(t, clean.Policy, b.Policy)
}

func nanf() float64 { zero := 0.0; return zero / zero }

// spreadValues is every seat's value of each leaf as a one-value
// evaluation implies it: its own, and −v/(N−1) for each other seat.
func spreadValues(values []float32, players int) []float32 {
	seats := make([]float32, 0, len(values)*players)
	for _, v := range values {
		seats = append(seats, v)
		for range players - 1 {
			seats = append(seats, -v/float32(players-1))
		}
	}
	return seats
}

// Every seat's values (max-n), given as a one-value evaluation implies
// them, search as that evaluation does, bit for bit, at every table size;
// the results hold every seat's root value, the seat to play's first.
func TestGuidedBatchTakesEverySeatsValues(t *testing.T) {
	for players := 2; players <= 4; players++ {
		v := guidedVector(t, 4, env.Options{"players": players})
		set := bots.DefaultGuided
		set.Simulations = 24
		one := runGuided(t, v, set)
		b, err := v.StartGuided(nil, set, 3, nil)
		require.NoError(t, err)
		for !b.Done() {
			priors, values := uniformEvaluations(b, v.Spec.NumActions)
			require.NoError(t, b.Evaluate(priors, spreadValues(values, players)))
		}
		require.Equal(t, one.Policy, b.Policy, "%d players", players)
		require.Equal(t, one.Action, b.Action, "%d players", players)
		require.Equal(t, one.Value, b.Value, "%d players", players)
		require.Len(t, b.Values, 4*players)
		for k := range 3 {
			row := b.Values[k*players : (k+1)*players]
			require.Equal(t, b.Value[k], row[0], "%d players, env %d", players, k)
			sum := float32(0)
			for _, x := range row {
				require.InDelta(t, 0, x, 1)
				sum += x
			}
			require.InDelta(t, 0, sum, 1e-4, "%d players, env %d: %v", players, k, row)
		}
	}
}

// Values of another width, or one seat's out of range, are refused naming
// the leaf; nothing changes.
func TestGuidedBatchRefusesBadSeatValues(t *testing.T) {
	clean, b, na := waitingSearch(t, env.Options{"players": 3})
	priors, values := uniformEvaluations(b, na)
	seats := spreadValues(values, 3)
	require.ErrorIs(t, b.Evaluate(priors, append(seats, 0, 0)), env.ErrBadShape, "two more values: neither [L] nor [L, 3]")
	spoiled := append([]float32(nil), seats...)
	spoiled[3+2] = -1.5 // leaf 1, its third seat
	err := b.Evaluate(priors, spoiled)
	require.ErrorIs(t, err, env.ErrBadEvaluation)
	require.Contains(t, err.Error(), "leaf 1 (env 1): value -1.5 (column 2)")
	for !b.Done() {
		require.NoError(t, b.Evaluate(uniformEvaluations(b, na)))
	}
	require.Equal(t, clean.Policy, b.Policy)
}

// Without an evaluator the searches run to their end at once.
func TestGuidedBatchWithPlayouts(t *testing.T) {
	v := guidedVector(t, 3, env.Options{"obs_dtype": "float32"})
	set := bots.DefaultGuided
	set.Simulations, set.Playouts = 50, true
	b, err := v.StartGuided([]int{1, 0}, set, 3, nil)
	require.NoError(t, err)
	require.True(t, b.Done())
	na := v.Spec.NumActions
	require.Equal(t, uint8(1), v.Mask[na+int(b.Action[0])], "row 0 is env 1")
	require.Equal(t, uint8(1), v.Mask[int(b.Action[1])])
}

// A search's first leaf is its root: its observation is the env's own, the
// derived features block included when the env serves it.
func TestGuidedRootLeafIsTheEnvsObservation(t *testing.T) {
	for _, id := range []string{"splendor-v1", "splendor-duel-v1"} {
		for _, opts := range []env.Options{nil, {"features": "derived"}} {
			v, err := env.Make(id, 3, opts, 5, nil)
			require.NoError(t, err)
			require.NoError(t, v.Reset(nil, nil))
			set := bots.DefaultGuided
			set.Simulations = 8
			b, err := v.StartGuided(nil, set, 3, nil)
			require.NoError(t, err)
			size, na := v.Spec.ObsSize(), v.Spec.NumActions
			require.Equal(t, []int32{0, 1, 2}, b.LeafEnvs)
			require.Equal(t, v.Obs, b.LeafObs, "%s %v", id, opts)
			require.Equal(t, v.Mask, b.LeafMask, "%s %v", id, opts)
			require.Len(t, b.LeafObs, 3*size)
			require.Len(t, b.LeafMask, 3*na)
			b.Close()
		}
	}
}

// A search of no envs is done at once, with empty results, whether it
// plays out its leaves or not.
func TestGuidedBatchOfNoEnvsIsDoneAtOnce(t *testing.T) {
	v := guidedVector(t, 3, nil)
	for _, playouts := range []bool{false, true} {
		set := bots.DefaultGuided
		set.Simulations, set.Playouts = 8, playouts
		b, err := v.StartGuided([]int{}, set, 3, nil)
		require.NoError(t, err)
		require.True(t, b.Done())
		require.Empty(t, b.Action)
		require.Empty(t, b.LeafEnvs)
	}
}
