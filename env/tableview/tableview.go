// Package tableview holds what both games' views of a table share: the
// JSON shapes of gems and reserved cards (docs/trace.md), the referee seat,
// and the text board's way of spelling gems and cards.
package tableview

// Referee is the seat that sees everything: a view for it hides nothing,
// as a trace records the game.
const Referee = -1

// Gems is one count per gem colour: bonuses, or the colour part of tokens.
type Gems struct {
	White int `json:"white"`
	Blue  int `json:"blue"`
	Green int `json:"green"`
	Red   int `json:"red"`
	Black int `json:"black"`
}

// GemsOf reads the five colours of an engine's per-colour counts.
func GemsOf(g []uint8) Gems {
	return Gems{White: int(g[0]), Blue: int(g[1]), Green: int(g[2]), Red: int(g[3]), Black: int(g[4])}
}

// Counts lists the five colours in the engines' order.
func (g Gems) Counts() [5]int { return [5]int{g.White, g.Blue, g.Green, g.Red, g.Black} }

// CardFace is what a jewel card of either game prints, for viewers
// (components); C is the cost's type.
type CardFace[C any] struct {
	ID     int    `json:"id"`
	Level  int    `json:"level"` // 1–3
	Bonus  string `json:"bonus"`
	Points int    `json:"points"`
	Cost   C      `json:"cost"`
}

// Reserved is a card in a seat's hand. A card reserved blind from a deck is
// known to its owner only: the other seats' views give its level instead.
type Reserved struct {
	Card   *int `json:"card"`
	Hidden bool `json:"hidden"` // reserved blind from a deck
	Level  *int `json:"level,omitempty"`
}

// Hand is a seat's reserved cards as viewer sees the hand of owner: a
// card reserved blind (bit r of blind for cards[r]) of another seat shows
// only its level (level gives a card's level from 0, as the engines count;
// the view counts from 1).
func Hand[C ~uint8](cards []C, blind uint8, level func(C) uint8, owner, viewer int) []Reserved {
	hand := make([]Reserved, len(cards))
	for r, c := range cards {
		id := int(c)
		hand[r] = Reserved{Card: &id, Hidden: blind&(1<<r) != 0}
		if hand[r].Hidden && viewer != Referee && viewer != owner {
			l := int(level(c)) + 1
			hand[r].Card, hand[r].Level = nil, &l
		}
	}
	return hand
}

// Slot is id, or nil for an empty slot.
func Slot(id int, ok bool) *int {
	if !ok {
		return nil
	}
	return &id
}

// Piles are the draw piles of a view: their order for the referee only,
// their sizes for everyone.
type Piles struct {
	Decks     [][]int `json:"decks,omitempty"`      // per level, bottom to top: the last is drawn next
	DeckSizes []int   `json:"deck_sizes,omitempty"` // left out of traces, whose decks tell them
}

// PilesOf is the draw piles as viewer sees them; deck(l) is level l's
// undrawn cards, bottom to top.
func PilesOf[C ~uint8](levels int, deck func(l int) []C, viewer int) Piles {
	var d Piles
	for l := range levels {
		cards := deck(l)
		d.DeckSizes = append(d.DeckSizes, len(cards))
		if viewer == Referee {
			ids := make([]int, len(cards))
			for i, c := range cards {
				ids[i] = int(c)
			}
			d.Decks = append(d.Decks, ids)
		}
	}
	return d
}

// Episode is what an env adds to a view it serves (the wire's view op):
// whether its episode is over, so that no action is legal until a reset
// (which the game's phase alone does not say: a turn limit or a forfeit
// ends an episode mid-game), the client's seat in vs-bots mode, and the
// winners once the game is over by its rules (which a viewer could not tell
// without the rules; none for a blocked game). Traces leave them out.
type Episode struct {
	Over       *bool `json:"over,omitempty"`
	ClientSeat *int  `json:"client_seat,omitempty"`
	Winners    []int `json:"winners,omitempty"`
}

// Seats lists the seats of a set (bit i for seat i), increasing.
func Seats(set uint8) []int {
	seats := []int{}
	for i := 0; i < 8; i++ {
		if set&(1<<i) != 0 {
			seats = append(seats, i)
		}
	}
	return seats
}

// Members lists, increasing, the ids below n that a set has: cards bought,
// nobles or royals received.
func Members[T ~uint8](n int, has func(T) bool) []int {
	ids := []int{}
	for id := 0; id < n; id++ {
		if has(T(id)) {
			ids = append(ids, id)
		}
	}
	return ids
}
