package duel

import "github.com/splendor-rl/splendor/internal/bitset"

// CardSet is a set of cards, bit c for Card c.
type CardSet = bitset.Of[Card]

// RoyalSet is a set of royal cards, bit r for Royal r.
type RoyalSet = bitset.Small[Royal]
