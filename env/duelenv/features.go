package duelenv

import (
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// The block of derived values that the option features: derived appends
// after the observation (docs/envs/splendor-duel.md, "Features"), worked
// out from the observing seat's view only: one block per seat, me first,
// then the opponent. Offsets within a seat's block:
const (
	featPyramid  = 0   // [12 × short] pyramid slots, in the observation's order
	featReserved = 96  // [3 × short] the seat's reserved cards, in reserve order
	featGoals    = 120 // [goal] distances to the victories and to the next royal
	featSeatSize = 129
	FeaturesSize = duel.NumPlayers * featSeatSize

	// A short block: what the seat lacks per cost kind (white blue green red
	// black pearl) after its bonuses and tokens [6], the gold it is short
	// of beyond its own, and whether it may buy the card now.
	shortSize = duel.NumCostKinds + 2
	// A goal block: what the seat still needs to win by points, by crowns,
	// by the prestige of its nearest colour, by each colour [5], then the
	// crowns to its next royal card.
	goalSize      = 4 + duel.NumColours
	goalPoints    = 0
	goalCrowns    = 1
	goalColour    = 2
	goalColours   = 3 // [5]
	goalNextRoyal = 3 + duel.NumColours
)

var features = &turnbased.Features[game]{Size: FeaturesSize, Write: writeFeatures, Layout: featuresLayout}

// The option is read by turnbased from the game's description; the block
// joins it here, beside its writer.
func init() { Game.Features = features }

// costLanes[c] is card c's cost as lanes (turnbased.Lanes), computed once.
var costLanes [duel.NumCards]uint64

func init() {
	for c := duel.Card(0); c < duel.NumCards; c++ {
		cost := c.Info().Cost
		costLanes[c] = turnbased.Lanes(cost[:])
	}
}

// writeFeatures writes seat me's view of both seats.
func writeFeatures(f []uint8, g *game, me int) {
	f = f[:FeaturesSize]
	clear(f)
	s := g.state()
	for k := 0; k < duel.NumPlayers; k++ {
		writeSeatFeatures(f[k*featSeatSize:(k+1)*featSeatSize], s, &s.Players[(me+k)%duel.NumPlayers], k == 0)
	}
}

// writeSeatFeatures writes player p's block (mine: p is the observer).
// Only a reserved card's holder may buy it, so the block has the seat's own
// reserved cards; one the opponent reserved blind is zeros, as the
// observation hides it.
func writeSeatFeatures(o []uint8, s *duel.State, p *duel.Player, mine bool) {
	m := meansOf(p)
	for slot, c := range s.Pyramid {
		if c != duel.NoCard {
			m.writeShort(o[featPyramid+slot*shortSize:], c)
		}
	}
	for r := 0; r < int(p.NumReserved); r++ {
		if mine || p.Blind&(1<<r) == 0 {
			m.writeShort(o[featReserved+r*shortSize:], p.Reserved[r])
		}
	}
	writeGoals(o[featGoals:featGoals+goalSize], p)
}

// means is what a seat pays with, read once for all the cards: its bonuses
// and tokens per cost kind as lanes (pearls give no bonus, so the pearl
// lane is tokens only), its gold, and whether it holds a bonus for a joker
// to copy.
type means struct {
	have  uint64
	gold  uint8
	bonus bool
}

func meansOf(p *duel.Player) means {
	bonus := turnbased.Lanes(p.Bonus[:])
	return means{have: bonus + turnbased.Lanes(p.Tokens[:duel.NumCostKinds]), gold: p.Tokens[duel.Gold], bonus: bonus != 0}
}

// writeShort writes what the seat lacks for card c; a joker may be bought
// only by a seat with a bonus for it to copy.
func (m means) writeShort(o []uint8, c duel.Card) {
	turnbased.WriteCardShortfall(o[:shortSize], costLanes[c], m.have, m.gold, m.bonus || !c.Info().Joker)
}

// writeGoals writes how far p is from each victory and from its next royal
// card (0 once it has crossed every royal threshold).
func writeGoals(o []uint8, p *duel.Player) {
	o[goalPoints] = turnbased.Remaining(duel.PointsToWin, p.Points)
	o[goalCrowns] = turnbased.Remaining(duel.CrownsToWin, p.Crowns)
	nearest := uint8(duel.ColourToWin)
	for c, pts := range p.ColourPoints {
		o[goalColours+c] = turnbased.Remaining(duel.ColourToWin, pts)
		nearest = min(nearest, o[goalColours+c])
	}
	o[goalColour] = nearest
	for _, t := range duel.RoyalThresholds {
		if p.Crowns < t {
			o[goalNextRoyal] = t - p.Crowns
			break
		}
	}
}
