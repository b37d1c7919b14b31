package notation

import (
	"math/bits"
	"strconv"
	"strings"
)

// ChoosePayment is the field that opens the text of a game with the
// payment choice, in both games; a standard game's text has no such field,
// so it reads as it did before the choice existed.
const ChoosePayment = "payment=choose"

// WriteChoosePayment opens a text with ChoosePayment when choose is set.
func WriteChoosePayment(b *strings.Builder, choose bool) {
	if choose {
		b.WriteString(ChoosePayment + " ")
	}
}

// WriteList writes ids joined by '.', '-' for an absent one (id reports
// false) or an empty list; Reader.List reads it back.
func WriteList[T any](b *strings.Builder, xs []T, id func(T) (int, bool)) {
	if len(xs) == 0 {
		b.WriteByte('-')
	}
	for i, x := range xs {
		if i > 0 {
			b.WriteByte('.')
		}
		if v, ok := id(x); ok {
			b.WriteString(strconv.Itoa(v))
		} else {
			b.WriteByte('-')
		}
	}
}

// WriteMembers writes the members of a set of ids, bit i of words[i/64] for
// id i, in increasing order as WriteList does: joined by '.', '-' when there
// are none.
func WriteMembers(b *strings.Builder, words ...uint64) {
	n := 0
	for w, word := range words {
		for ; word != 0; word &= word - 1 {
			if n > 0 {
				b.WriteByte('.')
			}
			n++
			b.WriteString(strconv.Itoa(w<<6 + bits.TrailingZeros64(word)))
		}
	}
	if n == 0 {
		b.WriteByte('-')
	}
}

// WriteReserved writes reserved card ids joined by '.', each preceded by '*'
// when its bit in blind is set, '-' when there are none; Reader.Reserved
// reads it back.
func WriteReserved[T ~uint8](b *strings.Builder, ids []T, blind uint8) {
	if len(ids) == 0 {
		b.WriteByte('-')
	}
	for i, id := range ids {
		if i > 0 {
			b.WriteByte('.')
		}
		if blind&(1<<i) != 0 {
			b.WriteByte('*')
		}
		b.WriteString(strconv.Itoa(int(id)))
	}
}

// Digits spells token counts, one digit per kind (no pile reaches 10).
func Digits(counts []uint8) string {
	var buf [16]byte // room for every game's kinds, so no allocation but the string
	d := buf[:0]
	for _, n := range counts {
		d = append(d, '0'+n)
	}
	return string(d)
}

// Bit is how a flag is written: 1 for true, 0 for false.
func Bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// WriteLevels writes " key=" and the n card levels' lists joined by '/'
// (a market, a pyramid, the decks); Cards.Levels reads them back.
func WriteLevels[T any](b *strings.Builder, key string, n int, level func(l int) []T, id func(T) (int, bool)) {
	b.WriteString(" " + key + "=")
	for l := 0; l < n; l++ {
		if l > 0 {
			b.WriteByte('/')
		}
		WriteList(b, level(l), id)
	}
}

// Name is names[i], or unknown past them: how a game's small enumerations
// (gems, phases, abilities) spell themselves.
func Name(names []string, i int, unknown string) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return unknown
}
