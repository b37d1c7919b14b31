package nets_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/splendor-rl/splendor/env/nets"
	"github.com/splendor-rl/splendor/internal/nettest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Splendor's sizes (splendor-v1: 442 observation values, 78 actions) with the
// hidden layers of the AlphaZero example.
const splendorObs, splendorActions, splendorHidden, splendorLayers = 442, 78, 256, 2

// splendorSized is a random net of Splendor's sizes, its file and the net loaded.
func splendorSized(t testing.TB) (*nettest.File, *nets.Net) {
	f := nettest.RandomNet(3, splendorObs, splendorActions, splendorHidden, splendorLayers)
	n, err := nets.Load(writeFile(t, f.Bytes()))
	require.NoError(t, err)
	return f, n
}

// observation draws small counts, each feature nonzero with probability
// density (Splendor's observations have about 30 % nonzero).
func observation(r *rand.Rand, size int, density float64) []uint8 {
	obs := make([]uint8, size)
	for i := range obs {
		if r.Float64() < density {
			obs[i] = uint8(1 + r.IntN(5))
		}
	}
	return obs
}

// reference evaluates f's network the plain way, in float64: row by row over
// every input, as torch does.
func reference(f *nettest.File, layers int, obs []uint8) (logits, values []float64) {
	x := make([]float64, len(obs))
	for j, v := range obs {
		x[j] = float64(v) * float64(f.Tensor("scale").Values[j])
	}
	for i := range layers {
		x = dense(f, fmt.Sprintf("trunk.%d", i), x)
		for k := range x {
			x[k] = max(x[k], 0)
		}
	}
	values = dense(f, "value", x)
	for k, v := range values {
		values[k] = math.Tanh(v)
	}
	return dense(f, "policy", x), values
}

func dense(f *nettest.File, name string, x []float64) []float64 {
	w, b := f.Tensor(name+".weight").Values, f.Tensor(name+".bias").Values
	y := make([]float64, len(b))
	for o := range y {
		y[o] = float64(b[o])
		for j, v := range x {
			y[o] += float64(w[o*len(x)+j]) * v
		}
	}
	return y
}

// At full size, sparse or dense, the evaluation skipping zero inputs by
// columns gives the plain product's numbers, with one value or one per
// seat.
func TestEvaluateMatchesThePlainProductAtSplendorsSize(t *testing.T) {
	for _, seats := range []int{1, 3} {
		f := nettest.RandomNet(3, splendorObs, splendorActions, splendorHidden, splendorLayers)
		f.Reshape("value.weight", seats, splendorHidden)
		f.Reshape("value.bias", seats)
		n, err := nets.Load(writeFile(t, f.Bytes()))
		require.NoError(t, err)
		require.Equal(t, seats, n.Values())
		e := n.NewEvaluator()
		r := rand.New(rand.NewPCG(4, 1))
		logits, values := make([]float32, splendorActions), make([]float32, seats)
		for _, density := range []float64{0, 0.3, 1} {
			for range 5 {
				obs := observation(r, splendorObs, density)
				wantLogits, wantValues := reference(f, splendorLayers, obs)
				e.Evaluate(obs, logits, values)
				for a, want := range wantLogits {
					within(t, want, float64(logits[a]), fmt.Sprintf("density %v logit %d", density, a))
				}
				for k, want := range wantValues {
					within(t, want, float64(values[k]), fmt.Sprintf("density %v value %d of %d", density, k, seats))
				}
			}
		}
	}
}

func TestEvaluateAndArgmaxAllocateNothing(t *testing.T) {
	_, n := splendorSized(t)
	e := n.NewEvaluator()
	r := rand.New(rand.NewPCG(5, 1))
	obs, mask := observation(r, splendorObs, 0.3), observation(r, splendorActions, 0.5)
	logits, values := make([]float32, splendorActions), make([]float32, 1)
	assert.Zero(t, testing.AllocsPerRun(50, func() { e.Evaluate(obs, logits, values) }))
	assert.Zero(t, testing.AllocsPerRun(50, func() { e.Argmax(obs, mask) }))
}

// Argmax returns a legal action, no legal action has a larger logit, none
// before it an equal one, and −1 exactly when nothing is legal.
func TestArgmaxPicksTheBestLegalAction(t *testing.T) {
	f := nettest.RandomNet(8, 40, 25, 32, 2)
	n, err := nets.Load(writeFile(t, f.Bytes()))
	require.NoError(t, err)
	e := n.NewEvaluator()
	r := rand.New(rand.NewPCG(9, 1))
	logits, values := make([]float32, 25), make([]float32, 1)
	for i := range 400 {
		obs := observation(r, 40, 0.3)
		mask := make([]uint8, 25)
		for a := range mask {
			if r.Float64() < []float64{0, 0.05, 0.3, 1}[i%4] {
				mask[a] = 1
			}
		}
		best := e.Argmax(obs, mask)
		e.Evaluate(obs, logits, values)
		requireBest(t, mask, logits, best)
	}
}

func requireBest(t *testing.T, mask []uint8, logits []float32, best int) {
	t.Helper()
	if best < 0 {
		require.NotContains(t, mask, uint8(1), "-1 with legal actions")
		return
	}
	require.Equal(t, uint8(1), mask[best], "illegal action %d", best)
	for a, legal := range mask {
		if legal == 1 {
			require.False(t, logits[a] > logits[best], "legal %d beats %d", a, best)
			require.False(t, a < best && logits[a] == logits[best], "legal %d ties %d before it", a, best)
		}
	}
}

func TestArgmaxBreaksTiesToTheLowerIndex(t *testing.T) {
	f := nettest.RandomNet(10, 12, 6, 8, 1)
	for _, name := range []string{"policy.weight", "policy.bias"} {
		clear(f.Tensor(name).Values) // every logit 0
	}
	n, err := nets.Load(writeFile(t, f.Bytes()))
	require.NoError(t, err)
	e := n.NewEvaluator()
	obs := observation(rand.New(rand.NewPCG(11, 1)), 12, 0.5)
	assert.Equal(t, 0, e.Argmax(obs, []uint8{1, 1, 1, 1, 1, 1}))
	assert.Equal(t, 2, e.Argmax(obs, []uint8{0, 0, 1, 0, 1, 1}))
	assert.Equal(t, 5, e.Argmax(obs, []uint8{0, 0, 0, 0, 0, 1}))
}

func TestEvaluatePanicsOnWrongLengths(t *testing.T) {
	n, err := nets.Load(writeFile(t, goodNet().Bytes()))
	require.NoError(t, err)
	e := n.NewEvaluator()
	obsOK, logitsOK, maskOK, valuesOK := make([]uint8, obs), make([]float32, actions), make([]uint8, actions), make([]float32, 1)
	assert.PanicsWithValue(t, "nets: an observation of 29 values for a net of 30", func() { e.Evaluate(obsOK[1:], logitsOK, valuesOK) })
	assert.PanicsWithValue(t, "nets: 12 logits for a net of 11 actions", func() { e.Evaluate(obsOK, make([]float32, actions+1), valuesOK) })
	assert.PanicsWithValue(t, "nets: 2 values for a net of 1", func() { e.Evaluate(obsOK, logitsOK, make([]float32, 2)) })
	assert.PanicsWithValue(t, "nets: a mask of 10 actions for a net of 11", func() { e.Argmax(obsOK, maskOK[1:]) })
	assert.PanicsWithValue(t, "nets: an observation of 31 values for a net of 30", func() { e.Argmax(make([]uint8, obs+1), maskOK) })
}
