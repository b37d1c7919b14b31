package splendor

import (
	"fmt"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/notation"
)

// Kind is what an action does.
type Kind uint8

const (
	NoKind        Kind = iota
	TakeDifferent      // 1 gem each of 3 colours (2 or 1 when fewer colours remain)
	TakeTwo            // 2 gems of one colour from a pile of 4+
	ReserveCard        // a face-up card, plus gold if any
	ReserveTop         // the top of a deck, unseen by the others, plus gold if any
	BuyCard            // a face-up card
	BuyReserved        // a card from the seat's own reserve
	ReturnToken        // give back one token while holding more than 10
	ChooseNoble        // the noble to receive when several qualify
	Pass               // only when no other action is legal
	PayGold            // payment "choose": gold pays for one gem the seat holds
	PayDone            // payment "choose": the seat's gems pay for the rest
)

// Action is one decision. Only the fields its Kind uses are set:
// Gems for TakeDifferent; Gem for TakeTwo, ReturnToken and PayGold; Level (0–2) for
// the card actions; Slot for market slots (0–3), reserve (0–2) and nobles (0–4).
type Action struct {
	Kind  Kind
	Gems  GemSet
	Gem   Gem
	Level uint8
	Slot  uint8
}

// NumActions is the size of the fixed action index space:
//
//	0–9    take 3 different colours   (colour triples in lexicographic order)
//	10–19  take 2 different colours   (pairs; only when < 3 colours remain)
//	20–24  take 1 colour              (only when it is the last colour left)
//	25–29  take 2 of one colour
//	30–41  reserve face-up card       (level*4 + slot)
//	42–44  reserve deck top           (level)
//	45–56  buy face-up card           (level*4 + slot)
//	57–59  buy reserved card          (reserve slot)
//	60–65  return a token             (white, blue, green, red, black, gold)
//	66–70  choose noble               (noble slot)
//	71     pass
//	72–76  pay with gold for          (white, blue, green, red, black; payment "choose")
//	77     pay done                   (the seat's gems pay for the rest)
//
// The pay actions come after pass so that indices 0–71 kept their meaning
// when the payment choice was added.
const NumActions = 78

// First index of each block of the action space.
const (
	takeDifferentBase = 0
	takeTwoBase       = 25
	reserveCardBase   = 30
	reserveTopBase    = 42
	buyCardBase       = 45
	buyReservedBase   = 57
	returnBase        = 60
	nobleBase         = 66
	passIndex         = 71
	payGoldBase       = 72
	payDoneIndex      = 77
)

var (
	actionTable [NumActions]Action
	labelTable  [NumActions]string
	// takeIndex maps a colour set of size 1–3 to its TakeDifferent index.
	takeIndex [1 << NumColours]int8
)

// init builds the action table with each index's label; levels and slots
// are 1-based in labels, as players say them.
func init() {
	for i := range takeIndex {
		takeIndex[i] = -1
	}
	i := takeDifferentBase
	for _, size := range []int{3, 2, 1} {
		for _, set := range colourSets(size) {
			takeIndex[set] = int8(i)
			put(i, Action{Kind: TakeDifferent, Gems: set}, "take "+set.names())
			i++
		}
	}
	for g := White; g <= Black; g++ {
		put(takeTwoBase+int(g), Action{Kind: TakeTwo, Gem: g}, "take 2 "+g.String())
		put(payGoldBase+int(g), Action{Kind: PayGold, Gem: g}, notation.PayGoldLabel(g))
	}
	for l := uint8(0); l < NumLevels; l++ {
		for slot := uint8(0); slot < MarketSlots; slot++ {
			k := int(l*MarketSlots + slot)
			put(reserveCardBase+k, Action{Kind: ReserveCard, Level: l, Slot: slot}, notation.ReserveLabel(l, slot))
			put(buyCardBase+k, Action{Kind: BuyCard, Level: l, Slot: slot}, notation.BuyLabel(l, slot))
		}
		put(reserveTopBase+int(l), Action{Kind: ReserveTop, Level: l}, notation.ReserveTopLabel(l))
	}
	for n := uint8(0); n < MaxNobles; n++ {
		put(nobleBase+int(n), Action{Kind: ChooseNoble, Slot: n}, fmt.Sprintf("noble%d", n+1))
	}
	for r := uint8(0); r < MaxReserved; r++ {
		put(buyReservedBase+int(r), Action{Kind: BuyReserved, Slot: r}, notation.BuyReservedLabel(r))
	}
	for g := White; g <= Gold; g++ {
		put(returnBase+int(g), Action{Kind: ReturnToken, Gem: g}, notation.ReturnLabel(g))
	}
	put(passIndex, Action{Kind: Pass}, notation.PassLabel)
	put(payDoneIndex, Action{Kind: PayDone}, notation.PayDoneLabel)
}

// put makes a, spelled label, index i of the action space.
func put(i int, a Action, label string) { actionTable[i], labelTable[i] = a, label }

// colourSets lists the sets of size colours in lexicographic order of their
// colours (white blue green, white blue red, …), the order of the action table.
func colourSets(size int) []GemSet {
	if size == 0 {
		return []GemSet{0}
	}
	var sets []GemSet
	for g := White; g <= Black; g++ {
		for _, rest := range colourSets(size - 1) {
			if rest == 0 || rest&(1<<(g+1)-1) == 0 {
				sets = append(sets, rest|1<<g)
			}
		}
	}
	return sets
}

// ActionAt decodes an index of the action space. It panics outside
// [0, NumActions), which is a programming error.
func ActionAt(i int) Action { return actionTable[i] }

// Label is the unique, human-readable name of action index i.
func Label(i int) string { return labelTable[i] }

// ParseAction returns the index whose label is label.
func ParseAction(label string) (int, error) {
	return notation.FindLabel(labelTable[:], label, "splendor")
}

// Index encodes a, its place in the action table; ok is false for an
// action the table does not hold (a malformed Action value, one with a
// field its Kind does not use set too).
func (a Action) Index() (i int, ok bool) { return notation.IndexOf(actionTable[:], a) }

func (a Action) String() string { return notation.Spell(actionTable[:], labelTable[:], a) }

// WriteMask writes Legal as NumActions bytes, 1 for each legal action: the
// env's mask, written with a constant length so that the loop has no
// bounds checks.
func (s *State) WriteMask(mask []uint8) {
	var m ActionSet
	s.Legal(&m)
	bitset.WriteBytes(mask[:NumActions], m[:])
}
