package bitset

import (
	"testing"

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
