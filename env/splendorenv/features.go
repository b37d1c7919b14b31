package splendorenv

import (
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// The block of derived values that the option features: derived appends
// after the observation (docs/envs/splendor.md, "Features"), worked out
// from the observing seat's view only: one block per seat, rotated as the
// observation's seat blocks (me first), absent seats zero. Offsets within
// a seat's block:
const (
	featMarket   = 0   // [12 × short] face-up cards, in the observation's order
	featReserved = 84  // [3 × short] the seat's reserved cards, in reserve order
	featNobles   = 105 // [5 × nobleShort] noble slots
	featPoints   = 135 // points still needed to reach 15
	featSeatSize = 136
	FeaturesSize = splendor.MaxPlayers * featSeatSize

	// A short block: what the seat lacks per colour after its bonuses and
	// tokens [5], the gold it is short of beyond its own, affordable now.
	shortSize = splendor.NumColours + 2
	// A nobleShort block: the bonuses the seat lacks per colour [5], in all.
	nobleShortSize = splendor.NumColours + 1
)

var features = &turnbased.Features[game]{Size: FeaturesSize, Write: writeFeatures, Layout: featuresLayout}

// The option is read by turnbased from the game's description; the block
// joins it here, beside its writer.
func init() { Game.Features = features }

// Prices as lanes (turnbased.Lanes), computed once: each card's cost and
// each noble's bonuses.
var (
	costLanes  [splendor.NumCards]uint64
	needsLanes [splendor.NumNobleTiles]uint64
)

func init() {
	for c := splendor.Card(0); c < splendor.NumCards; c++ {
		cost := c.Info().Cost
		costLanes[c] = turnbased.Lanes(cost[:])
	}
	for nb := splendor.Noble(0); nb < splendor.NumNobleTiles; nb++ {
		needs := nb.Needs()
		needsLanes[nb] = turnbased.Lanes(needs[:])
	}
}

// writeFeatures writes seat me's view of every seat.
func writeFeatures(f []uint8, g *game, me int) {
	f = f[:FeaturesSize]
	clear(f)
	s := g.state()
	n := int(s.NumPlayers)
	for k := 0; k < n; k++ {
		writeSeatFeatures(f[k*featSeatSize:(k+1)*featSeatSize], s, &s.Players[(me+k)%n], k == 0)
	}
}

// writeSeatFeatures writes player p's block (mine: p is the observer).
// Only a reserved card's holder may buy it, so the block has the seat's own
// reserved cards; one it reserved blind is zeros unless mine, as the
// observation hides it.
func writeSeatFeatures(o []uint8, s *splendor.State, p *splendor.Player, mine bool) {
	bonus := turnbased.Lanes(p.Bonus[:])
	have, gold := bonus+turnbased.Lanes(p.Tokens[:splendor.NumColours]), p.Tokens[splendor.Gold]
	for l := range s.Market {
		for slot, c := range s.Market[l] {
			if c != splendor.NoCard {
				b := o[featMarket+(l*splendor.MarketSlots+slot)*shortSize:]
				turnbased.WriteCardShortfall(b[:shortSize], costLanes[c], have, gold, true)
			}
		}
	}
	for r := 0; r < int(p.NumReserved); r++ {
		if mine || p.Blind&(1<<r) == 0 {
			b := o[featReserved+r*shortSize:]
			turnbased.WriteCardShortfall(b[:shortSize], costLanes[p.Reserved[r]], have, gold, true)
		}
	}
	// Tokens do not count towards a noble: bonuses alone.
	for slot, nb := range s.Nobles {
		if nb != splendor.NoNoble {
			lack := turnbased.Shortfall(needsLanes[nb], bonus)
			b := o[featNobles+slot*nobleShortSize:]
			turnbased.PutLanes(b[:nobleShortSize], lack|uint64(turnbased.LaneSum(lack))<<(8*splendor.NumColours))
		}
	}
	o[featPoints] = turnbased.Remaining(splendor.WinningScore, p.Points)
}
