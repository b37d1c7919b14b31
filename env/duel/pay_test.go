package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// choose opens a position of the "choose payment" variant.
const choose = "payment=choose"

// Card ids used below (cost is white blue green red black pearl):
//
//	0 L1 white 0.1.1.1.1.0    4 L1 white 1pt 0.0.2.3.0.0    9 L1 blue 1pt
//	25 L1 joker 1 crown 4.0.0.0.0.1    29 L1 no bonus 3pt 0.0.0.4.0.1

func TestChoosingThePayment(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"holding the gems and gold: the seat decides, nothing is paid yet", pos(choose, "p0=0111101|0|-|-|-"),
			[]string{"buy L1 slot1"},
			pos(with(taken, choose, "phase=pay", "pending=0:011110", "p0=0111101|0|-|-|-")...)},
		{"gold for a gem the seat holds, which it keeps", pos(choose, "p0=0111101|0|-|-|-"),
			[]string{"buy L1 slot1", "pay gold for red"},
			handed(with(refilled, choose, "bag=0110101", "p0=0001000|0|0|-|-")...)},
		{"pay done: gems and pearls pay the rest", pos(choose, "p0=0111101|0|-|-|-"),
			[]string{"buy L1 slot1", "pay done"},
			handed(with(refilled, choose, "bag=0111100", "p0=0000001|0|0|-|-")...)},
		{"several golds: one decision each, while gold and something due remain",
			pos(choose, l1("29"), "p0=0004013|0|-|-|-"), []string{"buy L1 slot1", "pay gold for red", "pay gold for pearl"},
			pos(with(taken, choose, "phase=pay", "pending=29:000300", "bag=0000002", "p0=0004011|0|-|-|-")...)},
		{"the last gold settles the payment; the pearl was kept", pos(choose, l1("29"), "p0=0004013|0|-|-|-"),
			[]string{"buy L1 slot1", "pay gold for red", "pay gold for pearl", "pay gold for red"},
			handed(with(refilled, choose, "bag=0002003", "p0=0002010|0|29|-|-")...)},
		{"gold pays at once what the tokens cannot; the spare gold is the choice",
			pos(choose, l1("29"), "p0=0003012|0|-|-|-"), []string{"buy L1 slot1"},
			pos(with(taken, choose, "phase=pay", "pending=29:000301", "bag=0000001", "p0=0003011|0|-|-|-")...)},
		{"keeping the pearl", pos(choose, l1("29"), "p0=0003012|0|-|-|-"), []string{"buy L1 slot1", "pay gold for pearl"},
			handed(with(refilled, choose, "bag=0003002", "p0=0000010|0|29|-|-")...)},
		{"a reserved card leaves the hand when bought", pos(choose, "p0=0023001|0|-|*23.4.*13|-"),
			[]string{"buy reserved2"},
			pos(choose, "phase=pay", "pending=4:002300", "p0=0023001|0|-|*23.*13|-")},
		{"the payment comes before the joker's colour", pos(choose, l1("25"), "p0=3000011|0|4.9|-|-"),
			[]string{"buy L1 slot1", "pay gold for pearl"},
			pos(with(taken, choose, "phase=joker", "pending=25", "bag=3000001", "p0=0000010|0|4.9.25|-|-")...)},
	})
}

func TestNoPaymentDecisionWithoutAChoice(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"no gold", pos(choose, "p0=0111100|0|-|-|-"), []string{"buy L1 slot1"},
			handed(with(refilled, choose, "bag=0111100", "p0=0000000|0|0|-|-")...)},
		{"every gold is needed", pos(choose, l1("29"), "p0=0003002|0|-|-|-"), []string{"buy L1 slot1"},
			handed(with(refilled, choose, "bag=0003002", "p0=0000000|0|29|-|-")...)},
		{"bonuses pay it all", pos(choose, "p0=0000001|0|9.11.16.17.21.22|-|-"), []string{"buy L1 slot1"},
			handed(with(refilled, choose, "p0=0000001|0|0.9.11.16.17.21.22|-|-")...)},
		{"the standard game spends gems and pearls first", pos("p0=0111101|0|-|-|-"), []string{"buy L1 slot1"},
			handed(with(refilled, "bag=0111100", "p0=0000001|0|0|-|-")...)},
	})
}

func TestPaymentLegality(t *testing.T) {
	s := engine.MustParse(t, pos(choose, "p0=0111101|0|-|-|-"))
	engine.Play(t, &s, "buy L1 slot1")
	assert.Equal(t, []string{"pay gold for blue", "pay gold for green", "pay gold for red", "pay gold for black",
		"pay done"}, engine.LegalLabels(&s), "gold for what is due, or the rest with tokens")
	for _, l := range []string{"pay gold for white", "pay gold for pearl", "take a1", "buy L1 slot2",
		"buy L1 slot1", "reserve L1 slot1", "return gold", "pass", "joker white"} {
		engine.AssertRefused(t, s, l)
	}
	standard := engine.MustParse(t, pos("p0=0111101|0|-|-|-"))
	for _, l := range []string{"pay gold for blue", "pay done"} {
		engine.AssertRefused(t, standard, l)
	}
	engine.AssertRefused(t, engine.MustParse(t, pos(choose, "p0=0111101|0|-|-|-")), "pay done")
}

func TestPaymentVariantKeepsTheBuysPossible(t *testing.T) {
	for _, text := range []string{pos("p0=0111101|0|-|-|-"), pos(l1("29"), "p0=0003002|0|-|-|-"),
		pos(l1("29"), "p0=0002002|0|-|-|-"), pos(l1("25"), "p0=4000010|0|-|-|-")} {
		standard := engine.MustParse(t, text)
		variant := engine.MustParse(t, choose+" "+text)
		assert.Equal(t, engine.LegalLabels(&standard), engine.LegalLabels(&variant), text)
	}
}

// TestEveryPaymentIsReachable holds the pay decisions to the rulebook in
// positions of random games: for every legal buy, the payments the
// decisions reach are exactly the legal ones (gold for any units of the cost
// left after bonuses, tokens for the rest, within what the seat holds), the
// decision is asked exactly when there are two or more, every decision
// changes what is paid, and the standard game pays the one that spends the
// least gold.
func TestEveryPaymentIsReachable(t *testing.T) {
	buys, choices := 0, 0
	for seed := uint64(0); seed < 60; seed++ {
		s := duel.New(seed)
		s.ChoosePayment = true
		r := rng.New(seed)
		var m duel.ActionSet
		for !s.Over() {
			s.Legal(&m)
			if s.Phase == duel.PhaseMain {
				b, c := checkPayments(t, s, &m)
				buys, choices = buys+b, choices+c
			}
			require.NoError(t, s.Apply(m.Nth(r.Intn(m.Len()))))
		}
	}
	require.Positive(t, choices, "no buy offered a choice")
	t.Logf("%d buys checked, %d with a choice of payment", buys, choices)
}

// checkPayments checks every buy legal in s (phase main); it returns the
// number of buys and of those with a choice.
func checkPayments(t *testing.T, s duel.State, legal *duel.ActionSet) (buys, choices int) {
	for k := 0; k < legal.Len(); k++ {
		i := legal.Nth(k)
		a := duel.ActionAt(i)
		if a.Kind != duel.BuyCard && a.Kind != duel.BuyReserved {
			continue
		}
		want := rulebookPayments(&s, a)
		paying := s
		require.NoError(t, paying.Apply(i))
		got := reachablePayments(t, paying, s.Bag)
		require.Equal(t, want, got, "%s in %s", duel.Label(i), s)
		require.Equal(t, len(want) > 1, paying.Phase == duel.PhasePay, "%s in %s", duel.Label(i), s)
		standard := s
		standard.ChoosePayment = false
		require.NoError(t, standard.Apply(i))
		paid := bagDelta(standard.Bag, s.Bag)
		for other := range want {
			require.LessOrEqual(t, paid[duel.Gold], other[duel.Gold], "the standard game spends the least gold")
		}
		require.True(t, want[paid], "the standard payment is a legal one")
		buys++
		if len(want) > 1 {
			choices++
		}
	}
	return buys, choices
}

// rulebookPayments lists every legal payment for the card of buy action a,
// as the tokens it puts into the bag.
func rulebookPayments(s *duel.State, a duel.Action) map[duel.Tokens]bool {
	p := &s.Players[s.Seat]
	var c duel.Card
	if a.Kind == duel.BuyCard {
		c = s.Pyramid[duel.PyramidStart[a.Level]+int(a.Slot)]
	} else {
		c = p.Reserved[a.Slot]
	}
	var due [duel.NumCostKinds]uint8
	for k, n := range c.Info().Cost {
		due[k] = n
		if k < duel.NumColours {
			due[k] -= min(n, p.Bonus[k])
		}
	}
	found := map[duel.Tokens]bool{}
	var paid duel.Tokens
	var try func(k int)
	try = func(k int) {
		if k == duel.NumCostKinds {
			if paid[duel.Gold] <= p.Tokens[duel.Gold] {
				found[paid] = true
			}
			return
		}
		for gold := uint8(0); gold <= due[k]; gold++ {
			if due[k]-gold <= p.Tokens[k] {
				paid[k], paid[duel.Gold] = due[k]-gold, paid[duel.Gold]+gold
				try(k + 1)
				paid[duel.Gold] -= gold
			}
		}
	}
	try(0)
	return found
}

// reachablePayments follows every pay decision from s and returns what each
// way of paying put into the bag (since before). The rest of the purchase
// never touches the bag, so it is read once the payment is settled.
func reachablePayments(t *testing.T, s duel.State, before duel.Tokens) map[duel.Tokens]bool {
	if s.Phase != duel.PhasePay {
		return map[duel.Tokens]bool{bagDelta(s.Bag, before): true}
	}
	var m duel.ActionSet
	s.Legal(&m)
	all := map[duel.Tokens]bool{}
	var done map[duel.Tokens]bool
	for k := 0; k < m.Len(); k++ {
		next := s
		require.NoError(t, next.Apply(m.Nth(k)))
		reached := reachablePayments(t, next, before)
		if duel.ActionAt(m.Nth(k)).Kind == duel.PayDone {
			done = reached
		}
		for paid := range reached {
			all[paid] = true
		}
	}
	require.Len(t, done, 1, "pay done settles the payment in %s", s)
	for k := 0; k < m.Len()-1; k++ { // each gold decision leads elsewhere
		next := s
		require.NoError(t, next.Apply(m.Nth(k)))
		for paid := range done {
			require.NotContains(t, reachablePayments(t, next, before), paid, "%s changes nothing in %s",
				duel.Label(m.Nth(k)), s)
		}
	}
	return all
}

func bagDelta(after, before duel.Tokens) duel.Tokens {
	var d duel.Tokens
	for k := range d {
		d[k] = after[k] - before[k]
	}
	return d
}
