package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// The engine packs the five colours into one word to find legal actions and
// payments fast (lanes.go); these tests hold it to the rules written out
// plainly, one colour at a time, in reachable states and in states whose
// counts run to the limits of their fields.

// referenceLegal is the legal set of the main and noble phases, spelled out.
func referenceLegal(s *splendor.State) splendor.ActionSet {
	var m splendor.ActionSet
	p := &s.Players[s.Seat]
	switch s.Phase {
	case splendor.PhaseMain:
		referenceMain(&m, s, p)
	case splendor.PhaseChooseNoble:
		for slot, n := range s.Nobles {
			if n != splendor.NoNoble && referenceMeets(p, n) {
				addAction(&m, splendor.Action{Kind: splendor.ChooseNoble, Slot: uint8(slot)})
			}
		}
	}
	return m
}

func referenceMain(m *splendor.ActionSet, s *splendor.State, p *splendor.Player) {
	referenceTakes(m, s)
	for l := range s.Market {
		for slot, c := range s.Market[l] {
			if c == splendor.NoCard {
				continue
			}
			if p.NumReserved < splendor.MaxReserved {
				addAction(m, splendor.Action{Kind: splendor.ReserveCard, Level: uint8(l), Slot: uint8(slot)})
			}
			if referenceAfford(p, c) {
				addAction(m, splendor.Action{Kind: splendor.BuyCard, Level: uint8(l), Slot: uint8(slot)})
			}
		}
		if p.NumReserved < splendor.MaxReserved && s.DeckSize[l] > 0 {
			addAction(m, splendor.Action{Kind: splendor.ReserveTop, Level: uint8(l)})
		}
	}
	for r := 0; r < int(p.NumReserved); r++ {
		if referenceAfford(p, p.Reserved[r]) {
			addAction(m, splendor.Action{Kind: splendor.BuyReserved, Slot: uint8(r)})
		}
	}
	if *m == (splendor.ActionSet{}) {
		addAction(m, splendor.Action{Kind: splendor.Pass})
	}
}

// referenceTakes: three different colours, or all that are left when fewer
// remain; two of a colour from a pile of four or more.
func referenceTakes(m *splendor.ActionSet, s *splendor.State) {
	var avail splendor.GemSet
	for g := splendor.White; g <= splendor.Black; g++ {
		if s.Bank[g] > 0 {
			avail |= 1 << g
		}
		if s.Bank[g] >= 4 {
			addAction(m, splendor.Action{Kind: splendor.TakeTwo, Gem: g})
		}
	}
	for set := splendor.GemSet(1); set < 1<<splendor.NumColours; set++ {
		if set&avail == set && set.Len() == min(avail.Len(), 3) {
			addAction(m, splendor.Action{Kind: splendor.TakeDifferent, Gems: set})
		}
	}
}

func referenceAfford(p *splendor.Player, c splendor.Card) bool {
	short := 0
	for g, cost := range c.Info().Cost {
		short += max(0, int(cost)-int(p.Bonus[g])-int(p.Tokens[g]))
	}
	return short <= int(p.Tokens[splendor.Gold])
}

func referenceMeets(p *splendor.Player, n splendor.Noble) bool {
	for g, need := range n.Needs() {
		if p.Bonus[g] < need {
			return false
		}
	}
	return true
}

func addAction(m *splendor.ActionSet, a splendor.Action) {
	i, ok := a.Index()
	if !ok {
		panic("no index for " + a.String())
	}
	m.Add(i)
}

func requireReferenceLegal(t *testing.T, s *splendor.State) {
	t.Helper()
	if s.Phase != splendor.PhaseMain && s.Phase != splendor.PhaseChooseNoble {
		return
	}
	var m splendor.ActionSet
	s.Legal(&m)
	if want := referenceLegal(s); m != want {
		t.Fatalf("legal %v, the rules give %v in %s", m, want, s)
	}
}

func TestLegalMatchesReference(t *testing.T) {
	for players := splendor.MinPlayers; players <= splendor.MaxPlayers; players++ {
		for seed := uint64(0); seed < 200; seed++ {
			s, _ := splendor.New(players, seed)
			r := rng.New(seed)
			var m splendor.ActionSet
			for !s.Over() {
				requireReferenceLegal(t, &s)
				s.Legal(&m)
				if err := s.Apply(m.Nth(r.Intn(m.Len()))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestLegalMatchesReferenceAtLimits sets the seat's tokens and bonuses and
// the bank to arbitrary byte values, far beyond what a game reaches: the
// packed arithmetic must still agree with the rules, value for value.
func TestLegalMatchesReferenceAtLimits(t *testing.T) {
	r := rng.New(7)
	extremes := []uint8{0, 1, 2, 3, 4, 7, 9, 18, 127, 128, 200, 254, 255}
	pick := func() uint8 {
		if r.Intn(2) == 0 {
			return extremes[r.Intn(len(extremes))]
		}
		return uint8(r.Intn(256))
	}
	for trial := 0; trial < 20000; trial++ {
		s := midgame(uint64(trial%64), trial%60)
		if s.Over() {
			continue
		}
		p := &s.Players[s.Seat]
		for g := range p.Tokens {
			p.Tokens[g], s.Bank[g] = pick(), pick()
		}
		for g := range p.Bonus {
			p.Bonus[g] = pick()
		}
		for _, phase := range []splendor.Phase{splendor.PhaseMain, splendor.PhaseChooseNoble} {
			s.Phase = phase
			requireReferenceLegal(t, &s)
		}
	}
}

// TestBuyMatchesReferenceAtLimits: paying for a card takes, colour by
// colour, the gems the seat holds up to the price less its bonuses, and gold
// for the rest; with the payment choice those gems are left due instead,
// while gold can still replace them. Tokens and bonuses run up to 255.
func TestBuyMatchesReferenceAtLimits(t *testing.T) {
	r := rng.New(11)
	count := func() uint8 { return uint8(r.Intn(256) >> r.Intn(8)) } // small counts as often as large
	var paying, settled int
	for trial := 0; trial < 20000; trial++ {
		s := midgame(uint64(trial%64), 2*(trial%30))
		slot := r.Intn(splendor.MarketSlots)
		c := s.Market[0][slot]
		if s.Phase != splendor.PhaseMain || c == splendor.NoCard {
			continue
		}
		s.ChoosePayment = trial%2 == 0
		seat := s.Seat
		p := &s.Players[seat]
		for g := range p.Tokens {
			p.Tokens[g] = count()
		}
		for g := range p.Bonus {
			p.Bonus[g] = count()
		}
		if !referenceAfford(p, c) {
			continue
		}
		want := p.Tokens
		var due [splendor.NumColours]uint8
		for g, cost := range c.Info().Cost {
			need := uint8(max(0, int(cost)-int(p.Bonus[g])))
			due[g] = min(need, p.Tokens[g])
			want[splendor.Gold] -= need - due[g]
		}
		i, _ := splendor.Action{Kind: splendor.BuyCard, Slot: uint8(slot)}.Index()
		if err := s.Apply(i); err != nil {
			t.Fatalf("buy %d: %v", c, err)
		}
		if s.Phase == splendor.PhasePay {
			paying++
			if s.Due != due {
				t.Fatalf("buying %d: due %v, want %v", c, s.Due, due)
			}
		} else {
			settled++
			for g := range due {
				want[g] -= due[g]
			}
		}
		if got := s.Players[seat].Tokens; got != want {
			t.Fatalf("buying %d: tokens %v, want %v", c, got, want)
		}
	}
	if paying < 100 || settled < 100 {
		t.Fatalf("only %d payments left to choose and %d settled", paying, settled)
	}
}
