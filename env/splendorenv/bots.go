package splendorenv

import (
	"math/bits"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/turnbased"
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
	if c := g.target(); c != splendor.NoCard {
		cost := c.Info().Cost
		turnbased.Lacking(g.need[:], cost[:], g.p.Tokens[:], g.p.Bonus[:]) // the tokens it saves for
	}
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
	m := &g.s.Market
	return turnbased.Target(splendor.NoCard, g.p.Tokens[splendor.Gold], g.worth, m[0][:], m[1][:], m[2][:],
		g.p.Reserved[:g.p.NumReserved])
}

// worth is card c's worth to the seat (its points, its bonus towards
// nobles) and the tokens it lacks.
func (g *greedy) worth(c splendor.Card) (value, lacking int) {
	info := c.Info()
	var need [splendor.NumColours]int
	return 30*int(info.Points) + 10*g.help[info.Bonus] + 10,
		turnbased.Lacking(need[:], info.Cost[:], g.p.Tokens[:], g.p.Bonus[:])
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
