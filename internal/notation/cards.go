package notation

import (
	"fmt"

	"github.com/splendor-rl/splendor/internal/bitset"
)

// CardReader is the Reader a game's parser is built on: it also claims the
// card ids it reads, refusing a second copy of a card and a card out of its
// level's place, and likewise the game's tiles (see Tile). The cards of
// level l are the ids from start[l] up to start[l+1]; none marks an empty
// slot.
type CardReader[C ~uint8] struct {
	Reader
	start []C
	none  C
	seen  bitset.Of[C]
	tiles uint64 // the tiles claimed, bit id for tile id
}

// NewCardReader reads text, with the cards of a box whose levels start at
// start (and end at its last entry).
func NewCardReader[C ~uint8](text string, start []C, none C) CardReader[C] {
	return CardReader[C]{Reader: NewReader(text), start: start, none: none}
}

// Card claims id as a card of the given level (-1: any level); an absent id
// (negative, as Reader.List gives for '-') is none.
func (r *CardReader[C]) Card(id, level int) C {
	if id < 0 || id >= int(r.start[len(r.start)-1]) {
		return r.none
	}
	c := C(id)
	if r.seen.Has(c) {
		r.Fail("card %d appears twice", id)
	}
	if level >= 0 && (c < r.start[level] || c >= r.start[level+1]) {
		r.Fail("card %d is not a level %d card", id, level+1)
	}
	r.seen.Add(c)
	return c
}

// Tile claims id, in [0,64), as one of the game's other unique components
// (Splendor's nobles, Duel's royals), refusing a second copy; kind names
// them in the error.
func (r *CardReader[C]) Tile(kind string, id int) {
	if r.tiles&(1<<id) != 0 {
		r.Fail("%s %d appears twice", kind, id)
	}
	r.tiles |= 1 << id
}

// AnyCard claims id as a card of any level.
func (r *CardReader[C]) AnyCard(id int) C { return r.Card(id, -1) }

// Decks reads the decks written by WriteLevels, bottom to top, into each
// level's deck(l), padded with none, and its size.
func (r *CardReader[C]) Decks(v string, sizes []uint8, deck func(l int) []C) {
	for l, row := range r.Levels(v, "decks", len(sizes)) {
		ids := r.List(row, int(r.start[len(r.start)-1]))
		cards := deck(l)
		for i := range cards {
			cards[i] = r.none
		}
		for i, id := range ids {
			if id < 0 || i >= len(cards) {
				r.Fail("deck level %d: bad card list", l+1)
				break
			}
			cards[i] = r.Card(id, l)
		}
		sizes[l] = uint8(min(len(ids), len(cards)))
	}
}

// Parsed is what a game's Parse returns: s, or the zero state and the
// Reader's first error wrapped in bad (the game's ErrNotation).
func Parsed[S any](s S, r *Reader, bad error) (S, error) {
	if err := r.Err(); err != nil {
		var none S
		return none, fmt.Errorf("%w: %v", bad, err)
	}
	return s, nil
}
