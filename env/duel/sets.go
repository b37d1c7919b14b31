package duel

import (
	"math/bits"

	"github.com/splendor-rl/splendor/internal/bitset"
)

// CardSet is a set of cards, bit c for Card c.
type CardSet = bitset.Of[Card]

// RoyalSet is a set of royal cards, bit r for Royal r.
type RoyalSet uint8

// Has reports whether r is in the set.
func (s RoyalSet) Has(r Royal) bool { return s&(1<<r) != 0 }

// Len is the number of royal cards in the set.
func (s RoyalSet) Len() int { return bits.OnesCount8(uint8(s)) }
