// Package deck holds what the rules engines do alike with their cards: a
// level's deck shuffled and drawn from the top, reserved cards in hand with
// the blind ones marked, and the redeal of what a seat cannot see. Cards
// are small ids of an engine's type C, none marking an empty slot; a
// level's cards are the ids from its first card up to the next level's.
package deck

import "github.com/splendor-rl/splendor/internal/rng"

// Deal fills cards with the ids first, first+1, … up to n of them, shuffled
// by r, and none past them; it returns the deck's size.
func Deal[C ~uint8](cards []C, first C, n int, none C, r *rng.Rand) uint8 {
	for i := range cards {
		cards[i] = none
		if i < n {
			cards[i] = first + C(i)
		}
	}
	rng.Shuffle(r, cards[:n])
	return uint8(n)
}

// Draw takes the top card of a deck of *size cards, or none when it is
// empty.
func Draw[C ~uint8](cards []C, size *uint8, none C) C {
	n := *size
	if n == 0 {
		return none
	}
	n--
	c := cards[n]
	cards[n] = none
	*size = n
	return c
}

// Unreserve removes slot r of a hand of *n reserved cards, keeping the
// others in order and their blind marks (bit i for slot i) with them, and
// returns the card it held.
func Unreserve[C ~uint8](reserved []C, n, blind *uint8, r uint8, none C) C {
	c := reserved[r]
	copy(reserved[r:], reserved[r+1:])
	*n--
	reserved[*n] = none
	low := *blind & (1<<r - 1)
	*blind = low | (*blind>>(r+1))<<r
	return c
}

// Blind walks the blind-reserved cards of a hand whose ids lie in [lo, hi)
// (one level's), from hidden[n] on: reading them into hidden, or writing
// hidden back into them. It returns the n past them. A redeal reads every
// hand a seat cannot see, shuffles, and writes them back in the same order.
func Blind[C ~uint8](reserved []C, blind uint8, lo, hi C, hidden []C, n int, write bool) int {
	for k, c := range reserved {
		if blind&(1<<k) == 0 || c < lo || c >= hi {
			continue
		}
		if write {
			reserved[k] = hidden[n]
		} else {
			hidden[n] = c
		}
		n++
	}
	return n
}
