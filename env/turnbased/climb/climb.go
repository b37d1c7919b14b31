// Package climb is a toy card game for tests only, registered as "climb-v0"
// through the same path as the real games: it shows that a new game is its
// rules, its tables and nothing else. Nine cards, 1 to 9, are shuffled; each
// seat holds two, hidden from the others. On a turn a seat plays a card from
// its hand, scoring its value if it is higher than the last card played and
// nothing otherwise, then draws the deck's top card. When every hand is
// empty, the most points win (ties share).
package climb

import (
	"errors"
	"fmt"
	"slices"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/splendor-rl/splendor/internal/rng"
)

const (
	ID       = "climb-v0"
	numCards = 9
	hand     = 2 // cards per seat; an action plays one slot
	obsSize  = 5 + 2*3
)

// State is a game; a card is its value, 0 an empty slot.
type State struct {
	Players, Seat, Last, DeckSize uint8
	Turn                          uint32
	Deck                          [numCards]uint8 // Deck[:DeckSize], the top last
	Hands                         [3][hand]uint8
	Scores                        [3]uint8
}

// Game registers climb-v0 when a test imports this package.
var Game = turnbased.Register(&turnbased.Game[State, *State]{ID: ID, Version: 0, NumActions: hand, ObsSize: obsSize,
	Layout: []env.Block{env.Rows("table", 0, []string{"to_play", "last", "deck", "hand_1", "hand_2"}),
		env.Rows("seats", 5, []string{"score", "cards"}, 3)},
	Label: func(a int) string { return fmt.Sprintf("play slot %d", a+1) }, MinPlayers: 2, MaxPlayers: 3,
	WinningScore: 20, MaxShaping: 2 * 9 / 20.0, Parse: Parse, Deal: deal})

func deal(players int, seed uint64) State {
	s := State{Players: uint8(players), DeckSize: numCards, Deck: [numCards]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9}}
	r := rng.New(seed)
	rng.Shuffle(&r, s.Deck[:])
	for p := range players {
		s.Hands[p] = [hand]uint8{s.draw(), s.draw()}
	}
	return s
}

func (s *State) draw() (c uint8) {
	if s.DeckSize > 0 { // a drawn card is nowhere in the deck: one notation per game
		s.DeckSize--
		c, s.Deck[s.DeckSize] = s.Deck[s.DeckSize], 0
	}
	return c
}

func (s *State) ToPlay() int                   { return int(s.Seat) }
func (s *State) Seats() int                    { return int(s.Players) }
func (s *State) Points(seat int) int           { return int(s.Scores[seat]) }
func (s *State) Progress() (int, uint32, bool) { return int(s.Seat), s.Turn, s.Over() }
func (s *State) Over() bool                    { return s.Hands == [3][hand]uint8{} }

func (s *State) Winners() (w uint8) {
	best := slices.Max(s.Scores[:s.Players])
	for p, n := range s.Scores[:s.Players] {
		if n == best {
			w |= 1 << p
		}
	}
	return w
}

func (s *State) LegalSet() bots.Actions {
	h := s.Hands[s.Seat]
	return bots.Actions{uint64(min(h[0], 1)) | uint64(min(h[1], 1))<<1}
}

func (s *State) WriteMask(mask []uint8) {
	mask[0], mask[1] = min(s.Hands[s.Seat][0], 1), min(s.Hands[s.Seat][1], 1)
}

func (s *State) Apply(a int) error {
	if a < 0 || a >= hand || s.Hands[s.Seat][a] == 0 {
		return errors.New("no card in that slot")
	}
	c := &s.Hands[s.Seat][a]
	if *c > s.Last {
		s.Scores[s.Seat] += *c
	}
	s.Last, *c = *c, s.draw()
	s.Turn++
	for s.Seat = (s.Seat + 1) % s.Players; !s.Over() && s.Hands[s.Seat] == [hand]uint8{}; s.Seat = (s.Seat + 1) % s.Players {
	}
	return nil
}

// Greedy plays its highest card: the one that scores, if any does.
func (s *State) Greedy(*rng.Rand) int {
	return slices.Index(s.Hands[s.Seat][:], slices.Max(s.Hands[s.Seat][:]))
}

// Redeal shuffles the deck with the other seats' hands and deals them again.
func (s *State) Redeal(seat int, r *rng.Rand) {
	pool, slots := append([]uint8{}, s.Deck[:s.DeckSize]...), s.hidden(seat)
	for _, c := range slots {
		pool = append(pool, *c)
	}
	rng.Shuffle(r, pool)
	copy(s.Deck[:], pool[:s.DeckSize])
	for k, c := range slots {
		*c = pool[int(s.DeckSize)+k]
	}
}

// hidden is the cards in the other seats' hands.
func (s *State) hidden(seat int) (slots []*uint8) {
	for p := range int(s.Players) {
		for k := range hand {
			if c := &s.Hands[p][k]; p != seat && *c != 0 {
				slots = append(slots, c)
			}
		}
	}
	return slots
}

func (s *State) Observe(obs []uint8, me, toPlay int) {
	n := int(s.Players)
	obs[0], obs[1], obs[2], obs[3], obs[4] = uint8((toPlay-me+n)%n), s.Last, s.DeckSize, s.Hands[me][0], s.Hands[me][1]
	for k := range n {
		p := (me + k) % n
		obs[5+2*k], obs[6+2*k] = s.Scores[p], min(s.Hands[p][0], 1)+min(s.Hands[p][1], 1)
	}
}
