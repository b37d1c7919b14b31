package duelenv

import (
	"math/bits"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Greedy scores every legal action with a short-sighted heuristic and
// plays the best, ties broken at random: buy the most valuable card it can,
// otherwise collect the tokens its best-value target card still needs, keep
// privileges for when they buy something, never hand the opponent a
// privilege for nothing, and pay with gems and pearls rather than gold but
// for a pearl the target needs (see keepValue).
func (gm *game) Greedy(r *rng.Rand) int {
	s := gm.state()
	var legal duel.ActionSet
	s.Legal(&legal)
	p := &s.Players[s.Seat]
	g := greedy{s: s, p: p, opp: &s.Players[1-s.Seat]}
	g.goal = g.target()
	if g.goal != duel.NoCard {
		cost := g.goal.Info().Cost
		turnbased.Lacking(g.need[:], cost[:], g.p.Tokens[:], g.p.Bonus[:]) // the tokens it saves for
	}
	best, bestScore, ties := -1, 0, 0
	for w, word := range legal {
		for ; word != 0; word &= word - 1 {
			i := w*64 + bits.TrailingZeros64(word)
			score := g.score(i, duel.ActionAt(i))
			switch {
			case best < 0 || score > bestScore:
				best, bestScore, ties = i, score, 1
			case score == bestScore:
				ties++
				if r.Intn(ties) == 0 {
					best = i
				}
			}
		}
	}
	return best
}

type greedy struct {
	s      *duel.State
	p, opp *duel.Player
	goal   duel.Card              // the target card (NoCard: none)
	need   [duel.NumCostKinds]int // tokens the target card still needs, by kind
}

// score rates action a, of index i.
func (g *greedy) score(i int, a duel.Action) int {
	s := g.s
	switch a.Kind {
	case duel.BuyCard:
		return 1000 + g.cardValue(s.Pyramid[duel.PyramidStart[a.Level]+int(a.Slot)])
	case duel.BuyReserved:
		return 1000 + g.cardValue(g.p.Reserved[a.Slot])
	case duel.TakeLine:
		return g.lineValue(i, a)
	case duel.UsePrivilege:
		return 10*g.wanted(s.Board[a.Cell]) - 15 // worth it only for a token the target needs
	case duel.Replenish:
		return -50 // gives the opponent a privilege: only when nothing else is possible
	case duel.TakeGold:
		return 4
	case duel.ReserveCard:
		return g.cardValue(s.Pyramid[duel.PyramidStart[a.Level]+int(a.Slot)])
	case duel.ChooseJoker:
		return int(g.p.ColourPoints[a.Gem])*10 + int(g.p.Bonus[a.Gem])
	case duel.ChooseToken:
		return 10 * g.wanted(s.Board[a.Cell])
	case duel.ChooseSteal:
		return 10*g.wanted(a.Gem) + int(g.opp.Tokens[a.Gem])
	case duel.ChooseRoyal:
		info := duel.Royal(a.Slot).Info()
		return 10*int(info.Points) + 5*b2i(info.Ability != duel.AbilityNone)
	case duel.ReturnToken:
		if a.Gem == duel.Gold {
			return -100
		}
		return int(g.p.Tokens[a.Gem]) - 10*g.wanted(a.Gem)
	case duel.PayGold:
		return g.keepValue(a.Gem)
	}
	return 0 // pay done among others
}

// keepValue scores paying gold for kind k, to keep a token of k, against 0
// for paying the rest with tokens. Gold pays for anything and cannot be
// stolen, so the bot keeps its gold, except to keep a pearl its target card
// needs: for that card the swap costs no buying power, and the pearl (one of
// the box's two) stays out of the bag, so off the opponent's board.
func (g *greedy) keepValue(k duel.Gem) int {
	if k != duel.Pearl || g.goal == duel.NoCard {
		return -1
	}
	left := int(g.p.Tokens[k]) - int(g.s.Due[k]) // pearls held once this payment is made
	if int(g.goal.Info().Cost[k]) > left {
		return 1
	}
	return -1
}

// cardValue prefers points, crowns and progress toward a one-colour win.
func (g *greedy) cardValue(c duel.Card) int {
	if c == duel.NoCard {
		return 0
	}
	info := c.Info()
	value := 30*int(info.Points) + 25*int(info.Crowns) + 5*int(info.Bonuses) + 5
	if info.Ability == duel.AbilityAgain {
		value += 20
	}
	return value
}

// lineValue rewards tokens the target needs, a little any token, and
// penalises a take that hands the opponent a privilege or must be given back.
func (g *greedy) lineValue(i int, a duel.Action) int {
	var taken duel.Tokens
	value := 0
	for _, cell := range lineCells[i][:a.Len] {
		kind := g.s.Board[cell]
		if g.need[kind] > int(taken[kind]) {
			value += 10
		}
		taken[kind]++
		value++
	}
	for _, n := range taken[:duel.NumColours] {
		if n == 3 {
			value -= 15
		}
	}
	if taken[duel.Pearl] == 2 {
		value -= 15
	}
	over := g.p.Tokens.Total() + int(a.Len) - duel.TokenLimit
	return value - 5*max(over, 0)
}

// lineCells lists, per action index, the cells of a take action (the first
// a.Len), worked out once.
var lineCells = func() (cells [duel.NumActions][duel.MaxLine]uint8) {
	steps := [duel.NumDirections][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for i := range cells {
		a := duel.ActionAt(i)
		if a.Kind != duel.TakeLine {
			continue
		}
		row, col := int(a.Cell)/duel.BoardSide, int(a.Cell)%duel.BoardSide
		for k := 0; k < int(a.Len); k++ {
			cells[i][k] = uint8((row+k*steps[a.Dir][0])*duel.BoardSide + col + k*steps[a.Dir][1])
		}
	}
	return cells
}()

func (g *greedy) wanted(kind duel.Gem) int {
	if kind == duel.NoGem || kind == duel.Gold {
		return 0
	}
	return min(g.need[kind], 1)
}

// target is the card, in the pyramid or reserved, with the best value per
// missing token.
func (g *greedy) target() duel.Card {
	return turnbased.Target(duel.NoCard, g.p.Tokens[duel.Gold], g.worth, g.s.Pyramid[:], g.p.Reserved[:g.p.NumReserved])
}

// worth is card c's value to the seat and the tokens it lacks.
func (g *greedy) worth(c duel.Card) (value, lacking int) {
	var need [duel.NumCostKinds]int
	cost := c.Info().Cost
	return g.cardValue(c), turnbased.Lacking(need[:], cost[:], g.p.Tokens[:], g.p.Bonus[:])
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
