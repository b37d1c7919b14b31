// Package quote writes a client's value into an error message without
// echoing all of it: a megabyte string or a list of a million items must
// not come back as a megabyte error reply, nor be formatted in full first.
package quote

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is about how many bytes of a value a message quotes.
const Max = 40

// Value renders v in at most about Max bytes (plus a note of what was left
// out): scalars as %v, strings quoted, lists and maps by their first items.
func Value(v any) string {
	var b strings.Builder
	write(&b, v)
	return b.String()
}

func write(b *strings.Builder, v any) {
	switch x := v.(type) {
	case string:
		b.WriteString(String(x))
	case []any:
		list(b, x)
	case map[string]any:
		fmt.Fprintf(b, "a map of %d entries", len(x))
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		fmt.Fprint(b, x)
	default:
		fmt.Fprintf(b, "a value of type %T", x)
	}
}

// list writes the first items that fit, then how many there were.
func list(b *strings.Builder, items []any) {
	start := b.Len()
	b.WriteByte('[')
	for i, item := range items {
		if b.Len()-start > Max {
			fmt.Fprintf(b, " … %d items]", len(items))
			return
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		write(b, item)
	}
	b.WriteByte(']')
}

// String quotes s, cut to about Max bytes on a rune boundary.
func String(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// Strings quotes the first few of names, then says how many there were.
func Strings(names []string) string {
	items := make([]any, len(names))
	for i, n := range names {
		items[i] = n
	}
	return Value(items)
}
