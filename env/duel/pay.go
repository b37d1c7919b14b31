package duel

import "github.com/splendor-rl/splendor/internal/bitset"

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
// The sums are byte-wise, one byte per cost kind: need is the price less
// the bonuses, gold what the seat's tokens of each kind cannot cover.
func (s *State) buy(p *Player, c Card) {
	need := shortBytes(costWords[c]&priceBytes, p.bonusWord())
	gold := shortBytes(need, p.Tokens.packed())
	s.spend(p, Gold, uint8(sumBytes(gold)))
	due := unpackCosts(need - gold)
	if s.ChoosePayment && p.Tokens[Gold] > 0 && need != gold {
		s.Pending, s.Due, s.Phase = c, due, PhasePay
		return
	}
	s.payTokens(p, &due)
	s.gain(p, c)
}

// unpackCosts spreads the cost kinds' bytes of w, white in the low byte.
func unpackCosts(w uint64) [NumCostKinds]uint8 {
	return [NumCostKinds]uint8{uint8(w), uint8(w >> 8), uint8(w >> 16), uint8(w >> 24), uint8(w >> 32), uint8(w >> 40)}
}

// payGold pays one unit of kind k with gold, keeping a token of k. When no
// choice is left (no gold, no kind gold may pay for) the payment is
// settled at once.
func (s *State) payGold(p *Player, k Gem) {
	s.Due[k]--
	s.spend(p, Gold, 1)
	if p.Tokens[Gold] == 0 || s.payKinds() == 0 {
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
func (s *State) payKinds() uint32 { return bitset.Nonzero(s.Due[:]) }

// wallet is what a seat can pay with, packed one byte per cost kind
// (bonuses plus tokens for the colours, tokens for the pearl) so that a card's
// shortfall is a few word operations.
type wallet struct {
	have uint64
	gold int
}

// Byte copyByte of a cost word holds a pseudo-kind that folds the checks
// other than the price into the shortfall, so that affordability needs no
// branch: a joker costs copyCost of it, which a seat holds when it owns a
// bonus the joker can copy, and an empty slot (NoCard) costs noCardCost,
// more than any seat holds. Either shortfall is beyond the gold in the box.
const (
	copyByte   = NumCostKinds
	copyCost   = 64
	noCardCost = 127
	// priceBytes masks the bytes of the cost kinds: the price in a cost
	// word, the gems and pearls in packed Tokens.
	priceBytes = 1<<(8*NumCostKinds) - 1
)

// wallet packs what p can pay with; a seat owning a bonus also holds the
// pseudo-kind a joker costs.
func (p *Player) wallet() wallet {
	bonus := p.bonusWord()
	have := p.Tokens.packed()&priceBytes + bonus // small counts: no carries
	if bonus != 0 {
		have |= copyCost << (8 * copyByte)
	}
	return wallet{have: have, gold: int(p.Tokens[Gold])}
}

// bonusWord is p's bonuses packed one byte per colour, white in the low
// byte.
func (p *Player) bonusWord() uint64 {
	b := &p.Bonus
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32
}

// canBuy reports whether c may be bought: a joker needs a bonus to copy, and
// bonuses, then tokens of each kind, then gold must cover the cost.
func (w wallet) canBuy(c Card) bool {
	return shortfall(costWords[c], w.have) <= w.gold
}

// buyable is canBuy as 1 or 0. Which cards a seat can afford is close to
// random, so the legal-action loops take this branch-free form: the sign bit
// of shortfall−gold−1 (both small) is set exactly when gold covers it.
func (w wallet) buyable(c Card) uint32 {
	return uint32(uint64(shortfall(costWords[c], w.have)-w.gold-1) >> 63)
}

// shortfall sums max(0, cost−have) over the bytes of two words of small
// counts.
func shortfall(cost, have uint64) int { return sumBytes(shortBytes(cost, have)) }

// shortBytes is max(0, need−have) byte by byte, for bytes below 128: with
// bit 7 set on every need byte the subtraction cannot borrow across bytes,
// and bit 7 survives exactly where need >= have; there the low seven bits
// are kept (0x80 − 1 = 0x7f), elsewhere none.
func shortBytes(need, have uint64) uint64 {
	x := (need | byteTops) - have
	survived := x & byteTops
	return x & (survived - survived>>7)
}

// sumBytes is the sum of the bytes of x, when it is below 256.
func sumBytes(x uint64) int { return int((x * byteOnes) >> 56) }

// costWords holds each card's cost packed like wallet.have, and the
// pseudo-kind in copyByte; indexed by any Card, NoCard included.
var costWords [int(NoCard) + 1]uint64

func initCostWords() {
	for c := range costWords {
		costWords[c] = noCardCost << (8 * copyByte)
	}
	for c, info := range cards {
		costWords[c] = 0
		for k, n := range info.Cost {
			costWords[c] |= uint64(n) << (8 * k)
		}
		if info.Joker {
			costWords[c] |= copyCost << (8 * copyByte)
		}
	}
}

// canBuy reports whether p may buy c.
func (p *Player) canBuy(c Card) bool { return p.wallet().canBuy(c) }
