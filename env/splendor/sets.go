package splendor

import (
	"math/bits"

	"github.com/splendor-rl/splendor/internal/bitset"
)

// CardSet is a set of cards, bit c for Card c.
type CardSet = bitset.Of[Card]

// NobleSet is a set of noble tiles, bit n for Noble n.
type NobleSet uint16

// Has reports whether n is in the set.
func (s NobleSet) Has(n Noble) bool { return s&(1<<n) != 0 }

// Len is the number of nobles in the set.
func (s NobleSet) Len() int { return bits.OnesCount16(uint16(s)) }
