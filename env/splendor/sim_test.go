package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// TestRandomSimulation plays many seeded games for every player count, with
// the automatic payment and with the payment choice, and checks the
// engine's invariants after every decision.
func TestRandomSimulation(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 30
	}
	for _, choose := range []bool{false, true} {
		for players := splendor.MinPlayers; players <= splendor.MaxPlayers; players++ {
			for seed := uint64(0); seed < uint64(games); seed++ {
				s, err := splendor.New(players, seed)
				require.NoError(t, err)
				s.ChoosePayment = choose
				r := rng.New(seed + 1000)
				for !s.Over() {
					checkInvariants(t, &s, players)
					var m splendor.ActionSet
					s.Legal(&m)
					require.NoError(t, s.Apply(m.Nth(r.Intn(m.Len()))))
				}
				checkInvariants(t, &s, players)
			}
		}
	}
}

func checkInvariants(t *testing.T, s *splendor.State, players int) {
	t.Helper()
	require.NoError(t, s.Check(), "Check in %s", s)
	checkTokens(t, s, players)
	checkCards(t, s)
	checkScores(t, s)
	checkPayment(t, s)
	checkPaymentRulesAgree(t, s)
	checkMaskMatchesApply(t, s)
	checkCloneAndNotation(t, s)
}

func checkTokens(t *testing.T, s *splendor.State, players int) {
	supply := map[int]int{2: 4, 3: 5, 4: 7}[players]
	for g := splendor.White; g <= splendor.Gold; g++ {
		total := int(s.Bank[g])
		for i := 0; i < players; i++ {
			total += int(s.Players[i].Tokens[g])
		}
		want := supply
		if g == splendor.Gold {
			want = splendor.GoldTokens
		}
		if total != want {
			t.Fatalf("%s tokens not conserved (%d, want %d) in %s", g, total, want, s)
		}
	}
	for i := 0; i < players; i++ {
		held := s.Players[i].Tokens.Total()
		if s.Phase != splendor.PhaseReturn || i != int(s.Seat) {
			if held > splendor.TokenLimit {
				t.Fatalf("seat %d over the limit in %s", i, s)
			}
		}
	}
}

// checkCards: every card is in exactly one place (a card being paid for is
// in none of the others), and a market slot is empty only when its deck is,
// or while the card it held is being paid for.
func checkCards(t *testing.T, s *splendor.State) {
	var seen [splendor.NumCards]int
	if s.Buying != splendor.NoCard {
		seen[s.Buying]++
	}
	for l := 0; l < splendor.NumLevels; l++ {
		for _, c := range s.Decks[l][:s.DeckSize[l]] {
			seen[c]++
		}
		for _, c := range s.Market[l] {
			if c == splendor.NoCard {
				paying := s.Buying != splendor.NoCard && int(s.Buying.Info().Level) == l
				if s.DeckSize[l] != 0 && !paying {
					t.Fatalf("empty slot beside a non-empty deck in %s", s)
				}
				continue
			}
			seen[c]++
		}
	}
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		if p.NumReserved > splendor.MaxReserved {
			t.Fatalf("seat %d holds %d reserved cards", i, p.NumReserved)
		}
		for _, c := range p.Reserved[:p.NumReserved] {
			seen[c]++
		}
		for c := splendor.Card(0); c < splendor.NumCards; c++ {
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

func checkScores(t *testing.T, s *splendor.State) {
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		points := splendor.NoblePoints * p.Nobles.Len()
		var bonus [splendor.NumColours]uint8
		for c := splendor.Card(0); c < splendor.NumCards; c++ {
			if p.Bought.Has(c) {
				points += int(c.Info().Points)
				bonus[c.Info().Bonus]++
			}
		}
		if points != int(p.Points) || bonus != p.Bonus {
			t.Fatalf("seat %d points or bonuses do not follow from its cards in %s", i, s)
		}
	}
}

// checkPayment: the payment phase holds exactly a card being paid for and
// gems due that the seat holds, with gold to pay for them instead; it only
// happens with the payment choice.
func checkPayment(t *testing.T, s *splendor.State) {
	paying := s.Phase == splendor.PhasePay
	if paying != (s.Buying != splendor.NoCard) || !paying && s.Due != [splendor.NumColours]uint8{} {
		t.Fatalf("card being bought or gems due outside phase pay in %s", s)
	}
	if !paying {
		return
	}
	p := &s.Players[s.Seat]
	if !s.ChoosePayment || p.Tokens[splendor.Gold] == 0 || s.Due == [splendor.NumColours]uint8{} {
		t.Fatalf("phase pay with nothing to decide in %s", s)
	}
	for g := splendor.White; g <= splendor.Black; g++ {
		if s.Due[g] > p.Tokens[g] {
			t.Fatalf("more %s due than held in %s", g, s)
		}
	}
}

// checkPaymentRulesAgree: the payment rule changes nothing about which
// actions are legal in the main phase, and a buy paid with "pay done" (gems
// first) ends exactly where the automatic payment does.
func checkPaymentRulesAgree(t *testing.T, s *splendor.State) {
	if s.Phase != splendor.PhaseMain {
		return
	}
	auto, choose := *s, *s
	auto.ChoosePayment, choose.ChoosePayment = false, true
	var am, cm splendor.ActionSet
	auto.Legal(&am)
	choose.Legal(&cm)
	if am != cm {
		t.Fatalf("the payment rule changes the legal actions in %s", s)
	}
	done, _ := splendor.ParseAction("pay done")
	for k := 0; k < am.Len(); k++ {
		i := am.Nth(k)
		if kind := splendor.ActionAt(i).Kind; kind != splendor.BuyCard && kind != splendor.BuyReserved {
			continue
		}
		a, c := auto, choose
		require.NoError(t, a.Apply(i))
		require.NoError(t, c.Apply(i))
		for c.Phase == splendor.PhasePay {
			require.NoError(t, c.Apply(done))
		}
		c.ChoosePayment = false
		if a != c {
			t.Fatalf("%q then pay done: %s, automatic payment: %s", splendor.Label(i), c, a)
		}
	}
}

// checkMaskMatchesApply: the mask is exactly the set of indices Apply
// accepts, it is empty exactly when the game is over, and refused actions
// change nothing.
func checkMaskMatchesApply(t *testing.T, s *splendor.State) {
	var m splendor.ActionSet
	s.Legal(&m)
	if s.Over() != (m.Len() == 0) {
		t.Fatalf("mask emptiness vs game over in %s", s)
	}
	for i := 0; i < splendor.NumActions; i++ {
		c := *s
		err := c.Apply(i)
		if m.Has(i) != (err == nil) {
			t.Fatalf("%q: mask %v, apply error %v in %s", splendor.Label(i), m.Has(i), err, s)
		}
		if err != nil && c != *s {
			t.Fatalf("refused %q changed the state %s", splendor.Label(i), s)
		}
	}
}

func checkCloneAndNotation(t *testing.T, s *splendor.State) {
	text := s.String()
	parsed, err := splendor.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if parsed != *s {
		t.Fatalf("notation round trip of %s gave %s", text, parsed)
	}
	var m splendor.ActionSet
	s.Legal(&m)
	if m.Len() > 0 {
		clone := *s
		require.NoError(t, clone.Apply(m.Nth(0)))
		if s.String() != text {
			t.Fatalf("applying to a clone changed the original %s", text)
		}
	}
}

func TestSameSeedSameDeal(t *testing.T) {
	for players := 2; players <= 4; players++ {
		a, _ := splendor.New(players, 99)
		b, _ := splendor.New(players, 99)
		c, _ := splendor.New(players, 100)
		require.Equal(t, a, b)
		require.NotEqual(t, a.String(), c.String())
	}
}

func TestSetupByPlayerCount(t *testing.T) {
	cases := []struct{ players, gems, nobles int }{{2, 4, 3}, {3, 5, 4}, {4, 7, 5}}
	for _, tc := range cases {
		s, err := splendor.New(tc.players, 1)
		require.NoError(t, err)
		for g := splendor.White; g <= splendor.Black; g++ {
			require.Equal(t, tc.gems, int(s.Bank[g]))
		}
		require.Equal(t, splendor.GoldTokens, int(s.Bank[splendor.Gold]))
		revealed := 0
		for _, n := range s.Nobles {
			if n != splendor.NoNoble {
				revealed++
			}
		}
		require.Equal(t, tc.nobles, revealed)
		require.Equal(t, [3]uint8{36, 26, 16}, s.DeckSize, "4 face-up cards dealt per level")
		for l := 0; l < splendor.NumLevels; l++ {
			for _, c := range s.Market[l] {
				require.Equal(t, uint8(l), c.Info().Level)
			}
		}
	}
	for _, bad := range []int{0, 1, 5} {
		_, err := splendor.New(bad, 1)
		require.ErrorIs(t, err, splendor.ErrPlayers)
	}
}
