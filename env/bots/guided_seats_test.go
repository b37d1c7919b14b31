package bots_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
)

// kingmaker: three seats. Seat 0 picks a side (action 0 or 1), seat 1 one
// of two endings on it; then the seats make forced moves in turn for
// longer than any search here looks, and the ending's seat wins: on side 0
// seat 0's or seat 1's, on side 1 seat 0's either way. Side 1 is seat 0's
// forced win, but only a search whose seat-1 nodes choose by seat 1's own
// values (max-n) can tell: no search reaches the end, so every value comes
// from the evaluator (kingmakerOracle).
type kingmaker struct {
	side, ending int8 // −1 until chosen
	ply          int
}

var kingmakerWinner = [2][2]int{{0, 1}, {0, 0}}

const kingmakerPlies = 200

func newKingmaker() kingmaker { return kingmaker{side: -1, ending: -1} }

func (g *kingmaker) ToPlay() int { return g.ply % 3 }
func (g *kingmaker) Over() bool  { return g.ply == kingmakerPlies }
func (g *kingmaker) LegalSet() bots.Actions {
	if g.ply < 2 {
		return bots.Actions{0b11}
	}
	return bots.Actions{0b1}
}
func (g *kingmaker) Apply(action int) error {
	switch g.ply {
	case 0:
		g.side = int8(action)
	case 1:
		g.ending = int8(action)
	}
	g.ply++
	return nil
}
func (g *kingmaker) Greedy(r *rng.Rand) int       { return 0 }
func (g *kingmaker) Redeal(seat int, r *rng.Rand) {}
func (g *kingmaker) Winners() uint8               { return 1 << kingmakerWinner[g.side][g.ending] }
func (g *kingmaker) Seats() int                   { return 3 }

var kingmakerGuides bots.Guides[kingmaker, *kingmaker]

// observeKingmaker shows (side, ending, me), −1 as 255.
func observeKingmaker(obs []uint8, g *kingmaker, me int) {
	obs[0], obs[1], obs[2] = uint8(g.side), uint8(g.ending), uint8(me)
}

// kingmakerOracle values a position once its ending is chosen: 1 for the
// winner, −1/2 for the others (the terminal rewards of three seats), from
// the seat to play's view; before, 0 for everyone.
func kingmakerOracle(obs, mask []uint8) ([]float32, []float32) {
	priors, _ := uniform(obs, mask)
	values := make([]float32, 3)
	if obs[1] != 255 {
		me, winner := int(obs[2]), kingmakerWinner[obs[0]][obs[1]]
		for k := range values {
			values[k] = -0.5
			if (me+k)%3 == winner {
				values[k] = 1
			}
		}
	}
	return priors, values
}

func TestGuidedThreeSeatsFindAForcedWin(t *testing.T) {
	for name, algorithm := range algorithms {
		g := newKingmaker()
		r := runSeats(t, kingmakerGuides.Start(settings(algorithm, 64), &g, 1, nil, observeKingmaker), kingmakerOracle, 2, 3)
		assert.Equal(t, 1, r.action, "%s: side 1 is seat 0's forced win: %v", name, r.policy)
		if algorithm == bots.PUCT { // Gumbel's value is the mean over all its considered actions
			assert.Greater(t, r.values[0], float32(0.5), "%s: seat 0 wins: %v", name, r.values)
		}
		// Seat 1, to play on side 0, takes its own win: its values come
		// first, then seat 2's and seat 0's.
		g.Apply(0)
		r = runSeats(t, kingmakerGuides.Start(settings(algorithm, 64), &g, 1, nil, observeKingmaker), kingmakerOracle, 2, 3)
		assert.Equal(t, 1, r.action, "%s: seat 1 ends side 0 with its own win: %v", name, r.policy)
		if algorithm == bots.PUCT {
			assert.Greater(t, r.values[0], float32(0.5), "%s: seat 1 wins: %v", name, r.values)
			assert.Less(t, r.values[2], float32(0), "%s: seat 0 loses: %v", name, r.values)
		}
	}
}

// With one value per leaf, the other seats share its opposite equally, so
// the root's values add up to zero (the terminal rewards' sum), though not
// equally shared: the leaves have every seat to play.
func TestGuidedOneValueALeafIsZeroSum(t *testing.T) {
	own := func(obs, mask []uint8) ([]float32, []float32) {
		priors, values := kingmakerOracle(obs, mask)
		return priors, values[:1]
	}
	g := newKingmaker()
	g.Apply(0)
	r := runSeats(t, kingmakerGuides.Start(settings(bots.PUCT, 64), &g, 1, nil, observeKingmaker), own, 2, 3)
	assert.InDelta(t, 0, r.values[0]+r.values[1]+r.values[2], 1e-6, "%v", r.values)
	assert.NotEqual(t, r.values[1], r.values[2], "leaves of every seat to play were answered")
}

// Whatever the leaves' values in [−1, 1], the root's stay there.
func TestGuidedRootValuesStayInRange(t *testing.T) {
	r := rng.New(3)
	noisy := func(obs, mask []uint8) ([]float32, []float32) {
		priors, _ := uniform(obs, mask)
		values := make([]float32, 3)
		for k := range values {
			values[k] = float32(r.Intn(201)-100) / 100
		}
		return priors, values
	}
	for name, algorithm := range algorithms {
		for seed := range uint64(5) {
			g := newKingmaker()
			res := runSeats(t, kingmakerGuides.Start(settings(algorithm, 50), &g, seed, nil, observeKingmaker), noisy, 2, 3)
			for _, v := range res.values {
				assert.InDelta(t, 0, v, 1, "%s, seed %d: %v", name, seed, res.values)
			}
		}
	}
}
