package duel

// Paying for a card. Bonuses lower each gem's cost (never the pearl's), and
// gold pays for any gem or pearl. Where the seat's tokens of a kind fall
// short, gold must pay, whatever the seat prefers; the rest may be paid
// with the tokens or, since the rulebook lets gold replace any token, with
// gold the seat would rather spend. By default the engine spends gems and
// pearls first and keeps the gold (gold pays for anything and cannot be
// stolen); with State.ChoosePayment the seat decides, one unit at a time, in
// phase pay. Spent tokens go into the bag.

// buy pays for c: the gold that must pay at once, then the rest with gems
// and pearls, or the pay decisions when the seat could keep some of them by
// spending gold it holds beyond what it must.
func (s *State) buy(p *Player, c Card) {
	var due [NumCostKinds]uint8
	short := uint8(0)
	for k := White; k <= Pearl; k++ {
		need := cards[c].Cost[k]
		if k <= Black {
			need -= min(need, p.Bonus[k])
		}
		due[k] = min(need, p.Tokens[k])
		short += need - due[k]
	}
	s.spend(p, Gold, short)
	if s.ChoosePayment && p.Tokens[Gold] > 0 && due != ([NumCostKinds]uint8{}) {
		s.Pending, s.Due, s.Phase = c, due, PhasePay
		return
	}
	s.payTokens(p, &due)
	s.gain(p, c)
}

// payGold pays one unit of kind k with gold, keeping a token of k. When no
// choice is left (no gold, nothing due) the payment is settled at once.
func (s *State) payGold(p *Player, k Gem) {
	s.Due[k]--
	s.spend(p, Gold, 1)
	if p.Tokens[Gold] == 0 || s.Due == ([NumCostKinds]uint8{}) {
		s.settle(p)
	}
}

// settle ends phase pay: what is still due is paid with the seat's gems and
// pearls, and the card is then the seat's.
func (s *State) settle(p *Player) {
	s.payTokens(p, &s.Due)
	s.Due = [NumCostKinds]uint8{}
	s.gain(p, s.Pending)
}

// payTokens pays due with the seat's gems and pearls.
func (s *State) payTokens(p *Player, due *[NumCostKinds]uint8) {
	for k := White; k <= Pearl; k++ {
		s.spend(p, k, due[k])
	}
}

// spend moves n tokens of kind k from the seat to the bag.
func (s *State) spend(p *Player, k Gem, n uint8) {
	p.Tokens[k] -= n
	s.Bag[k] += n
}

// payKinds is the set of kinds gold may still pay for in phase pay: those
// still due (the seat holds gold, or the payment would have been settled).
func (s *State) payKinds() uint32 {
	var set uint32
	for k, n := range s.Due {
		if n > 0 {
			set |= 1 << k
		}
	}
	return set
}
