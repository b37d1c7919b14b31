package duelenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/stretchr/testify/require"
)

var derived = env.Options{"features": "derived"}

// Seat 0 to play: 3 blue, 2 black, a pearl and a gold; green, green, red
// and black bonuses (2 points, 2 crowns); card 1 reserved face up. Seat 1:
// 2 black, a pearl, 2 gold, no bonus; joker card 64 reserved blind. The
// pyramid's third L1 card is joker 28 (4 black, a pearl).
const shopping = "seat=0 phase=main turn=6 passes=0 again=0 replenished=0 pending=- chance=0000000000000001 " +
	"bag=0000000 board=wbgrk/bgrkw/growb/rkwpg/okbp. pyramid=0.3.28.15.20/30.34.38.42/60.61.62 decks=6.7.8/35/65 " +
	"p0=0300211|1|13.14.18.24|1|- p1=0000212|1|-|*64|-"

// featuresOf is seat's view of the position with features on: the block
// only.
func featuresOf(t *testing.T, notation string, seat int) []uint8 {
	return observeWith(t, notation, seat, derived, ObsSize+FeaturesSize)[ObsSize:]
}

// seatFeatures is seat block k's features block.
func seatFeatures(f []uint8, k int) []uint8 { return f[k*featSeatSize : (k+1)*featSeatSize] }

// short is seat block k's short block for pyramid slot slot.
func short(f []uint8, slot, k int) []uint8 {
	return seatFeatures(f, k)[featPyramid+slot*shortSize : featPyramid+(slot+1)*shortSize]
}

func reservedShort(f []uint8, k, r int) []uint8 {
	return seatFeatures(f, k)[featReserved+r*shortSize : featReserved+(r+1)*shortSize]
}

func goals(f []uint8, k int) []uint8 { return seatFeatures(f, k)[featGoals : featGoals+goalSize] }

func TestFeaturesOfAPosition(t *testing.T) {
	f := featuresOf(t, shopping, 0)
	require.Equal(t, []uint8{0, 0, 0, 0, 0, 0, 0, 1}, short(f, 0, 0), "card 0: bonuses and tokens cover it")
	require.Equal(t, []uint8{0, 1, 1, 1, 0, 0, 1, 0}, short(f, 0, 1), "seat 1 lacks 3, a gold more than it has")
	require.Equal(t, []uint8{0, 0, 0, 0, 1, 0, 0, 1}, short(f, 2, 0), "joker 28: my gold pays the black")
	require.Equal(t, []uint8{0, 0, 0, 0, 2, 0, 0, 0}, short(f, 2, 1), "seat 1 could pay, but has no bonus to copy")
	require.Equal(t, []uint8{0, 0, 0, 0, 0, 0, 0, 1}, reservedShort(f, 0, 0), "my card 1")
	require.Equal(t, make([]uint8, shortSize), reservedShort(f, 1, 0), "seat 1's blind reserve is hidden from me")
	// 2 points, 2 crowns, 1 point on green and 1 on black cards.
	require.Equal(t, []uint8{18, 8, 9, 10, 10, 9, 10, 9, 1}, goals(f, 0))
	require.Equal(t, []uint8{20, 10, 10, 10, 10, 10, 10, 10, 3}, goals(f, 1))
}

// Seat 1 sees its own blind reserve, and itself first.
func TestFeaturesFromTheOtherSeat(t *testing.T) {
	f := featuresOf(t, shopping, 1)
	require.Equal(t, []uint8{0, 0, 0, 0, 6, 0, 4, 0}, reservedShort(f, 0, 0), "joker 64: 8 black")
	require.Equal(t, []uint8{0, 0, 0, 0, 0, 0, 0, 1}, reservedShort(f, 1, 0), "seat 0's card 1")
	require.Equal(t, []uint8{0, 0, 0, 0, 2, 0, 0, 0}, short(f, 2, 0))
	require.Equal(t, []uint8{20, 10, 10, 10, 10, 10, 10, 10, 3}, goals(f, 0))
}

// The next royal comes at 3 crowns, then 6; past 6 there is none to earn.
// Distances never go below zero.
func TestGoals(t *testing.T) {
	for crowns, next := range []uint8{3, 2, 1, 3, 2, 1, 0, 0, 0, 0, 0, 0} {
		o := make([]uint8, goalSize)
		writeGoals(o, &duel.Player{Crowns: uint8(crowns), Points: 25, ColourPoints: [5]uint8{0, 12, 10, 9, 3}})
		require.Equal(t, next, o[goalNextRoyal], "%d crowns", crowns)
		require.Equal(t, uint8(max(10-crowns, 0)), o[goalCrowns])
		require.Equal(t, uint8(0), o[goalPoints], "25 points")
		require.Equal(t, []uint8{0, 10, 0, 0, 1, 7}, o[goalColour:goalNextRoyal], "nearest colour, then each")
	}
}

// The block adds to the observation: the default one is unchanged.
func TestFeaturesAppendToTheObservation(t *testing.T) {
	with := observeWith(t, shopping, 0, derived, ObsSize+FeaturesSize)
	require.Equal(t, observeSeat(t, shopping, 0), with[:ObsSize])
	v, err := env.Make(ID, 1, derived, 1, nil)
	require.NoError(t, err)
	require.Equal(t, []int{ObsSize + FeaturesSize}, v.Spec.ObsShape)
}

// "Affordable" is the engine's rule, the joker's included: in the main
// phase it is 1 exactly where buying that card is legal for the seat to
// play.
func TestAffordableIsWhatTheMaskAllows(t *testing.T) {
	checked := 0
	envtest.VisitRandomPlay(t, ID, derived, 400, func(obs, mask []uint8) {
		if obs[offPhase] == 1 {
			checkAffordable(t, obs[ObsSize:], mask)
			checked++
		}
	})
	require.Greater(t, checked, 1000)
}

func checkAffordable(t *testing.T, f, mask []uint8) {
	buyCard, err := duel.ParseAction("buy L1 slot1")
	require.NoError(t, err)
	buyReserved, err := duel.ParseAction("buy reserved1")
	require.NoError(t, err)
	for slot := 0; slot < duel.PyramidSlots; slot++ {
		require.Equal(t, mask[buyCard+slot], short(f, slot, 0)[shortSize-1], "pyramid slot %d", slot)
	}
	for r := 0; r < duel.MaxReserved; r++ {
		require.Equal(t, mask[buyReserved+r], reservedShort(f, 0, r)[shortSize-1], "reserved card %d", r)
	}
}

func TestConformanceWithFeatures(t *testing.T) {
	envtest.Run(t, envtest.Case{ID: ID, Options: derived, MaxEpisodeSteps: 100 * 2 * 30})
}

func TestFeatureLayoutAddsUp(t *testing.T) {
	require.Equal(t, featPyramid+duel.PyramidSlots*shortSize, featReserved)
	require.Equal(t, featReserved+duel.MaxReserved*shortSize, featGoals)
	require.Equal(t, featGoals+goalSize, featSeatSize)
}
