package duel

import "bytes"

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

func (g Gem) String() string {
	if int(g) < len(gemNames) {
		return gemNames[g]
	}
	return "none"
}

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
	n := 0
	for _, c := range t {
		n += int(c)
	}
	return n
}

// kinds is the set of non-gold kinds with at least one token, bit g for Gem g.
func (t *Tokens) kinds() uint8 {
	var set uint8
	for g := White; g <= Pearl; g++ {
		if t[g] > 0 {
			set |= 1 << g
		}
	}
	return set
}
