package splendorenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var derived = env.Options{"features": "derived"}

// Seat 0 to play: white 2, blue 1, green 1 and a gold; blue and green
// bonuses; card 45 (6 white) reserved face up. Seat 1: 2 gold, a white
// bonus and 1 point (card 40), card 75 (7 white) reserved blind.
const shopping = "players=2 seat=0 phase=main turn=4 final=0 passes=0 bank=233442 nobles=0.5.-.-.- " +
	"market=0.1.24.36/41.42.43.46/70.71.72.73 decks=2/47/74 p0=211001|8.16|45|- p1=000002|40|*75|-"

// featuresOf is seat's view of the position with features on: the block
// only.
func featuresOf(t *testing.T, notation string, seat int) []uint8 {
	obs := make([]uint8, ObsSize+FeaturesSize)
	envAt(t, notation, derived).ObserveSeat(seat, obs)
	return obs[ObsSize:]
}

// seatFeatures is seat block k's features block.
func seatFeatures(f []uint8, k int) []uint8 { return f[k*featSeatSize : (k+1)*featSeatSize] }

// short is seat block k's short block for market card m.
func short(f []uint8, m, k int) []uint8 {
	return seatFeatures(f, k)[featMarket+m*shortSize : featMarket+(m+1)*shortSize]
}

func reservedShort(f []uint8, k, r int) []uint8 {
	return seatFeatures(f, k)[featReserved+r*shortSize : featReserved+(r+1)*shortSize]
}

func nobleShort(f []uint8, slot, k int) []uint8 {
	return seatFeatures(f, k)[featNobles+slot*nobleShortSize : featNobles+(slot+1)*nobleShortSize]
}

// points is what each seat block still needs to reach 15.
func points(f []uint8) []uint8 {
	p := make([]uint8, splendor.MaxPlayers)
	for k := range p {
		p[k] = seatFeatures(f, k)[featPoints]
	}
	return p
}

func TestFeaturesOfAPosition(t *testing.T) {
	f := featuresOf(t, shopping, 0)
	// Card 0 costs 3 1 0 0 1: I lack a white and a black, one more than my gold.
	assert.Equal(t, []uint8{1, 0, 0, 0, 1, 1, 0}, short(f, 0, 0))
	assert.Equal(t, []uint8{2, 1, 0, 0, 1, 2, 0}, short(f, 0, 1), "seat 1: a white bonus, 2 gold")
	// Card 1 costs 3 blue: my bonus and token leave one, which my gold pays.
	assert.Equal(t, []uint8{0, 1, 0, 0, 0, 0, 1}, short(f, 1, 0))
	assert.Equal(t, []uint8{2, 0, 0, 0, 0, 0, 1}, short(f, 2, 1), "card 24 (3 white): seat 1's gold pays")
	assert.Equal(t, make([]uint8, featSeatSize), seatFeatures(f, 2), "no third seat")
	assert.Equal(t, []uint8{4, 0, 0, 0, 0, 3, 0}, reservedShort(f, 0, 0), "my card 45: 6 white")
	assert.Equal(t, make([]uint8, shortSize), reservedShort(f, 1, 0), "seat 1's blind reserve is hidden from me")
	assert.Equal(t, []uint8{4, 3, 0, 0, 0, 7}, nobleShort(f, 0, 0), "noble 0: 4 white 4 blue")
	assert.Equal(t, []uint8{2, 3, 3, 0, 0, 8}, nobleShort(f, 1, 1), "noble 5: 3 white 3 blue 3 green")
	assert.Equal(t, make([]uint8, nobleShortSize), nobleShort(f, 2, 0), "an empty noble slot")
	assert.Equal(t, []uint8{15, 14, 0, 0}, points(f))
}

// Seat 1 sees its own blind reserve, and mine, face up, as my block.
func TestFeaturesFromTheOtherSeat(t *testing.T) {
	f := featuresOf(t, shopping, 1)
	assert.Equal(t, []uint8{7 - 1, 0, 0, 0, 0, 4, 0}, reservedShort(f, 0, 0), "card 75: 7 white")
	assert.Equal(t, []uint8{4, 0, 0, 0, 0, 3, 0}, reservedShort(f, 1, 0))
	assert.Equal(t, []uint8{2, 1, 0, 0, 1, 2, 0}, short(f, 0, 0))
	assert.Equal(t, []uint8{14, 15, 0, 0}, points(f))
}

// The block adds to the observation: the default one is unchanged.
func TestFeaturesAppendToTheObservation(t *testing.T) {
	plain, with := make([]uint8, ObsSize), make([]uint8, ObsSize+FeaturesSize)
	envAt(t, shopping, nil).Observe(plain)
	envAt(t, shopping, derived).Observe(with)
	assert.Equal(t, plain, with[:ObsSize])
	v, err := env.Make(ID, 1, derived, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{ObsSize + FeaturesSize}, v.Spec.ObsShape)
}

// "Affordable" is the engine's rule: in the main phase it is 1 exactly
// where buying that card is legal for the seat to play.
func TestAffordableIsWhatTheMaskAllows(t *testing.T) {
	checked := 0
	envtest.VisitRandomPlay(t, ID, env.Options{"features": "derived", "players": 3}, 400, func(obs, mask []uint8) {
		if obs[offPhase] == 1 {
			checkAffordable(t, obs[ObsSize:], mask)
			checked++
		}
	})
	require.Greater(t, checked, 1000)
}

func checkAffordable(t *testing.T, f, mask []uint8) {
	buyCard, buyReserved := label(t, "buy L1 slot1"), label(t, "buy reserved1")
	for m := 0; m < splendor.NumLevels*splendor.MarketSlots; m++ {
		require.Equal(t, mask[buyCard+m], short(f, m, 0)[shortSize-1], "market card %d", m)
	}
	for r := 0; r < splendor.MaxReserved; r++ {
		require.Equal(t, mask[buyReserved+r], reservedShort(f, 0, r)[shortSize-1], "reserved card %d", r)
	}
}

func TestConformanceWithFeatures(t *testing.T) {
	envtest.Run(t, envtest.Case{ID: ID, Options: env.Options{"features": "derived", "players": 4},
		MaxEpisodeSteps: 4 * 100 * 7})
}

func TestFeatureLayoutAddsUp(t *testing.T) {
	assert.Equal(t, featMarket+splendor.NumLevels*splendor.MarketSlots*shortSize, featReserved)
	assert.Equal(t, featReserved+splendor.MaxReserved*shortSize, featNobles)
	assert.Equal(t, featNobles+splendor.MaxNobles*nobleShortSize, featPoints)
	assert.Equal(t, featPoints+1, featSeatSize)
}
