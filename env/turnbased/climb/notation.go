package climb

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	tv "github.com/splendor-rl/splendor/env/tableview"
)

// String is the game's notation: the State as JSON.
func (s *State) String() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Parse reads what String writes, only as String writes it, and checks that
// the game could occur in play.
func Parse(text string) (State, error) {
	var s State
	if json.Unmarshal([]byte(text), &s) != nil || s.Players < 2 || s.Players > 3 || s.String() != text || !s.adds() {
		return s, errors.New("climb: not a game of play")
	}
	return s, nil
}

// adds checks that every card not yet played is in one place, that the
// seat to play holds a card, and that the points could have been scored.
func (s *State) adds() bool {
	cards := append(slices.Clone(s.Deck[:s.DeckSize]), s.Deck[s.DeckSize:]...) // the tail must be empty
	for _, c := range s.hidden(-1) {
		cards = append(cards, *c)
	}
	slices.Sort(cards)
	cards = slices.Compact(cards)
	total := 0 // of the cards not yet played and the points scored with the others: 45, or less
	for _, n := range append(cards, s.Scores[:]...) {
		total += int(n)
	}
	return len(cards) == numCards-int(s.Turn)+1 && cards[0] == 0 && !slices.Contains(cards, s.Last) == (s.Turn > 0) &&
		int(s.Seat) < int(s.Players) && (s.Over() || s.Hands[s.Seat] != [hand]uint8{}) && total <= 45
}

// view is the table as a seat sees it; the referee's has the notation and
// the deck order.
type view struct {
	Notation string `json:"notation,omitempty"`
	tv.Piles
	Seats []seatView `json:"seats"`
	tv.Episode
}

type seatView struct {
	Points   int           `json:"points"`
	Reserved []tv.Reserved `json:"reserved"` // the hand: another seat's cards face down
}

func (s *State) View(viewer int, ep tv.Episode) (any, string) {
	v := view{Episode: ep, Piles: tv.PilesOf(1, func(int) []uint8 { return s.Deck[:s.DeckSize] }, viewer)}
	var b tv.Board
	fmt.Fprintf(&b, "Climb: seat %d to play, last card %d, %d in the deck\n", s.Seat, s.Last, s.DeckSize)
	if viewer == tv.Referee {
		v.Notation = s.String()
	}
	for p := range int(s.Players) {
		cards := slices.DeleteFunc(slices.Clone(s.Hands[p][:]), func(c uint8) bool { return c == 0 })
		hand := tv.Hand(cards, 0b11, func(uint8) uint8 { return 0 }, p, viewer)
		v.Seats = append(v.Seats, seatView{Points: int(s.Scores[p]), Reserved: hand})
		b.Line(fmt.Sprintf("%s seat %d", tv.Marker(p, int(s.Seat)), p), "%d points, hand %s", s.Scores[p],
			tv.HandText(hand, strconv.Itoa))
	}
	return v, b.String()
}
