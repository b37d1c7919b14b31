package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rulestest"
	"github.com/stretchr/testify/assert"
)

// TestActionTable: the action space is a bijection with unique labels, and
// its layout, documented in docs/duel-rules.md and used by trained
// policies, keeps the first and last index of every block.
func TestActionTable(t *testing.T) {
	layout := map[int]string{
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
	if duel.NumActions != 281 {
		t.Fatalf("%d actions, want 281", duel.NumActions)
	}
	rulestest.ActionTable(t, duel.NumActions, duel.ActionAt, duel.Label, duel.ParseAction, layout)
}

func TestMalformedActionsHaveNoIndex(t *testing.T) {
	rulestest.NoIndex(t, []duel.Action{
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
		{Kind: duel.Pass, Cell: 3}, // a field its Kind does not use
	}, duel.ParseAction, "steal gold", "joker pearl", "royal 2pt", "take", "", "pay gold for gold", "pay gold")
}

func TestApplyRefusesOutOfRangeIndices(t *testing.T) { engine.RefusesOutOfRange(t, duel.New(1)) }

func TestActionSetNth(t *testing.T) { engine.SetNth(t, 3, 63, 64, 200, 280) }

func TestCellNames(t *testing.T) {
	assert.Equal(t, "a1", duel.CellName(0))
	assert.Equal(t, "c3", duel.CellName(12))
	assert.Equal(t, "e5", duel.CellName(24))
	assert.Equal(t, "b4", duel.CellName(16))
}
