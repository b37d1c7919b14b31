package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestActionIndexIsABijectionWithUniqueLabels(t *testing.T) {
	seen := map[string]int{}
	for i := 0; i < splendor.NumActions; i++ {
		a := splendor.ActionAt(i)
		j, ok := a.Index()
		require.True(t, ok, "index %d", i)
		require.Equal(t, i, j, "ActionAt(%d).Index()", i)
		label := splendor.Label(i)
		require.NotContains(t, seen, label, "label %q used by %d and %d", label, seen[label], i)
		seen[label] = i
		parsed, err := splendor.ParseAction(label)
		require.NoError(t, err)
		require.Equal(t, i, parsed)
		require.Equal(t, label, a.String())
	}
}

// The layout is documented in docs/envs and used by trained policies: pin
// the first index of every block.
func TestActionLayout(t *testing.T) {
	want := map[int]string{
		0: "take white blue green", 9: "take green red black", 10: "take white blue", 19: "take red black",
		20: "take white", 24: "take black", 25: "take 2 white", 29: "take 2 black",
		30: "reserve L1 slot1", 41: "reserve L3 slot4", 42: "reserve L1 deck", 44: "reserve L3 deck",
		45: "buy L1 slot1", 56: "buy L3 slot4", 57: "buy reserved1", 59: "buy reserved3",
		60: "return white", 65: "return gold", 66: "noble1", 70: "noble5", 71: "pass",
		72: "pay gold for white", 76: "pay gold for black", 77: "pay done",
	}
	for i, label := range want {
		assert.Equal(t, label, splendor.Label(i), "index %d", i)
	}
	assert.Equal(t, 78, splendor.NumActions)
}

func TestMalformedActionsHaveNoIndex(t *testing.T) {
	bad := []splendor.Action{
		{},
		{Kind: splendor.TakeDifferent, Gems: 0b11111},
		{Kind: splendor.TakeDifferent},
		{Kind: splendor.TakeTwo, Gem: splendor.Gold},
		{Kind: splendor.BuyCard, Level: 3},
		{Kind: splendor.ReserveCard, Slot: 4},
		{Kind: splendor.BuyReserved, Slot: 3},
		{Kind: splendor.ChooseNoble, Slot: 5},
		{Kind: splendor.PayGold, Gem: splendor.Gold},
	}
	for _, a := range bad {
		_, ok := a.Index()
		assert.False(t, ok, "%+v", a)
	}
	_, err := splendor.ParseAction("take 3 gold")
	assert.Error(t, err)
}

func TestApplyRefusesOutOfRangeIndices(t *testing.T) {
	s, _ := splendor.New(2, 1)
	for _, i := range []int{-1, splendor.NumActions, 1000} {
		before := s
		assert.ErrorIs(t, s.Apply(i), splendor.ErrIllegal)
		assert.Equal(t, before, s)
	}
}

func TestActionSetNth(t *testing.T) {
	var m splendor.ActionSet
	for _, i := range []int{3, 63, 64, 77} {
		m.Add(i)
	}
	assert.Equal(t, 4, m.Len())
	assert.Equal(t, []int{3, 63, 64, 77, -1}, []int{m.Nth(0), m.Nth(1), m.Nth(2), m.Nth(3), m.Nth(4)})
}
