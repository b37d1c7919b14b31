package splendorenv

import (
	"math/bits"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// payDone is the index of "pay done": the seat's gems pay for the rest.
var payDone, _ = splendor.Action{Kind: splendor.PayDone}.Index()

// Greedy scores every legal action with a short-sighted heuristic and
// plays the best, ties broken at random: buy the most valuable affordable
// card, otherwise collect the gems missing for the best-value target card,
// reserve it when that is worth a gold, and give back what it needs least.
// Paying, it keeps its gold (gold pays for any colour later, a gem only for
// its own), as the automatic payment does, and draws nothing from its stream
// for it: greedy plays the same games under both payment rules.
func (gm *game) Greedy(r *rng.Rand) int {
	s := gm.state()
	if s.Phase == splendor.PhasePay {
		return payDone
	}
	var legal splendor.ActionSet
	s.Legal(&legal)
	g := greedy{s: s, p: &s.Players[s.Seat]}
	for _, nb := range s.Nobles {
		if nb == splendor.NoNoble {
			continue
		}
		needs := nb.Needs()
		for c := range g.help {
			g.help[c] += b2i(g.p.Bonus[c] < needs[c])
		}
	}
	g.need = g.shortfall(g.target())
	best, bestScore, ties := -1, 0, 0
	for w, word := range legal {
		for ; word != 0; word &= word - 1 {
			i := w*64 + bits.TrailingZeros64(word)
			score := g.score(splendor.ActionAt(i))
			switch {
			case best < 0 || score > bestScore:
				best, bestScore, ties = i, score, 1
			case score == bestScore:
				ties++
				if r.Intn(ties) == 0 { // reservoir sampling: uniform among ties
					best = i
				}
			}
		}
	}
	return best
}

// greedy is one decision's view of the seat to play.
type greedy struct {
	s    *splendor.State
	p    *splendor.Player
	help [splendor.NumColours]int // per bonus colour, the nobles on the table still short of it
	need [splendor.NumColours]int // per colour, the tokens the target card still needs
}

func (g *greedy) score(a splendor.Action) int {
	s, p := g.s, g.p
	switch a.Kind {
	case splendor.BuyCard:
		return 1000 + g.cardValue(s.Market[a.Level][a.Slot])
	case splendor.BuyReserved:
		return 1000 + g.cardValue(p.Reserved[a.Slot])
	case splendor.TakeDifferent, splendor.TakeTwo:
		return g.takeValue(a)
	case splendor.ReserveCard:
		c := s.Market[a.Level][a.Slot]
		if c.Info().Points >= 2 && s.Bank[splendor.Gold] > 0 && p.NumReserved < 2 {
			return 8 + 2*int(c.Info().Points)
		}
		return 1
	case splendor.ReturnToken:
		if a.Gem == splendor.Gold {
			return -100
		}
		return int(p.Tokens[a.Gem]) - 10*g.need[a.Gem]
	}
	return 0
}

// cardValue prefers points, then bonuses that bring a noble closer.
func (g *greedy) cardValue(c splendor.Card) int {
	info := c.Info()
	return 100*int(info.Points) + 20*g.help[info.Bonus] + 5
}

// takeValue rewards gems the target still needs, a little any gem, and
// penalises tokens that would have to be given back.
func (g *greedy) takeValue(a splendor.Action) int {
	value, taken := 0, 0
	for c := splendor.White; c <= splendor.Black; c++ {
		n := 0
		if a.Kind == splendor.TakeTwo && a.Gem == c {
			n = 2
		} else if a.Kind == splendor.TakeDifferent && a.Gems.Has(c) {
			n = 1
		}
		value += 10*min(n, g.need[c]) + n
		taken += n
	}
	over := g.p.Tokens.Total() + taken - splendor.TokenLimit
	return value - 5*max(over, 0)
}

// target is the card, face-up or reserved, with the best points per missing
// gem: the one the greedy bot saves for.
func (g *greedy) target() splendor.Card {
	best, bestValue := splendor.NoCard, -1
	for l := range g.s.Market {
		for _, c := range g.s.Market[l] {
			best, bestValue = g.better(c, best, bestValue)
		}
	}
	for _, c := range g.p.Reserved[:g.p.NumReserved] {
		best, bestValue = g.better(c, best, bestValue)
	}
	return best
}

// better is card c if it is worth more than best (worth bestValue).
func (g *greedy) better(c, best splendor.Card, bestValue int) (splendor.Card, int) {
	if c == splendor.NoCard {
		return best, bestValue
	}
	info := c.Info()
	worth := 30*int(info.Points) + 10*g.help[info.Bonus] + 10
	if worth <= bestValue { // value = worth / (1 + missing) cannot beat best: skip the count
		return best, bestValue
	}
	missing := 0
	for _, n := range g.shortfall(c) {
		missing += n
	}
	missing = max(missing-int(g.p.Tokens[splendor.Gold]), 0)
	if value := worth / (1 + missing); value > bestValue {
		return c, value
	}
	return best, bestValue
}

// shortfall is, per colour, how many more tokens card c needs beyond the
// seat's bonuses and tokens (all zero for NoCard).
func (g *greedy) shortfall(c splendor.Card) [splendor.NumColours]int {
	var need [splendor.NumColours]int
	if c == splendor.NoCard {
		return need
	}
	cost := c.Info().Cost
	for k := range need {
		need[k] = max(int(cost[k])-int(g.p.Bonus[k])-int(g.p.Tokens[k]), 0)
	}
	return need
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
