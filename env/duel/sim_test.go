package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/splendor-rl/splendor/internal/rulestest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRandomSimulation plays many seeded games with uniformly random legal
// decisions, in the standard game and in the "choose payment" variant, and
// checks the engine's invariants after every decision; it also requires
// that the games between them reach every phase (pay only in the variant)
// and every victory condition, so that the invariants are checked
// everywhere.
func TestRandomSimulation(t *testing.T) {
	// What the games reached, by payment rule (ChoosePayment).
	phases := [2]map[duel.Phase]int{{}, {}}
	victories := [2]map[duel.Victory]int{{}, {}}
	engine.Simulate(t, deals(rulestest.Games(150)), func(t *testing.T, s *duel.State) {
		checkDecision(t, s)
		checkPayment(t, s)
		rule := b2i(s.ChoosePayment)
		phases[rule][s.Phase]++
		if s.Over() {
			victories[rule][s.Players[s.Seat].Victory()]++
		}
	})
	for rule := range phases {
		for p := duel.PhaseMain; p < duel.PhaseOver; p++ {
			if p == duel.PhasePay && rule == 0 {
				assert.Zero(t, phases[rule][p], "the standard game asked how to pay")
				continue
			}
			assert.Positive(t, phases[rule][p], "no game reached phase %s (choose payment %d)", p, rule)
		}
		for _, v := range []duel.Victory{duel.VictoryPoints, duel.VictoryCrowns, duel.VictoryColour} {
			assert.Positive(t, victories[rule][v], "no game was won by %s alone (choose payment %d)", v, rule)
		}
		t.Logf("choose payment %d: phases %v, victories %v", rule, phases[rule], victories[rule])
	}
}

// b2i is 1 for true: the payment rule as an index of the counts above.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkDecision: a follow-up decision always offers a real choice.
func checkDecision(t *testing.T, s *duel.State) {
	m := engine.Legal(s)
	if s.Phase != duel.PhaseMain && s.Phase != duel.PhaseReturn && s.Phase != duel.PhaseOver && m.Len() < 2 {
		t.Fatalf("phase %s with a single option in %s", s.Phase, s)
	}
}

// checkPayment: the pay phase exists only in the variant, with something
// due that the seat's tokens cover and gold to spend instead; nothing is
// due outside it; and the variant never changes what the main phase allows
// (a buy is possible exactly when it is in the standard game).
func checkPayment(t *testing.T, s *duel.State) {
	var m duel.ActionSet
	s.Legal(&m)
	paying := s.Phase == duel.PhasePay
	for i := 0; i < duel.NumActions; i++ {
		a := duel.ActionAt(i)
		if a.Kind != duel.PayGold && a.Kind != duel.PayDone {
			continue
		}
		if m.Has(i) != (paying && payable(s, a)) {
			t.Fatalf("%q: mask %v in %s", duel.Label(i), m.Has(i), s)
		}
	}
	if !paying && s.Due != [duel.NumCostKinds]uint8{} || paying && !s.ChoosePayment {
		t.Fatalf("due %v in phase %s in %s", s.Due, s.Phase, s)
	}
	if s.Phase == duel.PhaseMain {
		other := *s
		other.ChoosePayment = !s.ChoosePayment
		var m2 duel.ActionSet
		other.Legal(&m2)
		if m != m2 {
			t.Fatalf("the payment variant changed the main phase's mask in %s", s)
		}
	}
}

// payable: in phase pay, gold may pay for a kind still due, and the seat may
// always pay the rest with its tokens.
func payable(s *duel.State, a duel.Action) bool {
	p := &s.Players[s.Seat]
	if a.Kind == duel.PayDone {
		return true
	}
	return p.Tokens[duel.Gold] > 0 && s.Due[a.Gem] > 0 && s.Due[a.Gem] <= p.Tokens[a.Gem]
}

func TestSameSeedSameGame(t *testing.T) {
	a, b, c := duel.New(99), duel.New(99), duel.New(100)
	require.Equal(t, a, b)
	require.NotEqual(t, a.String(), c.String())
	ra, rb := rng.New(5), rng.New(5)
	engine.Decisions(&a, &ra)
	engine.Decisions(&b, &rb)
	require.Equal(t, a, b, "same seed and decisions: same game, bag draws included")
}

func TestSetup(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		s := duel.New(seed)
		require.Equal(t, [duel.NumLevels]uint8{25, 20, 10}, s.DeckSize, "5, 4, 3 cards face up")
		for l := 0; l < duel.NumLevels; l++ {
			for k := duel.PyramidStart[l]; k < duel.PyramidStart[l+1]; k++ {
				require.Equal(t, uint8(l), s.Pyramid[k].Info().Level)
			}
		}
		var onBoard duel.Tokens
		for _, g := range s.Board {
			require.NotEqual(t, duel.NoGem, g, "all 25 tokens are on the board")
			onBoard[g]++
		}
		require.Equal(t, duel.Supply, onBoard)
		require.Equal(t, duel.Tokens{}, s.Bag)
		require.Equal(t, uint8(0), s.Seat, "seat 0 starts")
		require.Equal(t, uint8(0), s.Players[0].Privileges)
		require.Equal(t, uint8(1), s.Players[1].Privileges, "the second player takes a privilege")
		require.Equal(t, uint8(2), s.PrivilegeSupply())
		require.Equal(t, duel.PhaseMain, s.Phase)
	}
}

func TestSpiral(t *testing.T) {
	names := make([]string, duel.NumCells)
	for i, c := range duel.Spiral {
		names[i] = duel.CellName(int(c))
	}
	require.Equal(t, []string{"c3", "c4", "b4", "b3", "b2", "c2", "d2", "d3", "d4", "d5", "c5", "b5", "a5", "a4",
		"a3", "a2", "a1", "b1", "c1", "d1", "e1", "e2", "e3", "e4", "e5"}, names)
}
