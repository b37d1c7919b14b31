package duelenv

import (
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// The observation is ObsSize small integers from the point of view of the
// seat to play ("me", seat block 0; the opponent is block 1). Offsets
// (docs/envs/splendor-duel.md has the table):
const (
	offPhase      = 0   // [8] one-hot: main, reserve, pay, joker, token, steal, royal, return
	offReplenish  = 8   // 1 once I replenished this turn (no more privileges or replenishing)
	offAgain      = 9   // 1 when I play another turn after this one
	offRound      = 10  // completed rounds, capped at 255
	offPasses     = 11  // consecutive turns with nothing possible
	offMySeat     = 12  // my seat (0 moves first)
	offToPlay     = 13  // the seat to decide, relative to me: 0 me, 1 the opponent
	offSupply     = 14  // privileges in the supply
	offBag        = 15  // [7] tokens in the bag: white blue green red black pearl gold
	offBoard      = 22  // [25 × 7] one-hot token kind of each cell (a1 b1 … e5); all zero when empty
	offPyramid    = 197 // [12 × card] L1 slots 1–5, L2 slots 1–4, L3 slots 1–3
	offDecks      = 449 // [3] cards left in each level's deck
	offRoyals     = 452 // [4] royal cards still available
	offPending    = 456 // [card] the card being paid for, or whose joker colour or token ability is being decided
	offDue        = 477 // [6] left to pay for it in phase pay: white blue green red black pearl
	offSeats      = 483 // [2 × seat] me, then the opponent
	ObsSize       = 673
	cardSize      = 21 // present, points, crowns, colour one-hot [5], joker, no bonus, bonuses, ability one-hot [4], cost [6]
	reservedSize  = cardSize + 2
	seatSize      = 95
	seatTokens    = 0  // [7]
	seatPrivilege = 7  //
	seatBonus     = 8  // [5] bonuses per colour (jokers as their chosen colour)
	seatColourPts = 13 // [5] prestige on cards of each colour
	seatPoints    = 18 // cards and royals
	seatCrowns    = 19 //
	seatRoyals    = 20 // [4] royal cards held
	seatCards     = 24 // jewel cards bought
	seatReserved  = 25 // reserved cards held
	seatHand      = 26 // [3 × (card, hidden, level)]
)

var cardFeatures [duel.NumCards][cardSize]uint8

func init() {
	for c := duel.Card(0); c < duel.NumCards; c++ {
		info := c.Info()
		f := &cardFeatures[c]
		f[0], f[1], f[2] = 1, info.Points, info.Crowns
		switch {
		case info.Joker:
			f[8] = 1
		case info.Colour == duel.NoGem:
			f[9] = 1
		default:
			f[3+int(info.Colour)] = 1
		}
		f[10] = info.Bonuses
		if info.Ability != duel.AbilityNone {
			f[10+int(info.Ability)] = 1
		}
		copy(f[15:], info.Cost[:])
	}
}

// Observe writes the table as seat me sees it: seats rotated so that me
// comes first, the other's blind reserves hidden. The seat to decide is the
// engine's, whatever the env serves (toPlay).
func (g *game) Observe(obs []uint8, me, _ int) {
	obs = obs[:ObsSize]
	s := g.state()
	if s.Phase < duel.PhaseOver {
		obs[offPhase+int(s.Phase)] = 1
	}
	obs[offReplenish], obs[offAgain] = turnbased.Flag(s.Replenished), turnbased.Flag(s.Again)
	obs[offRound] = uint8(min(s.Turn/duel.NumPlayers, 255))
	obs[offPasses] = s.Passes
	obs[offMySeat] = uint8(me)
	// Every seat's view says who decides, so that a view is never read as
	// the decision of the seat that only watches.
	obs[offToPlay] = uint8((int(s.Seat) - me + duel.NumPlayers) % duel.NumPlayers)
	obs[offSupply] = duel.NumPrivileges - s.Players[0].Privileges - s.Players[1].Privileges
	copy(obs[offBag:], s.Bag[:])
	for c, g := range s.Board {
		if g != duel.NoGem {
			obs[offBoard+c*duel.NumTokenKinds+int(g)] = 1
		}
	}
	for k, c := range s.Pyramid {
		writeCard(obs[offPyramid+k*cardSize:], c)
	}
	copy(obs[offDecks:], s.DeckSize[:])
	held := s.Players[0].Royals | s.Players[1].Royals
	for r := duel.Royal(0); r < duel.NumRoyals; r++ {
		obs[offRoyals+int(r)] = turnbased.Flag(!held.Has(r))
	}
	writeCard(obs[offPending:], s.Pending)
	copy(obs[offDue:], s.Due[:])
	for k := 0; k < duel.NumPlayers; k++ {
		writeSeat(obs[offSeats+k*seatSize:offSeats+(k+1)*seatSize], &s.Players[(me+k)%duel.NumPlayers], k == 0)
	}
}

func writeCard(o []uint8, c duel.Card) {
	if c != duel.NoCard {
		copy(o, cardFeatures[c][:])
	}
}

// writeSeat writes one seat's block; a card the opponent reserved blind
// shows only that it is there and its level.
func writeSeat(o []uint8, p *duel.Player, mine bool) {
	copy(o[seatTokens:], p.Tokens[:])
	o[seatPrivilege] = p.Privileges
	copy(o[seatBonus:], p.Bonus[:])
	copy(o[seatColourPts:], p.ColourPoints[:])
	o[seatPoints], o[seatCrowns] = p.Points, p.Crowns
	for r := duel.Royal(0); r < duel.NumRoyals; r++ {
		o[seatRoyals+int(r)] = turnbased.Flag(p.Royals.Has(r))
	}
	o[seatCards] = uint8(p.Bought.Len())
	o[seatReserved] = p.NumReserved
	for r := 0; r < int(p.NumReserved); r++ {
		c := p.Reserved[r]
		hidden := p.Blind&(1<<r) != 0 && !mine
		turnbased.WriteReserve(o[seatHand+r*reservedSize:], cardFeatures[c][:], c.Info().Level+1, hidden)
	}
}
