package notation

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWritersSpellTheSharedShapes(t *testing.T) {
	var b strings.Builder
	id := func(x int) (int, bool) { return x, x >= 0 }
	WriteList(&b, []int{3, -1, 17}, id)
	b.WriteByte(' ')
	WriteList(&b, []int{}, id)
	b.WriteByte(' ')
	WriteReserved(&b, []uint8{5, 40, 7}, 0b010)
	b.WriteByte(' ')
	WriteReserved(&b, []uint8{}, 0)
	assert.Equal(t, "3.-.17 - 5.*40.7 -", b.String())
	assert.Equal(t, "4405012", Digits([]uint8{4, 4, 0, 5, 0, 1, 2}))
	assert.Equal(t, 1, Bit(true))
	assert.Equal(t, 0, Bit(false))
}

// State.String runs for every traced decision: Digits may allocate only the
// string it returns.
func TestDigitsAllocatesOnlyItsString(t *testing.T) {
	counts := []uint8{1, 2, 3, 4, 5, 6, 7}
	assert.LessOrEqual(t, testing.AllocsPerRun(100, func() { _ = Digits(counts) }), 1.0)
}

func TestReaderReadsWhatTheWritersWrite(t *testing.T) {
	r := NewReader("n=7 on=1 phase=noble bank=4405 ids=3.-.17 rows=1/-/2.3 res=5.*40.7")
	assert.Equal(t, 7, r.Number("n", 0, 9))
	assert.True(t, r.Flag("on"))
	assert.Equal(t, 2, r.Choice("phase", []string{"main", "return", "noble"}))
	counts := make([]uint8, 4)
	r.Counts(r.Field("bank"), counts)
	assert.Equal(t, []uint8{4, 4, 0, 5}, counts)
	assert.Equal(t, []int{3, -1, 17}, r.List(r.Field("ids"), 18))
	assert.Equal(t, []string{"1", "-", "2.3"}, r.Levels(r.Field("rows"), "rows", 3))
	slots := []int{-1, -1, -1}
	n, blind := Reserved(&r, r.Field("res"), 90, slots, func(id int) int { return id * 10 })
	assert.Equal(t, []int{50, 400, 70}, slots)
	assert.Equal(t, uint8(3), n)
	assert.Equal(t, uint8(0b010), blind)
	r.End()
	require.NoError(t, r.Err())
}

func TestReaderRefusesMalformedText(t *testing.T) {
	claim := func(id int) int { return id }
	cases := map[string]struct {
		text string
		read func(r *Reader)
		want string
	}{
		"missing field":   {"", func(r *Reader) { r.Field("seat") }, "missing field seat"},
		"wrong key":       {"turn=1", func(r *Reader) { r.Field("seat") }, `field "turn=1" where seat= was expected`},
		"out of range":    {"seat=4", func(r *Reader) { r.Number("seat", 0, 3) }, "seat=4 is not a number in [0,3]"},
		"not a number":    {"seat=x", func(r *Reader) { r.Number("seat", 0, 3) }, "seat=x is not a number in [0,3]"},
		"flag above 1":    {"final=2", func(r *Reader) { r.Flag("final") }, "final=2 is not a number in [0,1]"},
		"unknown choice":  {"phase=lunch", func(r *Reader) { r.Choice("phase", []string{"main"}) }, `unknown phase "lunch"`},
		"left over":       {"a=1 b=2", func(r *Reader) { r.Field("a"); r.End() }, `unexpected field "b=2"`},
		"short counts":    {"", func(r *Reader) { r.Counts("444", make([]uint8, 6)) }, `tokens "444": want 6 digits`},
		"not a digit":     {"", func(r *Reader) { r.Counts("4x", make([]uint8, 2)) }, `tokens "4x": not a digit`},
		"id out of range": {"", func(r *Reader) { r.List("1.90", 90) }, `"90" is not an id in [0,90)`},
		"two levels":      {"", func(r *Reader) { r.Levels("1/2", "decks", 3) }, "decks: want 3 levels"},
		"four reserved":   {"", func(r *Reader) { Reserved(r, "1.2.3.4", 90, make([]int, 3), claim) }, "more than 3 reserved cards"},
		"empty reserved":  {"", func(r *Reader) { Reserved(r, "1.-", 90, make([]int, 3), claim) }, `reserved card "-"`},
	}
	for name, tc := range cases {
		r := NewReader(tc.text)
		tc.read(&r)
		require.Error(t, r.Err(), name)
		assert.Equal(t, tc.want, r.Err().Error(), name)
	}
}

// Later checks only report consequences of the first mistake; the first
// error is the one worth reading.
func TestReaderKeepsTheFirstError(t *testing.T) {
	r := NewReader("seat=9")
	r.Number("seat", 0, 1)
	r.Field("phase")
	r.Fail("later")
	assert.EqualError(t, r.Err(), "seat=9 is not a number in [0,1]")
}

func TestBadEntriesReadAsAbsent(t *testing.T) {
	r := NewReader("")
	assert.Equal(t, []int{-1, 2}, r.List("x.2", 5))
	assert.Len(t, r.Levels("1/2", "market", 3), 3, "a wrong count still gives every level")
	assert.Nil(t, r.List("-", 5))
}

func TestOptionalFields(t *testing.T) {
	var b strings.Builder
	WriteChoosePayment(&b, true)
	WriteMembers(&b, 0b1010, 1)
	b.WriteByte(' ')
	WriteMembers(&b)
	assert.Equal(t, "payment=choose 1.3.64 -", b.String())
	r := NewReader("payment=choose seat=1 buying=4:01 turn=2")
	assert.True(t, r.Present(ChoosePayment))
	assert.False(t, r.Present(ChoosePayment), "only where it stands")
	assert.Equal(t, "", r.Optional("buying"), "seat= is another field")
	r.Number("seat", 0, 1)
	assert.Equal(t, "4:01", r.Optional("buying"))
	assert.Equal(t, 2, r.Number("turn", 0, 9))
	assert.Equal(t, "", r.Optional("buying"), "no field left")
	r.End()
	require.NoError(t, r.Err())
}

func TestCardReaderClaimsEachCardOnce(t *testing.T) {
	start := []uint8{0, 3, 5} // level 1: cards 0–2, level 2: cards 3–4
	r := NewCardReader("", start, 0xff)
	deck := make([]uint8, 3)
	sizes := []uint8{0, 0}
	r.Decks("2.0/-", sizes[:], func(l int) []uint8 {
		if l == 0 {
			return deck
		}
		return nil
	})
	assert.Equal(t, []uint8{2, 0, 0xff}, deck)
	assert.Equal(t, []uint8{2, 0}, sizes)
	assert.Equal(t, uint8(4), r.Card(4, 1))
	assert.Equal(t, uint8(0xff), r.AnyCard(-1), "an absent id")
	require.NoError(t, r.Err())
	r.AnyCard(2)
	assert.EqualError(t, r.Err(), "card 2 appears twice")
	r = NewCardReader("", start, 0xff)
	r.Card(1, 1)
	assert.EqualError(t, r.Err(), "card 1 is not a level 2 card")
	_, err := Parsed(7, &r.Reader, errors.New("bad"))
	assert.EqualError(t, err, "bad: card 1 is not a level 2 card")
}

// Tiles are claimed apart from cards: tile 2 and card 2 are different
// components, but a second tile 2 is refused.
func TestCardReaderClaimsEachTileOnce(t *testing.T) {
	r := NewCardReader("", []uint8{0, 3}, 0xff)
	r.AnyCard(2)
	r.Tile("noble", 2)
	r.Tile("noble", 63)
	require.NoError(t, r.Err())
	r.Tile("noble", 2)
	assert.EqualError(t, r.Err(), "noble 2 appears twice")
}
