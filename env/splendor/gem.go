package splendor

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/splendor-rl/splendor/internal/notation"
)

// Gem is a token colour. The five gem colours index bonus and cost arrays;
// Gold only ever appears as a token.
type Gem uint8

const (
	White Gem = iota // diamond
	Blue             // sapphire
	Green            // emerald
	Red              // ruby
	Black            // onyx
	Gold             // joker
)

// NumColours is the number of gem colours (gold excluded); NumTokenKinds
// includes gold.
const (
	NumColours    = 5
	NumTokenKinds = 6
)

var gemNames = [NumTokenKinds]string{"white", "blue", "green", "red", "black", "gold"}

func (g Gem) String() string { return notation.Name(gemNames[:], int(g), "gem?") }

// gemByName is the inverse of String, for the notation and action labels.
func gemByName(name string) (Gem, bool) {
	if g := slices.Index(gemNames[:], name); g >= 0 {
		return Gem(g), true
	}
	return 0, false
}

// GemSet is a set of gem colours, bit g for Gem g.
type GemSet uint8

// Has reports whether g is in the set.
func (s GemSet) Has(g Gem) bool { return s&(1<<g) != 0 }

// Len is the number of colours in the set.
func (s GemSet) Len() int { return bits.OnesCount8(uint8(s)) }

// names spells the colours of s, white first.
func (s GemSet) names() string {
	var names []string
	for g := White; g <= Black; g++ {
		if s.Has(g) {
			names = append(names, g.String())
		}
	}
	return strings.Join(names, " ")
}

// Tokens counts tokens per kind: five colours then gold.
type Tokens [NumTokenKinds]uint8

// Total is the number of tokens, gold included (the 10-token limit counts it).
func (t *Tokens) Total() int {
	return int(t[0]) + int(t[1]) + int(t[2]) + int(t[3]) + int(t[4]) + int(t[5])
}
