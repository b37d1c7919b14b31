package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxDecisions bounds a random game so that a rules change that stops games
// from ending fails instead of hanging.
const maxDecisions = 5000

// TestRandomSimulation plays many seeded games with uniformly random legal
// decisions, in the standard game and in the "choose payment" variant, and
// checks the engine's invariants after every decision; it also requires
// that the games between them reach every phase (pay only in the variant)
// and every victory condition, so that the invariants are checked
// everywhere.
func TestRandomSimulation(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 30
	}
	for _, choose := range []bool{false, true} {
		phases := map[duel.Phase]int{}
		victories := map[duel.Victory]int{}
		for seed := uint64(0); seed < uint64(games); seed++ {
			s := duel.New(seed)
			s.ChoosePayment = choose
			r := rng.New(seed + 1000)
			for n := 0; !s.Over(); n++ {
				require.Less(t, n, maxDecisions, "game %d does not end", seed)
				checkInvariants(t, &s)
				phases[s.Phase]++
				var m duel.ActionSet
				s.Legal(&m)
				require.NoError(t, s.Apply(m.Nth(r.Intn(m.Len()))))
			}
			checkInvariants(t, &s)
			victories[s.Players[s.Seat].Victory()]++
		}
		for p := duel.PhaseMain; p < duel.PhaseOver; p++ {
			if p == duel.PhasePay && !choose {
				assert.Zero(t, phases[p], "the standard game asked how to pay")
				continue
			}
			assert.Positive(t, phases[p], "no game reached phase %s (choose payment %v)", p, choose)
		}
		for _, v := range []duel.Victory{duel.VictoryPoints, duel.VictoryCrowns, duel.VictoryColour} {
			assert.Positive(t, victories[v], "no game was won by %s alone", v)
		}
		t.Logf("choose payment %v: phases %v, victories %v", choose, phases, victories)
	}
}

func checkInvariants(t *testing.T, s *duel.State) {
	t.Helper()
	require.NoError(t, s.Check(), "Check in %s", s)
	checkTokens(t, s)
	checkCards(t, s)
	checkPrivilegesAndRoyals(t, s)
	checkScores(t, s)
	checkMaskMatchesApply(t, s)
	checkPayment(t, s)
	checkCloneAndNotation(t, s)
}

// checkTokens: board, bag and hands hold the box's 25 tokens by kind, and
// only the seat in the middle of its turn may hold more than 10.
func checkTokens(t *testing.T, s *duel.State) {
	var total duel.Tokens
	for _, g := range s.Board {
		if g != duel.NoGem {
			total[g]++
		}
	}
	for k := range total {
		total[k] += s.Bag[k] + s.Players[0].Tokens[k] + s.Players[1].Tokens[k]
	}
	if total != duel.Supply {
		t.Fatalf("tokens by kind %v, want %v in %s", total, duel.Supply, s)
	}
	if held := s.Players[1-s.Seat].Tokens.Total(); held > duel.TokenLimit {
		t.Fatalf("the seat not to act holds %d tokens in %s", held, s)
	}
	if s.Phase == duel.PhaseOver && s.Players[s.Seat].Tokens.Total() > duel.TokenLimit {
		t.Fatalf("the game ended with a seat over the limit in %s", s)
	}
}

// checkCards: every card is in exactly one place (the card being paid for
// is pending), and a pyramid slot is empty beside a deck with cards only
// while its refill waits for the end of the turn: after the mandatory
// action, one slot at most.
func checkCards(t *testing.T, s *duel.State) {
	var seen [duel.NumCards]int
	if s.Phase == duel.PhasePay {
		seen[s.Pending]++
	}
	waiting := 0
	for l := 0; l < duel.NumLevels; l++ {
		for _, c := range s.Decks[l][:s.DeckSize[l]] {
			seen[c]++
		}
		for k := duel.PyramidStart[l]; k < duel.PyramidStart[l+1]; k++ {
			if c := s.Pyramid[k]; c != duel.NoCard {
				seen[c]++
			} else if s.DeckSize[l] != 0 {
				waiting++
			}
		}
	}
	if waiting > 1 || waiting == 1 && (s.Phase == duel.PhaseMain || s.Phase == duel.PhaseReserve) {
		t.Fatalf("%d slots wait for a refill in phase %s in %s", waiting, s.Phase, s)
	}
	for i := range s.Players {
		p := &s.Players[i]
		if p.NumReserved > duel.MaxReserved || p.Blind>>p.NumReserved != 0 {
			t.Fatalf("seat %d reserve %d cards, blind %b in %s", i, p.NumReserved, p.Blind, s)
		}
		for _, c := range p.Reserved[:p.NumReserved] {
			seen[c]++
		}
		for c := duel.Card(0); c < duel.NumCards; c++ {
			if p.Bought.Has(c) {
				seen[c]++
			}
		}
	}
	for c, n := range seen {
		if n != 1 {
			t.Fatalf("card %d found %d times in %s", c, n, s)
		}
	}
}

// checkPrivilegesAndRoyals: three privileges in all, each royal with one
// seat at most, and a royal for each crown threshold once the turn is past
// the purchase's decisions.
func checkPrivilegesAndRoyals(t *testing.T, s *duel.State) {
	if s.Players[0].Privileges+s.Players[1].Privileges > duel.NumPrivileges {
		t.Fatalf("more than 3 privileges in %s", s)
	}
	if s.Players[0].Royals&s.Players[1].Royals != 0 {
		t.Fatalf("a royal with both seats in %s", s)
	}
	for i := range s.Players {
		p := &s.Players[i]
		earned := 0
		for _, th := range duel.RoyalThresholds {
			if p.Crowns >= th {
				earned++
			}
		}
		settled := s.Phase == duel.PhaseMain || s.Phase == duel.PhaseReturn || s.Phase == duel.PhaseOver
		if p.Royals.Len() > earned || (settled && p.Royals.Len() != earned) {
			t.Fatalf("seat %d holds %d royals with %d crowns in %s", i, p.Royals.Len(), p.Crowns, s)
		}
	}
}

// checkScores: bonuses, points, crowns and colour points follow from the
// cards, the joker colours and the royals.
func checkScores(t *testing.T, s *duel.State) {
	for i := range s.Players {
		p := &s.Players[i]
		var bonus, colourPoints [duel.NumColours]uint8
		var points, crowns uint8
		for c := duel.Card(0); c < duel.NumCards; c++ {
			info := c.Info()
			colour := info.Colour
			if o := c.JokerOrdinal(); o >= 0 {
				colour = s.JokerColour[o]
				bought := s.Players[0].Bought.Has(c) || s.Players[1].Bought.Has(c)
				pending := s.Phase == duel.PhaseJoker && s.Pending == c
				if bought != (colour != duel.NoGem) && !pending {
					t.Fatalf("joker %d colour %s, bought %v in %s", c, colour, bought, s)
				}
			}
			if !p.Bought.Has(c) {
				continue
			}
			points += info.Points
			crowns += info.Crowns
			if colour != duel.NoGem {
				bonus[colour] += info.Bonuses
				colourPoints[colour] += info.Points
			}
		}
		for r := duel.Royal(0); r < duel.NumRoyals; r++ {
			if p.Royals.Has(r) {
				points += r.Info().Points
			}
		}
		if bonus != p.Bonus || colourPoints != p.ColourPoints || points != p.Points || crowns != p.Crowns {
			t.Fatalf("seat %d scores do not follow from its cards in %s", i, s)
		}
	}
}

// checkMaskMatchesApply: the mask is exactly the set of indices Apply
// accepts, it is empty exactly when the game is over, a follow-up decision
// always offers a real choice, and refused actions change nothing.
func checkMaskMatchesApply(t *testing.T, s *duel.State) {
	var m duel.ActionSet
	s.Legal(&m)
	if s.Over() != (m.Len() == 0) {
		t.Fatalf("mask emptiness vs game over in %s", s)
	}
	if s.Phase != duel.PhaseMain && s.Phase != duel.PhaseReturn && s.Phase != duel.PhaseOver && m.Len() < 2 {
		t.Fatalf("phase %s with a single option in %s", s.Phase, s)
	}
	for i := 0; i < duel.NumActions; i++ {
		c := *s
		err := c.Apply(i)
		if m.Has(i) != (err == nil) {
			t.Fatalf("%q: mask %v, apply error %v in %s", duel.Label(i), m.Has(i), err, s)
		}
		if err != nil && c != *s {
			t.Fatalf("refused %q changed the state %s", duel.Label(i), s)
		}
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

func checkCloneAndNotation(t *testing.T, s *duel.State) {
	text := s.String()
	parsed, err := duel.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if parsed != *s {
		t.Fatalf("notation round trip of %s gave %s", text, parsed)
	}
	var m duel.ActionSet
	s.Legal(&m)
	if m.Len() > 0 {
		clone := *s
		require.NoError(t, clone.Apply(m.Nth(m.Len()-1)))
		if s.String() != text {
			t.Fatalf("applying to a clone changed the original %s", text)
		}
	}
}

func TestSameSeedSameGame(t *testing.T) {
	a, b, c := duel.New(99), duel.New(99), duel.New(100)
	require.Equal(t, a, b)
	require.NotEqual(t, a.String(), c.String())
	ra, rb := rng.New(5), rng.New(5)
	playRandom(&a, &ra)
	playRandom(&b, &rb)
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
