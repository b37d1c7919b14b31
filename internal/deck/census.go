package deck

import (
	"fmt"

	"github.com/splendor-rl/splendor/internal/bitset"
)

// Census counts the places each card of a box of N cards is found in, for
// an engine's Check: every card must be in exactly one.
type Census[C ~uint8] struct {
	N    C
	seen [256]uint8
	err  error
}

// Add counts cards, refusing ids outside the box.
func (cs *Census[C]) Add(cards ...C) {
	for _, c := range cards {
		if c >= cs.N && cs.err == nil {
			cs.err = fmt.Errorf("card %d is not in the box", c)
		}
		cs.seen[c]++
	}
}

// AddSet counts the members of set and reports whether all are in the box.
func (cs *Census[C]) AddSet(set *bitset.Of[C]) bool {
	n := 0
	for c := C(0); c < cs.N; c++ {
		if set.Has(c) {
			cs.seen[c]++
			n++
		}
	}
	return n == set.Len()
}

// Err is the first card out of the box, missing or found more than once;
// nil when every card is in exactly one place.
func (cs *Census[C]) Err() error {
	if cs.err != nil {
		return cs.err
	}
	for c, n := range cs.seen[:cs.N] {
		switch {
		case n == 0:
			return fmt.Errorf("card %d is missing", c)
		case n > 1:
			return fmt.Errorf("card %d appears %s", c, Times(int(n)))
		}
	}
	return nil
}

// Times spells a count of places: "twice", "3 times".
func Times(n int) string {
	if n == 2 {
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
