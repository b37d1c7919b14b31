package splendorenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A 3-player position with seat 1 to act: seat 0 holds a card reserved face
// up (1) and one blind (*45); seat 1 holds one blind (*75).
const observed = "players=3 seat=1 phase=main turn=7 final=0 passes=0 bank=435225 " +
	"nobles=0.-.5.-.- market=0.24.36.-/40.41.42.43/70.71.72.73 decks=-/46/74 " +
	"p0=010000|11|1.*45|- p1=200110|14.22|*75|- p2=000001|-|-|-"

func selfPlayEnv(t *testing.T, notation string) *Env { return envAt(t, notation, nil) }

// envAt is an env with opts at the position in notation.
func envAt(t *testing.T, notation string, opts env.Options) *Env {
	s, err := splendor.Parse(notation)
	require.NoError(t, err)
	all := env.Options{"players": int(s.NumPlayers)}
	for k, v := range opts {
		all[k] = v
	}
	e := makeEnv(t, all)
	e.Load(game{s})
	return e
}

func TestObservationLayout(t *testing.T) {
	obs := make([]uint8, ObsSize)
	selfPlayEnv(t, observed).Observe(obs)

	assert.Equal(t, []uint8{1, 0, 0, 0}, obs[offPhase:offPhase+numPhases], "phase main")
	assert.Equal(t, uint8(2), obs[offRound], "7 turns of 3 players: 2 rounds done")
	assert.Equal(t, uint8(3), obs[offPlayers])
	assert.Equal(t, uint8(1), obs[offMySeat])
	assert.Equal(t, uint8(0), obs[offToPlay], "I am to play")
	assert.Equal(t, []uint8{4, 3, 5, 2, 2, 5}, obs[offBank:offBank+6])
	assert.Equal(t, []uint8{0, 1, 1}, obs[offDecks:offDecks+3])

	// Market level 1 slot 1 is card 0: white bonus, 0 points, cost 3 1 0 0 1.
	assert.Equal(t, []uint8{1, 0, 1, 0, 0, 0, 0, 3, 1, 0, 0, 1}, obs[offMarket:offMarket+cardSize])
	assert.Equal(t, make([]uint8, cardSize), obs[offMarket+3*cardSize:offMarket+4*cardSize], "empty slot")
	// Noble slot 1 holds noble 0 (4 white, 4 blue); slot 2 is empty.
	assert.Equal(t, []uint8{1, 4, 4, 0, 0, 0}, obs[offNobles:offNobles+nobleSize])
	assert.Equal(t, make([]uint8, nobleSize), obs[offNobles+nobleSize:offNobles+2*nobleSize])
	assert.Equal(t, make([]uint8, offMarket-offDue), obs[offDue:offMarket], "no payment: nothing due or bought")
}

// Every seat's view says whose decision it is, as the seat block of the
// seat to play: seat 1 is to play, so seat 0 sees it in block 1 and seat 2
// (for whom seat 0 comes next, then seat 1) in block 2.
func TestEverySeatSeesWhoIsToPlay(t *testing.T) {
	e := selfPlayEnv(t, observed)
	obs := make([]uint8, ObsSize)
	for me, want := range []uint8{1, 0, 2} {
		e.ObserveSeat(me, obs)
		assert.Equal(t, want, obs[offToPlay], "seat %d's view", me)
		toPlay := seatBlock(obs, int(want))
		assert.Equal(t, []uint8{2, 0, 0, 1, 1, 0}, toPlay[seatTokens:seatBonus], "seat %d's view: block %d is seat 1", me, want)
	}
}

// In phase pay the observation shows the phase, the card being paid for
// (its market slot is empty until it is paid) and the gems still due.
func TestObservationShowsThePayment(t *testing.T) {
	e := selfPlayEnv(t, "payment=choose players=2 seat=0 phase=pay buying=1:03000 turn=0 final=0 passes=0 "+
		"bank=414444 nobles=0.1.2.-.- market=-.24.36.22/40.41.42.43/70.71.72.73 decks=5.6/46/74 "+
		"p0=030001|-|-|- p1=000000|-|-|-")
	obs := make([]uint8, ObsSize)
	e.Observe(obs)
	assert.Equal(t, []uint8{0, 1, 0, 0}, obs[offPhase:offPhase+numPhases], "phase pay")
	assert.Equal(t, []uint8{0, 3, 0, 0, 0}, obs[offDue:offDue+5], "3 blue due")
	assert.Equal(t, cardFeatures[1][:], obs[offBuying:offBuying+cardSize])
	assert.Equal(t, make([]uint8, cardSize), obs[offMarket:offMarket+cardSize], "its slot waits for the payment")
	require.NoError(t, e.Step(label(t, "pay gold for blue")))
	e.ObserveSeat(0, obs)
	assert.Equal(t, make([]uint8, offMarket-offDue), obs[offDue:offMarket], "paid: nothing due or bought")
	assert.Equal(t, cardFeatures[6][:], obs[offMarket:offMarket+cardSize], "the slot refilled")
	assert.Equal(t, uint8(1), obs[offToPlay], "seat 1 to play")
}

func TestObservationRotatesSeatsAndHidesBlindReserves(t *testing.T) {
	obs := make([]uint8, ObsSize)
	selfPlayEnv(t, observed).Observe(obs)
	me, next, prev := seatBlock(obs, 0), seatBlock(obs, 1), seatBlock(obs, 2)

	// Block 0 is seat 1 (to act): tokens, bonuses (blue 14 + green 22), its own blind card visible.
	assert.Equal(t, []uint8{1, 2, 0, 0, 1, 1, 0}, me[:seatBonus])
	assert.Equal(t, []uint8{0, 1, 1, 0, 0}, me[seatBonus:seatPoints])
	assert.Equal(t, uint8(2), me[seatCards])
	assert.Equal(t, uint8(1), me[seatReserved])
	own := hand(me, 0)
	assert.Equal(t, cardFeatures[75][:], own[:cardSize], "my blind reserve is known to me")
	assert.Equal(t, []uint8{0, 3}, own[cardSize:], "not hidden, level 3")

	// Block 1 is seat 2, block 2 is seat 0 with a public and a hidden reserve.
	assert.Equal(t, uint8(1), next[seatTokens+5], "seat 2 holds a gold")
	public, hidden := hand(prev, 0), hand(prev, 1)
	assert.Equal(t, cardFeatures[1][:], public[:cardSize], "a face-up reserve stays public")
	assert.Equal(t, []uint8{0, 1}, public[cardSize:])
	assert.Equal(t, append([]uint8{1}, make([]uint8, cardSize-1)...), hidden[:cardSize], "only presence shows")
	assert.Equal(t, []uint8{1, 2}, hidden[cardSize:], "hidden, level 2")

	assert.Equal(t, make([]uint8, seatSize), seatBlock(obs, 3), "no fourth seat")
}

func seatBlock(obs []uint8, k int) []uint8 {
	return obs[offSeats+k*seatSize : offSeats+(k+1)*seatSize]
}

func hand(seat []uint8, r int) []uint8 {
	return seat[seatHand+r*reservedSize : seatHand+(r+1)*reservedSize]
}

func TestLayoutConstantsAddUp(t *testing.T) {
	assert.Equal(t, offPhase+numPhases, offFinal)
	assert.Equal(t, offToPlay+1, offBank)
	assert.Equal(t, offDecks+3, offDue)
	assert.Equal(t, offDue+splendor.NumColours, offBuying)
	assert.Equal(t, offBuying+cardSize, offMarket)
	assert.Equal(t, offMarket+3*4*cardSize, offNobles)
	assert.Equal(t, offNobles+splendor.MaxNobles*nobleSize, offSeats)
	assert.Equal(t, offSeats+splendor.MaxPlayers*seatSize, ObsSize)
	assert.Equal(t, seatHand+splendor.MaxReserved*reservedSize, seatSize)
	assert.Equal(t, offBank+6, offDecks)
}

// An env forked before its first reset copies a table never dealt, which
// has no seats: it is observed as zeros, as its row was, rather than by
// dividing by its zero players (the protocol fuzzer's find: a fork of such
// envs answered internal).
func TestATableNeverDealtIsObservedAsZeros(t *testing.T) {
	for _, opts := range []env.Options{nil, {"obs_seats": "all"}, {"features": "derived", "players": 3}} {
		v, err := env.Make(ID, 2, opts, 1, nil)
		require.NoError(t, err)
		require.NoError(t, v.Fork([]int{1}, []int{0}), "%v", opts)
		require.Equal(t, make([]uint8, len(v.Obs)), v.Obs, "%v", opts)
	}
}
