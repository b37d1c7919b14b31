package turnbased

import (
	"encoding/binary"
	"slices"

	"github.com/splendor-rl/splendor/env"
)

// The "features" option: whether observations end with the game's block of
// derived values (Game.Features). Off by default, so that the default layout
// and the policies trained on it stay as they are.
const (
	FeaturesNone    = "none"
	FeaturesDerived = "derived"
)

// Features is a game's block of derived values: what a learner could work
// out from the observation, such as what a seat still lacks to buy a card,
// written out so that it need not learn the arithmetic first.
type Features[S any] struct {
	Size int
	// Write writes the block, Size values, as seat me sees s: only from what
	// the observation before it shows, so that it hides what that does.
	Write func(block []uint8, s *S, me int)
	// Layout names the block's parts, offsets from its start.
	Layout []env.Block
}

// readFeatures reads the "features" option of a game that has a block; a
// game without one does not accept the option.
func (g *Game[S, G]) readFeatures(o *env.OptionReader) bool {
	return g.Features != nil && o.String("features", FeaturesNone, FeaturesNone, FeaturesDerived) == FeaturesDerived
}

// obsSize is the length of one observation under c.
func (g *Game[S, G]) obsSize(c config) int {
	if c.features {
		return g.ObsSize + g.Features.Size
	}
	return g.ObsSize
}

// layout is the blocks of one observation under c.
func (g *Game[S, G]) layout(c config) []env.Block {
	if c.features {
		return slices.Concat(g.Layout, env.Shifted(g.Features.Layout, g.ObsSize))
	}
	return g.Layout
}

// observe writes seat me's observation of s: the game's, then the block of
// derived values when the env serves it (one call of a func value per
// observation, not per value).
func (g *Game[S, G]) observe(features bool, obs []uint8, s *S, me, toPlay int) {
	clear(obs[:g.ObsSize])
	G(s).Observe(obs, me, toPlay)
	if features {
		g.Features.Write(obs[g.ObsSize:g.ObsSize+g.Features.Size], s, me)
	}
}

// observe writes seat me's observation of the table.
func (e *Env[S, G]) observe(obs []uint8, me, toPlay int) {
	e.game.observe(e.c.features, obs, &e.s, me, toPlay)
}

// The shortfalls work on lanes: four to eight small counts (below 128)
// packed one a byte, the first kind in the low byte, so that what a seat
// lacks of a price is a few word operations, and a block of them two
// stores, rather than a branch and a store per kind (that way the block
// cost more than the rest of the step).
const laneTops = 0x8080808080808080

// Lanes packs counts, four to eight of them, one a lane: two loads that
// overlap when there are fewer than eight.
func Lanes(counts []uint8) uint64 {
	n := len(counts)
	lo := uint64(binary.LittleEndian.Uint32(counts))
	return lo | uint64(binary.LittleEndian.Uint32(counts[n-4:]))<<(8*(n-4))
}

// PutLanes writes x's first len(o) lanes, four to eight, into o: two
// stores that overlap when there are fewer than eight.
func PutLanes(o []uint8, x uint64) {
	n := len(o)
	binary.LittleEndian.PutUint32(o, uint32(x))
	binary.LittleEndian.PutUint32(o[n-4:], uint32(x>>(8*(n-4))))
}

// Shortfall is, lane by lane, what is still lacking of need when have is
// held: need − have, never below zero. With bit 7 set on every need lane
// the subtraction cannot borrow across lanes, and bit 7 survives exactly
// where need >= have; there the low seven bits are kept.
func Shortfall(need, have uint64) uint64 {
	x := (need | laneTops) - have
	survived := x & laneTops
	return x & (survived - survived>>7)
}

// LaneSum is the sum of x's lanes, when below 256.
func LaneSum(x uint64) int { return int(x * 0x0101010101010101 >> 56) }

// WriteCardShortfall writes a seat's block for one card of price need (its
// cost's kinds, as lanes): what the seat lacks of each kind once its
// bonuses and tokens (have, as lanes) count, the gold it is short of
// beyond its own, and 1 when it can afford the card now and may buy it
// (buyable: the game's other conditions). The block is len(o) values,
// the kinds first: six to eight.
func WriteCardShortfall(o []uint8, need, have uint64, gold uint8, buyable bool) {
	n := len(o) - 2
	lack := Shortfall(need, have)
	goldShort := max(LaneSum(lack)-int(gold), 0)
	afford := uint64(Flag(goldShort == 0 && buyable))
	PutLanes(o, lack|uint64(goldShort)<<(8*n)|afford<<(8*(n+1)))
}

// Remaining is what is still missing to reach goal from have, never below
// zero: points, crowns or bonuses to a threshold.
func Remaining(goal, have uint8) uint8 {
	if have >= goal {
		return 0
	}
	return goal - have
}
