package splendor

// Paying for a card. Each colour costs its price less the seat's bonuses in
// that colour, never below zero. Gold pays for any gem, so where the seat's
// gems of a colour fall short, gold must pay, whatever the seat prefers. The
// rest may be paid with the seat's gems or, since the rulebook lets gold
// replace any gem, with gold. By default the engine spends the gems and keeps
// the gold (gold buys anything later, a gem only its colour); with
// State.ChoosePayment the seat decides, one gold at a time, in phase pay,
// since which tokens go back to the supply changes what the others can take.
// Spent tokens return to the supply.
//
// The purchase is one action, complete once the payment is settled: only
// then does the card join the seat's cards and the market slot it left
// refill. The rulebook refills "immediately" once the card is acquired, and
// a player pays before taking the card, so the new card is not seen while
// paying but is seen during the noble choice that may follow.

// buy pays for c, whose place (market slot or reserve) the caller has
// emptied: first the gold that must pay, then the rest with the seat's gems,
// unless the seat may choose and holds gold that could pay for some of them.
//
// It works on colour lanes: comparing colour by colour branched on every
// comparison, and which of the two is smaller is a coin flip in play.
func (s *State) buy(p *Player, c Card) {
	need := excess(costLanes[c], lanes(&p.Bonus))
	short := excess(need, p.Tokens.gemLanes()) // where the seat's gems fall short
	s.spend(p, Gold, uint8(total(short)))
	due := need - short
	unpack(due, &s.Due)
	s.Buying = c
	if s.ChoosePayment && p.Tokens[Gold] > 0 && due != 0 {
		s.Phase = PhasePay
		return
	}
	s.settle(p)
}

// payGold pays with gold for one gem of colour g that the seat keeps. Once
// no choice is left (no gold, nothing due) the payment settles by itself: a
// decision with one possible outcome is not asked.
func (s *State) payGold(p *Player, g Gem) {
	s.Due[g]--
	s.spend(p, Gold, 1)
	if p.Tokens[Gold] == 0 || s.Due == ([NumColours]uint8{}) {
		s.settle(p)
	}
}

// settle pays what is still due with the seat's gems and completes the
// purchase; the turn goes on to the noble check. The token limit is not
// checked: a buy only ever lowers the seat's tokens, which were at most 10.
func (s *State) settle(p *Player) {
	for g := White; g <= Black; g++ {
		s.spend(p, g, s.Due[g])
	}
	s.Due = [NumColours]uint8{}
	c := s.Buying
	s.Buying = NoCard
	info := &cards[c]
	p.Bought.Add(c)
	p.Bonus[info.Bonus]++
	p.Points += info.Points
	s.refill(int(info.Level))
	s.afterTokens(p, false)
}

// spend moves n of the seat's tokens of kind g back to the supply.
func (s *State) spend(p *Player, g Gem, n uint8) {
	p.Tokens[g] -= n
	s.Bank[g] += n
}

// refill deals the top of level l's deck into its empty market slot; an
// empty deck leaves the slot empty. A level's slot is only ever empty with
// cards in its deck between a purchase and its settling, so buying a
// reserved card deals nothing.
//
// It reads the slots one by one, not as a copy of the row: the row was just
// written a byte at a time, and reading it whole would wait for those writes.
func (s *State) refill(l int) {
	row := &s.Market[l]
	for slot := range row {
		if row[slot] == NoCard {
			row[slot] = s.draw(l)
		}
	}
}
