package bitset

import (
	"math/bits"
	"testing"

	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
)

// Five words, like the Duel action space (274 indices): members on both
// sides of every word boundary.
func TestSetAcrossWords(t *testing.T) {
	var words [5]uint64
	members := []int{0, 5, 63, 64, 127, 128, 200, 273}
	for _, i := range members {
		Add(words[:], i)
	}
	Add(words[:], 63) // adding twice changes nothing
	assert.Equal(t, len(members), Len(words[:]))
	for i := 0; i < 5*64; i++ {
		want := false
		for _, m := range members {
			want = want || m == i
		}
		assert.Equal(t, want, Has(words[:], i), "Has(%d)", i)
	}
	for k, m := range members {
		assert.Equal(t, m, Nth(words[:], k), "Nth(%d)", k)
	}
	assert.Equal(t, -1, Nth(words[:], len(members)))
}

func TestEmptySet(t *testing.T) {
	var words [2]uint64
	assert.Equal(t, 0, Len(words[:]))
	assert.Equal(t, -1, Nth(words[:], 0))
	assert.False(t, Has(words[:], 70))
}

// Legal-action generation runs these for every decision of every env.
func TestNoAllocation(t *testing.T) {
	var words [5]uint64
	allocs := testing.AllocsPerRun(100, func() {
		Add(words[:], 130)
		_ = Has(words[:], 130)
		_ = Nth(words[:], Len(words[:])-1)
	})
	assert.Zero(t, allocs)
}

// Nth against clearing the lowest member k times, on dense and sparse
// words, for every k (the negative k of a caller's mistake included).
func TestNthMatchesClearing(t *testing.T) {
	x := uint64(1)
	for trial := 0; trial < 4000; trial++ {
		var words [2]uint64
		for w := range words {
			x = x*6364136223846793005 + 1442695040888963407
			words[w] = x
			for thin := trial % 6; thin > 0; thin-- {
				x = x*6364136223846793005 + 1442695040888963407
				words[w] &= x
			}
		}
		for k := -1; k <= 129; k++ {
			if got, want := Nth(words[:], k), nthByClearing(words[:], k); got != want {
				t.Fatalf("Nth(%#x, %d) = %d, want %d", words, k, got, want)
			}
		}
	}
	for i := 0; i < 128; i++ { // single members: every bit of both words
		words := [2]uint64{}
		Add(words[:], i)
		assert.Equal(t, i, Nth(words[:], 0))
	}
	full := [2]uint64{^uint64(0), ^uint64(0)}
	for k := 0; k < 128; k++ {
		assert.Equal(t, k, Nth(full[:], k))
	}
}

// nthByClearing is Nth as it was first written: drop the lowest member k
// times.
func nthByClearing(words []uint64, k int) int {
	for w, word := range words {
		if n := bits.OnesCount64(word); k >= n {
			k -= n
			continue
		}
		for ; k > 0; k-- {
			word &= word - 1
		}
		return w<<6 + bits.TrailingZeros64(word)
	}
	return -1
}

func TestWriteBytesMatchesHas(t *testing.T) {
	r := rng.New(4)
	for round := 0; round < 200; round++ {
		words := []uint64{r.Uint64(), r.Uint64(), r.Uint64() & (1<<uint(r.Intn(64)) - 1), 0, r.Uint64()}
		n := r.Intn(5*64 + 1)
		dst := make([]uint8, n+3)
		for i := range dst {
			dst[i] = 7 // past len: must stay
		}
		WriteBytes(dst[:n], words)
		for i := 0; i < n; i++ {
			want := uint8(0)
			if Has(words, i) {
				want = 1
			}
			if dst[i] != want {
				t.Fatalf("n=%d: byte %d is %d, want %d", n, i, dst[i], want)
			}
		}
		if dst[n] != 7 || dst[n+1] != 7 || dst[n+2] != 7 {
			t.Fatalf("n=%d: wrote past the end", n)
		}
	}
}

// A small set holds ids up to 15, the top one included.
func TestSmallSet(t *testing.T) {
	type tile uint8
	s := Small[tile](1<<0 | 1<<9 | 1<<15)
	assert.Equal(t, 3, s.Len())
	for x := tile(0); x < 16; x++ {
		assert.Equal(t, x == 0 || x == 9 || x == 15, s.Has(x), "Has(%d)", x)
	}
	assert.Zero(t, Small[tile](0).Len())
}

// AddBits places a block at any offset, across a word boundary too, and
// drops what would fall past the last word.
func TestAddBits(t *testing.T) {
	for _, base := range []int{0, 5, 32, 33, 60, 64, 100, 127} {
		var words [2]uint64
		AddBits(words[:], base, 0b1011)
		for i := 0; i < 128; i++ {
			j := i - base
			want := j == 0 || j == 1 || j == 3
			assert.Equal(t, want, Has(words[:], i), "base %d: Has(%d)", base, i)
		}
	}
}

// AppendBytes packs what WriteBytes spread, for every length (whole bytes
// and a last partial one), after what dst held.
func TestAppendBytesInvertsWriteBytes(t *testing.T) {
	r := rng.New(5)
	for round := 0; round < 200; round++ {
		words := []uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
		n := r.Intn(5*64 + 1)
		mask := make([]uint8, n)
		WriteBytes(mask, words)
		packed := AppendBytes([]uint8{0xAA}, mask)
		if len(packed) != 1+(n+7)/8 || packed[0] != 0xAA {
			t.Fatalf("n=%d: %d bytes, first %#x", n, len(packed), packed[0])
		}
		for i := 0; i < n; i++ {
			if got := packed[1+i/8] >> (i % 8) & 1; got != mask[i] {
				t.Fatalf("n=%d: bit %d is %d, want %d", n, i, got, mask[i])
			}
		}
		if n%8 != 0 && packed[len(packed)-1]>>(n%8) != 0 {
			t.Fatalf("n=%d: bits past the end set", n)
		}
	}
}
