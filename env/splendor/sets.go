package splendor

import "github.com/splendor-rl/splendor/internal/bitset"

// CardSet is a set of cards, bit c for Card c.
type CardSet = bitset.Of[Card]

// NobleSet is a set of noble tiles, bit n for Noble n.
type NobleSet = bitset.Small[Noble]
