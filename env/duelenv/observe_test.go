package duelenv

import (
	"fmt"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Seat 1 to act; seat 0 holds card 1 reserved face up and card 63 blind;
// seat 1 holds card 64 blind and the royal 0.
const observed = "seat=1 phase=main turn=3 passes=0 again=0 replenished=0 pending=- chance=0000000000000001 " +
	"bag=0100000 board=wbgrk/bgrkw/growb/rkwpg/okbp. pyramid=0.5.10.15.20/30.34.38.42/60.61.62 decks=6.7.8/35/65 " +
	"p0=1000000|0|-|1.*63|- p1=0200001|2|-|*64|0"

func observe(t *testing.T, notation string) []uint8 {
	return observeSeat(t, notation, -1)
}

// observeSeat is seat's view of the position (-1: the seat to play's).
func observeSeat(t *testing.T, notation string, seat int) []uint8 {
	return observeWith(t, notation, seat, nil, ObsSize)
}

// observeWith is seat's view of the position in an env made with opts,
// whose observation is size values.
func observeWith(t *testing.T, notation string, seat int, opts env.Options, size int) []uint8 {
	s, err := duel.Parse(notation)
	require.NoError(t, err)
	e := envtest.NewEnv(t, Game, opts)
	e.Load(game{s})
	obs := make([]uint8, size)
	if seat < 0 {
		seat = e.ToPlay()
	}
	e.ObserveSeat(seat, obs)
	return obs
}

func TestObservationLayout(t *testing.T) {
	obs := observe(t, observed)
	assert.Equal(t, []uint8{1, 0, 0, 0, 0, 0, 0, 0}, obs[offPhase:offPhase+8])
	assert.Equal(t, uint8(1), obs[offRound], "3 turns: 1 round done")
	assert.Equal(t, uint8(1), obs[offMySeat])
	assert.Equal(t, uint8(0), obs[offToPlay], "I decide")
	assert.Equal(t, uint8(1), obs[offSupply], "3 privileges, 2 held by seat 1")
	assert.Equal(t, []uint8{0, 1, 0, 0, 0, 0, 0}, obs[offBag:offBag+7])
	assert.Equal(t, []uint8{1, 0, 0, 0, 0, 0, 0}, obs[offBoard:offBoard+7], "a1 holds white")
	assert.Equal(t, []uint8{0, 0, 0, 0, 0, 0, 1}, obs[offBoard+20*7:offBoard+21*7], "a5 holds gold")
	assert.Equal(t, make([]uint8, 7), obs[offBoard+24*7:offBoard+25*7], "e5 is empty")
	assert.Equal(t, cardFeatures[0][:], obs[offPyramid:offPyramid+cardSize])
	assert.Equal(t, []uint8{3, 1, 1}, obs[offDecks:offDecks+3])
	assert.Equal(t, []uint8{0, 1, 1, 1}, obs[offRoyals:offRoyals+4], "royal 0 is taken")
	assert.Equal(t, make([]uint8, cardSize), obs[offPending:offPending+cardSize])
	assert.Equal(t, make([]uint8, duel.NumCostKinds), obs[offDue:offDue+duel.NumCostKinds])
}

func TestEverySeatsViewSaysWhoDecides(t *testing.T) {
	mine, theirs := observeSeat(t, observed, 1), observeSeat(t, observed, 0)
	assert.Equal(t, uint8(0), mine[offToPlay], "seat 1 is to play")
	assert.Equal(t, uint8(1), theirs[offToPlay], "seat 0 watches")
	assert.Equal(t, uint8(0), theirs[offMySeat])
}

// paying: seat 0 bought card 0 (white, costs blue green red black 1 each)
// from L1 slot1 and may pay with its gold for any of the four gems.
const paying = "payment=choose seat=0 phase=pay turn=0 passes=0 again=0 replenished=0 pending=0:011110 " +
	"chance=0000000000000001 bag=0000000 board=wbgrk/bgrkw/growb/rkwpg/okbpo " +
	"pyramid=-.5.10.15.20/30.34.38.42/60.61.62 decks=6.7.8/35/63 p0=0111101|0|-|-|- p1=0000000|1|-|-|-"

func TestObservationOfThePayment(t *testing.T) {
	obs := observe(t, paying)
	assert.Equal(t, []uint8{0, 0, 1, 0, 0, 0, 0, 0}, obs[offPhase:offPhase+8], "phase pay")
	assert.Equal(t, cardFeatures[0][:], obs[offPending:offPending+cardSize], "the card being paid for")
	assert.Equal(t, []uint8{0, 1, 1, 1, 1, 0}, obs[offDue:offDue+duel.NumCostKinds], "what is left to pay")
	assert.Equal(t, make([]uint8, cardSize), obs[offPyramid:offPyramid+cardSize],
		"its slot is empty until the turn passes")
	assert.Equal(t, []uint8{3, 1, 1}, obs[offDecks:offDecks+3])
	me := obs[offSeats : offSeats+seatSize]
	assert.Equal(t, []uint8{0, 1, 1, 1, 1, 0, 1}, me[seatTokens:seatTokens+7], "nothing paid yet")
	assert.Equal(t, uint8(0), me[seatCards], "the card is not mine until paid")
}

func TestObservationRotatesSeatsAndHidesBlindReserves(t *testing.T) {
	obs := observe(t, observed)
	me, opp := obs[offSeats:offSeats+seatSize], obs[offSeats+seatSize:offSeats+2*seatSize]
	assert.Equal(t, []uint8{0, 2, 0, 0, 0, 0, 1}, me[seatTokens:seatTokens+7])
	assert.Equal(t, uint8(2), me[seatPrivilege])
	assert.Equal(t, []uint8{1, 0, 0, 0}, me[seatRoyals:seatRoyals+4])
	assert.Equal(t, uint8(2), me[seatPoints], "the royal's points")
	own := me[seatHand : seatHand+reservedSize]
	assert.Equal(t, cardFeatures[64][:], own[:cardSize], "my blind reserve is known to me")
	assert.Equal(t, []uint8{0, 3}, own[cardSize:])

	assert.Equal(t, uint8(1), opp[seatTokens])
	public, hidden := opp[seatHand:seatHand+reservedSize], opp[seatHand+reservedSize:seatHand+2*reservedSize]
	assert.Equal(t, cardFeatures[1][:], public[:cardSize], "a face-up reserve stays public")
	assert.Equal(t, append([]uint8{1}, make([]uint8, cardSize-1)...), hidden[:cardSize], "only presence shows")
	assert.Equal(t, []uint8{1, 3}, hidden[cardSize:], "hidden, level 3")
}

func TestCardFeatures(t *testing.T) {
	for c := duel.Card(0); c < duel.NumCards; c++ {
		info, f := c.Info(), cardFeatures[c]
		colours := int(f[3]) + int(f[4]) + int(f[5]) + int(f[6]) + int(f[7]) + int(f[8]) + int(f[9])
		require.Equal(t, 1, colours, "card %d: exactly one of colour, joker, no bonus", c)
		require.Equal(t, info.Cost[:], f[15:21])
		require.Equal(t, info.Points, f[1])
	}
}

func TestLayoutConstantsAddUp(t *testing.T) {
	assert.Equal(t, offBag+duel.NumTokenKinds, offBoard)
	assert.Equal(t, offBoard+duel.NumCells*duel.NumTokenKinds, offPyramid)
	assert.Equal(t, offPyramid+duel.PyramidSlots*cardSize, offDecks)
	assert.Equal(t, offDecks+duel.NumLevels, offRoyals)
	assert.Equal(t, offPhase+int(duel.PhaseOver), offReplenish)
	assert.Equal(t, offMySeat+1, offToPlay)
	assert.Equal(t, offToPlay+1, offSupply)
	assert.Equal(t, offSupply+1, offBag)
	assert.Equal(t, offRoyals+duel.NumRoyals, offPending)
	assert.Equal(t, offPending+cardSize, offDue)
	assert.Equal(t, offDue+duel.NumCostKinds, offSeats)
	assert.Equal(t, offSeats+duel.NumPlayers*seatSize, ObsSize)
	assert.Equal(t, seatHand+duel.MaxReserved*reservedSize, seatSize)
}

// The spec page is what users read: its label table and offsets must match
// the code.
func TestSpecPageMatchesTheCode(t *testing.T) {
	rows := []string{
		fmt.Sprintf("shape `[%d]`", ObsSize),
		fmt.Sprintf("| %d | 175 | board", offBoard),
		fmt.Sprintf("| %d | 252 | pyramid", offPyramid),
		fmt.Sprintf("| %d | 190 | seats", offSeats),
		fmt.Sprintf("| %d | 8 | phase", offPhase),
		fmt.Sprintf("| %d | 1 | the seat to decide, relative to me", offToPlay),
		fmt.Sprintf("| %d | 7 | the bag", offBag),
		fmt.Sprintf("| %d | 3 | cards left in decks", offDecks),
		fmt.Sprintf("| %d | 4 | royal cards still available", offRoyals),
		fmt.Sprintf("| %d | 21 | pending", offPending),
		fmt.Sprintf("| %d | 6 | due", offDue),
		fmt.Sprintf("| %d | 69 | 3 **reserved** blocks", seatHand),
		fmt.Sprintf("`%s` / %d", ID, Version),
		// features: derived
		fmt.Sprintf("| %d | %d | 2 **seat features** blocks", ObsSize, FeaturesSize),
		fmt.Sprintf("shape `[%d]`", ObsSize+FeaturesSize),
		fmt.Sprintf("A **seat features** block (%d values)", featSeatSize),
		fmt.Sprintf("| %d | %d | 12 **short** blocks for the pyramid", featPyramid, duel.PyramidSlots*shortSize),
		fmt.Sprintf("| %d | %d | 3 **short** blocks for the seat's own reserved", featReserved, 3*shortSize),
		fmt.Sprintf("| %d | %d | **goals** |", featGoals, goalSize),
		fmt.Sprintf("A **short** block (%d values)", shortSize),
		fmt.Sprintf("**goals** block (%d values)", goalSize),
		fmt.Sprintf("| %d | 1 | prestige still needed to win", goalPoints),
		fmt.Sprintf("| %d | 1 | crowns still needed to win", goalCrowns),
		fmt.Sprintf("| %d | 1 | prestige still needed on the seat's nearest colour", goalColour),
		fmt.Sprintf("| %d | 5 | prestige still needed on cards of each colour", goalColours),
		fmt.Sprintf("| %d | 1 | crowns to the next royal card", goalNextRoyal),
	}
	rows = append(rows, envtest.LayoutRows(t, ID, env.Options{"features": "derived"})...)
	envtest.SpecPage(t, "../../docs/envs/splendor-duel.md", duel.NumActions, duel.Label, rows...)
}
