package splendor

import "math/bits"

// CardSet is a set of cards, bit c for Card c.
type CardSet [2]uint64

// Add puts c in the set.
func (s *CardSet) Add(c Card) { s[c>>6] |= 1 << (c & 63) }

// Has reports whether c is in the set.
func (s *CardSet) Has(c Card) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Len is the number of cards in the set.
func (s *CardSet) Len() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// NobleSet is a set of noble tiles, bit n for Noble n.
type NobleSet uint16

// Has reports whether n is in the set.
func (s NobleSet) Has(n Noble) bool { return s&(1<<n) != 0 }

// Len is the number of nobles in the set.
func (s NobleSet) Len() int { return bits.OnesCount16(uint16(s)) }
