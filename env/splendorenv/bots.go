package splendorenv

import (
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// builtin plays the built-in bots (random, greedy, mcts) of every env.
var builtin bots.Bots[game, *game]

// game is the engine's state as the bots see it (bots.Game).
type game splendor.State

func (g *game) state() *splendor.State { return (*splendor.State)(g) }

func (g *game) ToPlay() int { return int(g.Seat) }
func (g *game) Over() bool  { return g.state().Over() }

func (g *game) Legal(buf []int) []int {
	var legal splendor.ActionSet
	g.state().Legal(&legal)
	return bots.AppendSet(buf, legal[:])
}

func (g *game) Play(action int) {
	if err := g.state().Apply(action); err != nil {
		panic("splendorenv: a bot chose an illegal action: " + err.Error())
	}
}

func (g *game) Random(r *rng.Rand) int {
	var legal splendor.ActionSet
	g.state().Legal(&legal)
	return legal.Nth(r.Intn(legal.Len()))
}

func (g *game) Greedy(r *rng.Rand) int {
	var legal splendor.ActionSet
	g.state().Legal(&legal)
	return greedyAction(g.state(), &legal, r)
}

func (g *game) Redeal(seat int, r *rng.Rand) { g.state().Redeal(seat, r) }

func (g *game) Outcome() bots.Outcome { return bots.Shares(g.state().Winners(), int(g.NumPlayers)) }

// payDone is the index of "pay done": the seat's gems pay for the rest.
var payDone, _ = splendor.Action{Kind: splendor.PayDone}.Index()

// greedyAction scores every legal action with a short-sighted heuristic and
// plays the best, ties broken at random: buy the most valuable affordable
// card, otherwise collect the gems missing for the best-value target card,
// reserve it when that is worth a gold, and give back what it needs least.
// Paying, it keeps its gold (gold pays for any colour later, a gem only for
// its own), as the automatic payment does, and draws nothing from its stream
// for it: greedy plays the same games under both payment rules.
func greedyAction(s *splendor.State, legal *splendor.ActionSet, r *rng.Rand) int {
	if s.Phase == splendor.PhasePay {
		return payDone
	}
	p := &s.Players[s.Seat]
	need := shortfall(p, target(s, p))
	best, bestScore, ties := -1, 0, 0
	for i := 0; i < splendor.NumActions; i++ {
		if !legal.Has(i) {
			continue
		}
		score := scoreAction(s, p, splendor.ActionAt(i), &need)
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
	return best
}

func scoreAction(s *splendor.State, p *splendor.Player, a splendor.Action, need *[splendor.NumColours]int) int {
	switch a.Kind {
	case splendor.BuyCard:
		return 1000 + cardValue(s, p, s.Market[a.Level][a.Slot])
	case splendor.BuyReserved:
		return 1000 + cardValue(s, p, p.Reserved[a.Slot])
	case splendor.TakeDifferent, splendor.TakeTwo:
		return takeValue(p, a, need)
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
		return int(p.Tokens[a.Gem]) - 10*need[a.Gem]
	}
	return 0
}

// cardValue prefers points, then bonuses that bring a noble closer.
func cardValue(s *splendor.State, p *splendor.Player, c splendor.Card) int {
	info := c.Info()
	return 100*int(info.Points) + 20*nobleHelp(s, p, info.Bonus) + 5
}

// nobleHelp counts the nobles on the table still short of bonus colour g.
func nobleHelp(s *splendor.State, p *splendor.Player, g splendor.Gem) int {
	n := 0
	for _, nb := range s.Nobles {
		if nb != splendor.NoNoble && p.Bonus[g] < nb.Needs()[g] {
			n++
		}
	}
	return n
}

// takeValue rewards gems the target still needs, a little any gem, and
// penalises tokens that would have to be given back.
func takeValue(p *splendor.Player, a splendor.Action, need *[splendor.NumColours]int) int {
	value, taken := 0, 0
	for g := splendor.White; g <= splendor.Black; g++ {
		n := 0
		if a.Kind == splendor.TakeTwo && a.Gem == g {
			n = 2
		} else if a.Kind == splendor.TakeDifferent && a.Gems.Has(g) {
			n = 1
		}
		value += 10*min(n, need[g]) + n
		taken += n
	}
	over := p.Tokens.Total() + taken - splendor.TokenLimit
	return value - 5*max(over, 0)
}

// target is the card, face-up or reserved, with the best points per missing
// gem: the one the greedy bot saves for.
func target(s *splendor.State, p *splendor.Player) splendor.Card {
	best, bestValue := splendor.NoCard, -1
	consider := func(c splendor.Card) {
		if c == splendor.NoCard {
			return
		}
		missing := 0
		for _, n := range shortfall(p, c) {
			missing += n
		}
		missing = max(missing-int(p.Tokens[splendor.Gold]), 0)
		value := (30*int(c.Info().Points) + 10*nobleHelp(s, p, c.Info().Bonus) + 10) / (1 + missing)
		if value > bestValue {
			best, bestValue = c, value
		}
	}
	for l := range s.Market {
		for _, c := range s.Market[l] {
			consider(c)
		}
	}
	for _, c := range p.Reserved[:p.NumReserved] {
		consider(c)
	}
	return best
}

// shortfall is, per colour, how many more tokens card c needs beyond the
// seat's bonuses and tokens (all zero for NoCard).
func shortfall(p *splendor.Player, c splendor.Card) [splendor.NumColours]int {
	var need [splendor.NumColours]int
	if c == splendor.NoCard {
		return need
	}
	cost := c.Info().Cost
	for g := range need {
		need[g] = max(int(cost[g])-int(p.Bonus[g])-int(p.Tokens[g]), 0)
	}
	return need
}
