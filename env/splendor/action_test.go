package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rulestest"
)

// TestActionTable: the action space is a bijection with unique labels, and
// its layout, documented in docs/envs and used by trained policies, keeps
// the first index of every block.
func TestActionTable(t *testing.T) {
	layout := map[int]string{
		0: "take white blue green", 9: "take green red black", 10: "take white blue", 19: "take red black",
		20: "take white", 24: "take black", 25: "take 2 white", 29: "take 2 black",
		30: "reserve L1 slot1", 41: "reserve L3 slot4", 42: "reserve L1 deck", 44: "reserve L3 deck",
		45: "buy L1 slot1", 56: "buy L3 slot4", 57: "buy reserved1", 59: "buy reserved3",
		60: "return white", 65: "return gold", 66: "noble1", 70: "noble5", 71: "pass",
		72: "pay gold for white", 76: "pay gold for black", 77: "pay done",
	}
	if splendor.NumActions != 78 {
		t.Fatalf("%d actions, want 78", splendor.NumActions)
	}
	rulestest.ActionTable(t, splendor.NumActions, splendor.ActionAt, splendor.Label, splendor.ParseAction, layout)
}

func TestMalformedActionsHaveNoIndex(t *testing.T) {
	rulestest.NoIndex(t, []splendor.Action{
		{},
		{Kind: splendor.TakeDifferent, Gems: 0b11111},
		{Kind: splendor.TakeDifferent},
		{Kind: splendor.TakeTwo, Gem: splendor.Gold},
		{Kind: splendor.BuyCard, Level: 3},
		{Kind: splendor.ReserveCard, Slot: 4},
		{Kind: splendor.BuyReserved, Slot: 3},
		{Kind: splendor.ChooseNoble, Slot: 5},
		{Kind: splendor.PayGold, Gem: splendor.Gold},
		{Kind: splendor.TakeTwo, Gem: splendor.Red, Slot: 1}, // a field its Kind does not use
	}, splendor.ParseAction, "take 3 gold")
}

func TestApplyRefusesOutOfRangeIndices(t *testing.T) {
	s, _ := splendor.New(2, 1)
	engine.RefusesOutOfRange(t, s)
}

func TestActionSetNth(t *testing.T) { engine.SetNth(t, 3, 63, 64, 77) }
