// Package bitset holds the word arithmetic behind the engines' fixed-size
// sets (action masks, card sets): bit i of a set is bit i&63 of word i>>6.
// Each engine keeps its own array type, sized for its action space or its
// cards, and its methods pass the array as a slice; these functions are
// small enough to be inlined there, so the hot path pays no call.
package bitset

import "math/bits"

// Add puts i in the set.
func Add(words []uint64, i int) { words[i>>6] |= 1 << (i & 63) }

// Has reports whether i is in the set.
func Has(words []uint64, i int) bool { return words[i>>6]&(1<<(i&63)) != 0 }

// Len is the number of members.
func Len(words []uint64) int {
	n := 0
	for _, w := range words {
		n += bits.OnesCount64(w)
	}
	return n
}

// Nth returns the k-th smallest member (k from 0), or -1 when there are k
// or fewer.
func Nth(words []uint64, k int) int {
	for w, word := range words {
		if n := bits.OnesCount64(word); k >= n {
			k -= n
			continue
		}
		for ; k > 0; k-- {
			word &= word - 1
		}
		return w<<6 + bits.TrailingZeros64(word)
	}
	return -1
}
