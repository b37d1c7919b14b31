package rng

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The published SplitMix64 reference outputs for seed 1234567 pin the
// generator: a change here would silently change every seeded game.
func TestSplitMix64ReferenceSequence(t *testing.T) {
	r := New(1234567)
	want := []uint64{
		6457827717110365317, 3203168211198807973, 9817491932198370423,
		4593380528125082431, 16408922859458223821,
	}
	for i, w := range want {
		assert.Equal(t, w, r.Uint64(), "output %d", i)
	}
}

func TestIntnStaysInRangeAndCoversIt(t *testing.T) {
	r := New(7)
	seen := make([]int, 6)
	for i := 0; i < 6000; i++ {
		v := r.Intn(6)
		require.GreaterOrEqual(t, v, 0)
		require.Less(t, v, 6)
		seen[v]++
	}
	for v, n := range seen {
		assert.InDelta(t, 1000, n, 150, "value %d drawn %d times", v, n)
	}
}

func TestIntnPanicsOnEmptyRange(t *testing.T) {
	r := New(1)
	assert.Panics(t, func() { r.Intn(0) })
}

func TestDeriveSeparatesStreams(t *testing.T) {
	assert.NotEqual(t, Derive(42, 0), Derive(42, 1))
	assert.NotEqual(t, Derive(42, 0), Derive(43, 0))
	assert.Equal(t, Derive(42, 5), Derive(42, 5))
}
