package env_test

import (
	"slices"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
)

func TestRedealPermutesOnlyTheListedSlots(t *testing.T) {
	cards := []int{10, 11, 12, 13, 14, 15}
	r := rng.New(3)
	moved := false
	for round := 0; round < 20; round++ {
		env.Redeal(&r, []*int{&cards[0], &cards[2], &cards[4]})
		assert.Equal(t, []int{11, 13, 15}, []int{cards[1], cards[3], cards[5]}, "unlisted slots keep their cards")
		held := []int{cards[0], cards[2], cards[4]}
		slices.Sort(held)
		assert.Equal(t, []int{10, 12, 14}, held, "the listed slots keep the same cards between them")
		moved = moved || cards[0] != 10
	}
	assert.True(t, moved, "Redeal never moved a card")
}
