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

// Every seeded deal goes through Shuffle: pin the permutation and the number
// of draws it takes (the next output), so that a change to the order of draws
// cannot pass unnoticed.
func TestShuffleIsPinnedFisherYates(t *testing.T) {
	r := New(42)
	xs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	Shuffle(&r, xs)
	assert.Equal(t, []int{8, 3, 6, 5, 4, 0, 9, 2, 1, 7}, xs)
	assert.Equal(t, uint64(11408980392250668974), r.Uint64())

	one := []string{"only"}
	r = New(42)
	Shuffle(&r, one)
	Shuffle(&r, one[:0])
	assert.Equal(t, []string{"only"}, one)
	assert.Equal(t, New(42), r, "shuffling fewer than two elements draws nothing")
}

func TestStateContinuesTheStream(t *testing.T) {
	r := New(42)
	r.Uint64()
	saved := New(r.State())
	for range 10 {
		if r.Uint64() != saved.Uint64() {
			t.Fatal("a generator rebuilt from State does not continue the stream")
		}
	}
}
