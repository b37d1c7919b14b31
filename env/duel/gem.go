package duel

import (
	"bytes"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/notation"
)

// Gem is a token kind. The five gem colours index bonus and cost arrays;
// Pearl has a cost column but no bonus; Gold only ever appears as a token.
type Gem uint8

const (
	White Gem = iota // diamond
	Blue             // sapphire
	Green            // emerald
	Red              // ruby
	Black            // onyx
	Pearl
	Gold
)

// NoGem marks an empty board cell and a joker card whose colour is not
// chosen yet.
const NoGem Gem = 0xff

// NumColours is the number of gem colours; NumCostKinds adds the pearl (the
// columns of a card's cost); NumTokenKinds adds gold.
const (
	NumColours    = 5
	NumCostKinds  = 6
	NumTokenKinds = 7
)

var (
	gemNames = [NumTokenKinds]string{"white", "blue", "green", "red", "black", "pearl", "gold"}
	// gemLetters spell board cells and joker colours in the text notation.
	gemLetters = [NumTokenKinds]byte{'w', 'b', 'g', 'r', 'k', 'p', 'o'}
)

func (g Gem) String() string { return notation.Name(gemNames[:], int(g), "none") }

// gemByLetter is the inverse of gemLetters.
func gemByLetter(c byte) (Gem, bool) {
	if g := bytes.IndexByte(gemLetters[:], c); g >= 0 {
		return Gem(g), true
	}
	return NoGem, false
}

// Tokens counts tokens per kind: five colours, pearl, gold.
type Tokens [NumTokenKinds]uint8

// Supply is the box's token count per kind: 4 of each colour, 2 pearls, 3 gold.
var Supply = Tokens{4, 4, 4, 4, 4, 2, 3}

// NumTokens is the number of tokens in the box.
const NumTokens = 25

// Total is the number of tokens, gold included (the 10-token limit counts it).
func (t *Tokens) Total() int {
	return int(t[0]) + int(t[1]) + int(t[2]) + int(t[3]) + int(t[4]) + int(t[5]) + int(t[6])
}

// kinds is the set of non-gold kinds with at least one token, bit g for Gem g.
func (t *Tokens) kinds() uint32 { return bitset.Nonzero(t[:Gold]) }

// packed is t one byte per kind, white in the low byte. The counts are
// small (the box holds 25 tokens), so that sums and tests over all kinds
// become word operations.
func (t *Tokens) packed() uint64 {
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48
}

// unpackTokens is the inverse of packed.
func unpackTokens(w uint64) Tokens {
	return Tokens{uint8(w), uint8(w >> 8), uint8(w >> 16), uint8(w >> 24),
		uint8(w >> 32), uint8(w >> 40), uint8(w >> 48)}
}

// held is the set of kinds, gold included, of which t has a token, bit g
// for Gem g.
func (t *Tokens) held() uint32 { return nonzeroBytes(t.packed()) }
