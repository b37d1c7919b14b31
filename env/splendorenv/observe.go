package splendorenv

import (
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// The observation is ObsSize small integers from the point of view of one
// seat ("me"): seats are rotated so that block 0 is me, block 1 the next seat
// to play, and so on. Offsets (docs/envs/splendor.md has the table):
const (
	offPhase   = 0   // [4] one-hot: main, pay, return, choose noble
	offFinal   = 4   // 1 once the final round has started
	offRound   = 5   // completed rounds, capped at 255
	offPasses  = 6   // consecutive turns with nothing done
	offPlayers = 7   // number of players
	offMySeat  = 8   // my seat in turn order (0 moves first)
	offToPlay  = 9   // the seat to play, counted from me: its seat block
	offBank    = 10  // [6] tokens in the supply: white blue green red black gold
	offDecks   = 16  // [3] cards left in each level's deck
	offDue     = 19  // [5] phase pay: gems still due per colour
	offBuying  = 24  // [card] phase pay: the card being paid for
	offMarket  = 36  // [12 × card] face-up cards, level 1 slots 1–4, then 2, then 3
	offNobles  = 180 // [5 × noble] noble slots
	offSeats   = 210 // [4 × seat] me first; absent seats are zeros
	ObsSize    = 442

	numPhases    = 4  // the phases with decisions: main, pay, return, choose noble
	cardSize     = 12 // present, points, bonus one-hot [5], cost [5]
	nobleSize    = 6  // present, bonuses needed [5]
	reservedSize = cardSize + 2
	seatSize     = 58

	// within a seat block
	seatPresent  = 0
	seatTokens   = 1  // [6]
	seatBonus    = 7  // [5]
	seatPoints   = 12 //
	seatCards    = 13 // development cards bought
	seatNobles   = 14 // nobles received
	seatReserved = 15 // reserved cards held
	seatHand     = 16 // [3 × (card, hidden, level)]
)

// cardFeatures[c] is card c's block, computed once.
var cardFeatures [splendor.NumCards][cardSize]uint8

func init() {
	for c := splendor.Card(0); c < splendor.NumCards; c++ {
		info := c.Info()
		f := &cardFeatures[c]
		f[0], f[1] = 1, info.Points
		f[2+int(info.Bonus)] = 1
		copy(f[7:], info.Cost[:])
	}
}

// Observe writes the table as seat me sees it: seats rotated so that me
// comes first, others' blind reserves hidden.
func (g *game) Observe(obs []uint8, me, toPlay int) {
	obs = obs[:ObsSize]
	s := g.state()
	n := int(s.NumPlayers)
	if n == 0 { // a table never dealt (an env forked before its first reset): nothing to see
		return
	}
	writeTurn(obs, s, me, toPlay)
	copy(obs[offBank:], s.Bank[:])
	copy(obs[offDecks:], s.DeckSize[:])
	if s.Phase == splendor.PhasePay {
		copy(obs[offDue:], s.Due[:])
		copy(obs[offBuying:], cardFeatures[s.Buying][:])
	}
	writeTable(obs, s)
	for k := 0; k < n; k++ {
		writeSeat(obs[offSeats+k*seatSize:offSeats+(k+1)*seatSize], &s.Players[(me+k)%n], k == 0)
	}
}

// writeTurn writes where the game stands and whose decision it is. The seat
// to play is the env's (toPlay), so that the observation served always says
// 0 and every other seat's view says whose block decides.
func writeTurn(obs []uint8, s *splendor.State, me, toPlay int) {
	n := int(s.NumPlayers)
	if s.Phase < numPhases {
		obs[offPhase+int(s.Phase)] = 1
	}
	obs[offFinal] = turnbased.Flag(s.FinalRound)
	obs[offRound] = uint8(min(s.Turn/uint32(n), 255))
	obs[offPasses] = s.Passes
	obs[offPlayers] = s.NumPlayers
	obs[offMySeat] = uint8(me)
	obs[offToPlay] = uint8((toPlay - me + n) % n)
}

// writeTable writes the market and the nobles.
func writeTable(obs []uint8, s *splendor.State) {
	for l := range s.Market {
		for slot, c := range s.Market[l] {
			if c != splendor.NoCard {
				copy(obs[offMarket+(l*splendor.MarketSlots+slot)*cardSize:], cardFeatures[c][:])
			}
		}
	}
	for slot, nb := range s.Nobles {
		if nb != splendor.NoNoble {
			o := obs[offNobles+slot*nobleSize:]
			o[0] = 1
			needs := nb.Needs()
			copy(o[1:], needs[:])
		}
	}
}

// writeSeat writes one seat's block; a card another seat reserved blind shows
// only that it is there and its level.
func writeSeat(o []uint8, p *splendor.Player, mine bool) {
	o[seatPresent] = 1
	copy(o[seatTokens:], p.Tokens[:])
	copy(o[seatBonus:], p.Bonus[:])
	o[seatPoints] = p.Points
	o[seatCards] = uint8(p.Bought.Len())
	o[seatNobles] = uint8(p.Nobles.Len())
	o[seatReserved] = p.NumReserved
	for r := 0; r < int(p.NumReserved); r++ {
		c := p.Reserved[r]
		hidden := p.Blind&(1<<r) != 0 && !mine
		turnbased.WriteReserve(o[seatHand+r*reservedSize:], cardFeatures[c][:], c.Info().Level+1, hidden)
	}
}
