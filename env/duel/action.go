package duel

import (
	"fmt"
	"strings"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/notation"
)

// Kind is what an action does.
type Kind uint8

const (
	NoKind       Kind = iota
	TakeLine          // 1–3 gem or pearl tokens in a line (mandatory)
	UsePrivilege      // return a privilege, take a gem or pearl token (optional, before replenishing)
	Replenish         // refill the board from the bag (optional; forced when no mandatory action is possible)
	TakeGold          // take a gold token, then reserve (mandatory)
	ReserveCard       // after gold: a pyramid card
	ReserveTop        // after gold: the top of a deck, hidden from the opponent
	BuyCard           // a pyramid card (mandatory)
	BuyReserved       // one of the seat's reserved cards (mandatory)
	ChooseJoker       // the colour a bought joker card takes
	ChooseToken       // the cell a token ability takes from
	ChooseSteal       // the kind a steal ability takes from the opponent
	ChooseRoyal       // the royal card earned by 3 or 6 crowns
	ReturnToken       // over 10 tokens at the end of the turn: put one in the bag
	Pass              // only when nothing else is possible
	PayGold           // variant "choose payment": gold pays for a gem or pearl the seat holds
	PayDone           // variant "choose payment": gems and pearls pay for the rest
)

// Action is one decision. Only the fields its Kind uses are set: Cell, Dir
// and Len for TakeLine (a single token has Dir Right); Cell for
// UsePrivilege, TakeGold and ChooseToken; Gem for ChooseJoker, ChooseSteal,
// ReturnToken and PayGold; Level for the reserve and buy actions on the
// pyramid and decks; Slot for the pyramid slot within its level, the reserve
// slot and the royal card.
type Action struct {
	Kind  Kind
	Cell  uint8
	Dir   Direction
	Len   uint8
	Gem   Gem
	Level uint8
	Slot  uint8
}

// The pyramid holds 5 level-1, 4 level-2 and 3 level-3 cards. Pyramid slot
// numbers run level by level: level l's slots are PyramidStart[l] up to
// PyramidStart[l+1]-1.
const PyramidSlots = 12

// PyramidStart is the first pyramid slot of each level (and the total).
var PyramidStart = [NumLevels + 1]int{0, 5, 9, PyramidSlots}

// NumActions is the size of the fixed action index space:
//
//	0–24     take 1 token          (cell, row by row: a1 b1 … e5)
//	25–96    take 2 tokens         (by direction: right, down, down-right, down-left; then first cell)
//	97–144   take 3 tokens         (same order)
//	145–169  use a privilege       (cell)
//	170      replenish the board
//	171–195  take gold             (cell; a reserve decision follows)
//	196–207  reserve pyramid card  (L1 slot1–5, L2 slot1–4, L3 slot1–3)
//	208–210  reserve deck top      (level)
//	211–222  buy pyramid card      (same slot order)
//	223–225  buy reserved card     (reserve slot)
//	226–230  joker colour          (white, blue, green, red, black)
//	231–255  token ability         (cell)
//	256–261  steal                 (white, blue, green, red, black, pearl)
//	262–265  royal card            (rows of duel_royals.csv: 2pt again, 2pt privilege, 2pt steal, 3pt)
//	266–272  return a token        (white, blue, green, red, black, pearl, gold)
//	273      pass
//	274–279  pay with gold for     (white, blue, green, red, black, pearl; variant "choose payment")
//	280      pay the rest with gems and pearls
const NumActions = 281

// First index of each block of the action space after the lines.
const (
	numLines        = 145
	privilegeBase   = numLines
	replenishIndex  = privilegeBase + NumCells
	goldBase        = replenishIndex + 1
	reserveCardBase = goldBase + NumCells
	reserveTopBase  = reserveCardBase + PyramidSlots
	buyCardBase     = reserveTopBase + NumLevels
	buyReservedBase = buyCardBase + PyramidSlots
	jokerBase       = buyReservedBase + MaxReserved
	tokenBase       = jokerBase + NumColours
	stealBase       = tokenBase + NumCells
	royalBase       = stealBase + NumCostKinds
	returnBase      = royalBase + NumRoyals
	passIndex       = returnBase + NumTokenKinds
	payGoldBase     = passIndex + 1 // after pass, so that the first 274 indices kept their meaning
	payDoneIndex    = payGoldBase + NumCostKinds
)

var (
	actionTable [NumActions]Action
	labelTable  [NumActions]string
	// lineCells lists the cells of each line, NumCells past its length.
	lineCells [numLines][MaxLine]uint8
)

// initActions builds the action table with each index's label; it runs
// after the component data is loaded, since royal labels name what the
// royal gives. Levels and slots are 1-based in labels, as players say them.
func initActions() {
	if payDoneIndex+1 != NumActions {
		panic("duel: action layout does not add up")
	}
	initLines()
	initLinesByRow()
	for c := uint8(0); c < NumCells; c++ {
		put(privilegeBase+int(c), Action{Kind: UsePrivilege, Cell: c}, "privilege "+CellName(int(c)))
		put(goldBase+int(c), Action{Kind: TakeGold, Cell: c}, "gold "+CellName(int(c)))
		put(tokenBase+int(c), Action{Kind: ChooseToken, Cell: c}, "token "+CellName(int(c)))
	}
	put(replenishIndex, Action{Kind: Replenish}, "replenish")
	initCardActions()
	for g := White; g <= Gold; g++ {
		if g <= Black {
			put(jokerBase+int(g), Action{Kind: ChooseJoker, Gem: g}, "joker "+g.String())
		}
		if g <= Pearl {
			put(stealBase+int(g), Action{Kind: ChooseSteal, Gem: g}, "steal "+g.String())
			put(payGoldBase+int(g), Action{Kind: PayGold, Gem: g}, notation.PayGoldLabel(g))
		}
		put(returnBase+int(g), Action{Kind: ReturnToken, Gem: g}, notation.ReturnLabel(g))
	}
	for r := Royal(0); r < NumRoyals; r++ {
		put(royalBase+int(r), Action{Kind: ChooseRoyal, Slot: uint8(r)}, royalLabel(r))
	}
	put(passIndex, Action{Kind: Pass}, notation.PassLabel)
	put(payDoneIndex, Action{Kind: PayDone}, notation.PayDoneLabel)
}

// initCardActions builds the reserve and buy actions, pyramid slots level
// by level.
func initCardActions() {
	for l := 0; l < NumLevels; l++ {
		for k := PyramidStart[l]; k < PyramidStart[l+1]; k++ {
			level, slot := uint8(l), uint8(k-PyramidStart[l])
			put(reserveCardBase+k, Action{Kind: ReserveCard, Level: level, Slot: slot}, notation.ReserveLabel(level, slot))
			put(buyCardBase+k, Action{Kind: BuyCard, Level: level, Slot: slot}, notation.BuyLabel(level, slot))
		}
		put(reserveTopBase+l, Action{Kind: ReserveTop, Level: uint8(l)}, notation.ReserveTopLabel(uint8(l)))
	}
	for r := uint8(0); r < MaxReserved; r++ {
		put(buyReservedBase+int(r), Action{Kind: BuyReserved, Slot: r}, notation.BuyReservedLabel(r))
	}
}

// put makes a, spelled label, index i of the action space.
func put(i int, a Action, label string) { actionTable[i], labelTable[i] = a, label }

// initLines builds the line actions and the cells of each line.
func initLines() {
	for _, b := range lineBlocks {
		for r := 0; r < b.rows; r++ {
			for col := b.col0; col < b.col0+b.width; col++ {
				i := b.base + r*b.width + col - b.col0
				first := r*BoardSide + col
				names := make([]string, b.length)
				for k := range lineCells[i] {
					lineCells[i][k] = NumCells
					if k < b.length {
						lineCells[i][k] = uint8(first + k*b.step)
						names[k] = CellName(int(lineCells[i][k]))
					}
				}
				put(i, Action{Kind: TakeLine, Cell: uint8(first), Dir: b.dir, Len: uint8(b.length)}, "take "+strings.Join(names, " "))
			}
		}
	}
}

// ActionAt decodes an index of the action space. It panics outside
// [0, NumActions), which is a programming error.
func ActionAt(i int) Action { return actionTable[i] }

// Label is the unique, human-readable name of action index i.
func Label(i int) string { return labelTable[i] }

// ParseAction returns the index whose label is label.
func ParseAction(label string) (int, error) { return notation.FindLabel(labelTable[:], label, "duel") }

// Index encodes a, its place in the action table; ok is false for an
// action the table does not hold (a malformed Action value: a field its Kind
// does not use set too, or a single token with a Dir other than Right, so
// that every line has one spelling).
func (a Action) Index() (i int, ok bool) { return notation.IndexOf(actionTable[:], a) }

func (a Action) String() string { return notation.Spell(actionTable[:], labelTable[:], a) }

// royalLabel names a royal card by what it gives, e.g. "royal 2pt steal".
func royalLabel(r Royal) string {
	label := fmt.Sprintf("royal %dpt", royals[r].Points)
	if a := royals[r].Ability; a != AbilityNone {
		label += " " + a.String()
	}
	return label
}

// WriteMask writes Legal as NumActions bytes, 1 for each legal action: the
// env's mask, written with a constant length so that the loop has no
// bounds checks.
func (s *State) WriteMask(mask []uint8) {
	var m ActionSet
	s.Legal(&m)
	bitset.WriteBytes(mask[:NumActions], m[:])
}
