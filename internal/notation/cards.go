package notation

import "github.com/splendor-rl/splendor/internal/bitset"

// Cards claims the card ids a parser reads, refusing a second copy of a
// card and a card out of its level's place. The cards of level l are the
// ids from Start[l] up to Start[l+1]; None marks an empty slot.
type Cards[C ~uint8] struct {
	Start []C
	None  C
	seen  bitset.Of[C]
}

// Claim claims id as a card of the given level (-1: any level); an absent
// id (negative, as Reader.List gives for '-') is None.
func (cs *Cards[C]) Claim(r *Reader, id, level int) C {
	if id < 0 || id >= int(cs.Start[len(cs.Start)-1]) {
		return cs.None
	}
	c := C(id)
	if cs.seen.Has(c) {
		r.Fail("card %d appears twice", id)
	}
	if level >= 0 && (c < cs.Start[level] || c >= cs.Start[level+1]) {
		r.Fail("card %d is not a level %d card", id, level+1)
	}
	cs.seen.Add(c)
	return c
}

// Decks reads the decks written by WriteLevels, bottom to top, into each
// level's deck(l), padded with None, and its size.
func (cs *Cards[C]) Decks(r *Reader, v string, sizes []uint8, deck func(l int) []C) {
	for l, row := range r.Levels(v, "decks", len(sizes)) {
		ids := r.List(row, int(cs.Start[len(cs.Start)-1]))
		cards := deck(l)
		for i := range cards {
			cards[i] = cs.None
		}
		for i, id := range ids {
			if id < 0 || i >= len(cards) {
				r.Fail("deck level %d: bad card list", l+1)
				break
			}
			cards[i] = cs.Claim(r, id, l)
		}
		sizes[l] = uint8(min(len(ids), len(cards)))
	}
}
