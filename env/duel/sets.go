package duel

import (
	"math/bits"

	"github.com/splendor-rl/splendor/internal/bitset"
)

// CardSet is a set of cards, bit c for Card c.
type CardSet [2]uint64

// Add puts c in the set.
func (s *CardSet) Add(c Card) { bitset.Add(s[:], int(c)) }

// Has reports whether c is in the set.
func (s *CardSet) Has(c Card) bool { return bitset.Has(s[:], int(c)) }

// Len is the number of cards in the set.
func (s *CardSet) Len() int { return bitset.Len(s[:]) }

// RoyalSet is a set of royal cards, bit r for Royal r.
type RoyalSet uint8

// Has reports whether r is in the set.
func (s RoyalSet) Has(r Royal) bool { return s&(1<<r) != 0 }

// Len is the number of royal cards in the set.
func (s RoyalSet) Len() int { return bits.OnesCount8(uint8(s)) }

// onlyMember returns the single element of a non-empty bit set, and whether
// it is the only one: choices with a single option need no decision.
func onlyMember(set uint32) (int, bool) {
	return bits.TrailingZeros32(set), set&(set-1) == 0
}
