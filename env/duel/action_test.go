package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestActionIndexIsABijectionWithUniqueLabels(t *testing.T) {
	seen := map[string]int{}
	for i := 0; i < duel.NumActions; i++ {
		a := duel.ActionAt(i)
		j, ok := a.Index()
		require.True(t, ok, "index %d", i)
		require.Equal(t, i, j, "ActionAt(%d).Index()", i)
		label := duel.Label(i)
		require.NotContains(t, seen, label, "label %q used by %d and %d", label, seen[label], i)
		seen[label] = i
		parsed, err := duel.ParseAction(label)
		require.NoError(t, err)
		require.Equal(t, i, parsed)
		require.Equal(t, label, a.String())
	}
}

// The layout is documented in docs/duel-rules.md and used by trained
// policies: pin the first and last index of every block.
func TestActionLayout(t *testing.T) {
	want := map[int]string{
		0: "take a1", 12: "take c3", 24: "take e5",
		25: "take a1 b1", 44: "take d5 e5", 45: "take a1 a2", 64: "take e4 e5",
		65: "take a1 b2", 80: "take d4 e5", 81: "take b1 a2", 96: "take e4 d5",
		97: "take a1 b1 c1", 111: "take c5 d5 e5", 112: "take a1 a2 a3", 126: "take e3 e4 e5",
		127: "take a1 b2 c3", 135: "take c3 d4 e5", 136: "take c1 b2 a3", 144: "take e3 d4 c5",
		145: "privilege a1", 169: "privilege e5", 170: "replenish", 171: "gold a1", 195: "gold e5",
		196: "reserve L1 slot1", 200: "reserve L1 slot5", 201: "reserve L2 slot1", 207: "reserve L3 slot3",
		208: "reserve L1 deck", 210: "reserve L3 deck", 211: "buy L1 slot1", 222: "buy L3 slot3",
		223: "buy reserved1", 225: "buy reserved3", 226: "joker white", 230: "joker black",
		231: "token a1", 255: "token e5", 256: "steal white", 261: "steal pearl",
		262: "royal 2pt again", 263: "royal 2pt privilege", 264: "royal 2pt steal", 265: "royal 3pt",
		266: "return white", 271: "return pearl", 272: "return gold", 273: "pass",
		274: "pay gold for white", 278: "pay gold for black", 279: "pay gold for pearl", 280: "pay done",
	}
	for i, label := range want {
		assert.Equal(t, label, duel.Label(i), "index %d", i)
	}
	assert.Equal(t, 281, duel.NumActions)
}

func TestMalformedActionsHaveNoIndex(t *testing.T) {
	bad := []duel.Action{
		{},
		{Kind: duel.TakeLine, Cell: 0, Len: 0},
		{Kind: duel.TakeLine, Cell: 0, Len: 4},
		{Kind: duel.TakeLine, Cell: 0, Len: 1, Dir: duel.Down}, // a single token is spelt Right only
		{Kind: duel.TakeLine, Cell: 4, Len: 2, Dir: duel.Right},
		{Kind: duel.TakeLine, Cell: 20, Len: 2, Dir: duel.Down},
		{Kind: duel.TakeLine, Cell: 0, Len: 3, Dir: duel.DownLeft},
		{Kind: duel.TakeLine, Cell: 25, Len: 1},
		{Kind: duel.UsePrivilege, Cell: 25},
		{Kind: duel.TakeGold, Cell: 25},
		{Kind: duel.ReserveCard, Level: 2, Slot: 3},
		{Kind: duel.BuyCard, Level: 1, Slot: 4},
		{Kind: duel.BuyCard, Level: 3},
		{Kind: duel.ReserveTop, Level: 3},
		{Kind: duel.BuyReserved, Slot: 3},
		{Kind: duel.ChooseJoker, Gem: duel.Pearl},
		{Kind: duel.ChooseToken, Cell: 25},
		{Kind: duel.ChooseSteal, Gem: duel.Gold},
		{Kind: duel.ChooseRoyal, Slot: 4},
		{Kind: duel.ReturnToken, Gem: duel.NoGem},
		{Kind: duel.PayGold, Gem: duel.Gold},
	}
	for _, a := range bad {
		_, ok := a.Index()
		assert.False(t, ok, "%+v", a)
		assert.Equal(t, "invalid action", a.String())
	}
	for _, l := range []string{"steal gold", "joker pearl", "royal 2pt", "take", "", "pay gold for gold", "pay gold"} {
		_, err := duel.ParseAction(l)
		assert.Error(t, err, l)
	}
}

func TestApplyRefusesOutOfRangeIndices(t *testing.T) {
	s := duel.New(1)
	for _, i := range []int{-1, duel.NumActions, 1000} {
		before := s
		assert.ErrorIs(t, s.Apply(i), duel.ErrIllegal)
		assert.Equal(t, before, s)
	}
}

func TestActionSetNth(t *testing.T) {
	var m duel.ActionSet
	for _, i := range []int{3, 63, 64, 200, 280} {
		m.Add(i)
	}
	assert.Equal(t, 5, m.Len())
	assert.Equal(t, []int{3, 63, 64, 200, 280, -1}, []int{m.Nth(0), m.Nth(1), m.Nth(2), m.Nth(3), m.Nth(4), m.Nth(5)})
}

func TestCellNames(t *testing.T) {
	assert.Equal(t, "a1", duel.CellName(0))
	assert.Equal(t, "c3", duel.CellName(12))
	assert.Equal(t, "e5", duel.CellName(24))
	assert.Equal(t, "b4", duel.CellName(16))
}
