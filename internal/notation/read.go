// Package notation holds the building blocks that the rules engines'
// one-line text notations (env/splendor, env/duel) have in common: ordered
// key=value fields, '.'-separated id lists with '-' for an absent entry,
// token counts as digit strings and reserved cards marked '*' when blind.
// What a field means stays with each game; this package only spells and
// reads the shared shapes, so that both games write them the same way.
package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Reader consumes the fields of a notation in their fixed order. It keeps
// only the first error: once the text is known to be bad, later checks would
// only report consequences of the first mistake. A game's parser embeds a
// Reader and reads its own fields with it.
type Reader struct {
	fields []string
	err    error
}

// NewReader splits text into its space-separated fields.
func NewReader(text string) Reader { return Reader{fields: strings.Fields(text)} }

// Err is the first error met, nil while the text is well formed.
func (r *Reader) Err() error { return r.err }

// Fail records an error unless an earlier one is already recorded.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// Field returns the value of the next field, which must be named key.
func (r *Reader) Field(key string) string {
	if len(r.fields) == 0 {
		r.Fail("missing field %s", key)
		return ""
	}
	f := r.fields[0]
	r.fields = r.fields[1:]
	v, ok := strings.CutPrefix(f, key+"=")
	if !ok {
		r.Fail("field %q where %s= was expected", f, key)
	}
	return v
}

// Present consumes the next field when it is exactly field, and reports
// whether it was there: a field a text may leave out, such as
// ChoosePayment.
func (r *Reader) Present(field string) bool {
	if len(r.fields) == 0 || r.fields[0] != field {
		return false
	}
	r.fields = r.fields[1:]
	return true
}

// Optional consumes the next field when it is named key and returns its
// value; it returns "" when the next field is another one (or the value is
// empty): a field a text may leave out.
func (r *Reader) Optional(key string) string {
	if len(r.fields) == 0 {
		return ""
	}
	v, ok := strings.CutPrefix(r.fields[0], key+"=")
	if !ok {
		return ""
	}
	r.fields = r.fields[1:]
	return v
}

// Number reads the next field, named key, as an integer in [lo,hi].
func (r *Reader) Number(key string, lo, hi int) int {
	v := r.Field(key)
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		r.Fail("%s=%s is not a number in [%d,%d]", key, v, lo, hi)
	}
	return n
}

// Flag reads the next field, named key, as 0 or 1 (see Bit).
func (r *Reader) Flag(key string) bool { return r.Number(key, 0, 1) == 1 }

// Choice reads the next field, named key, as one of names and returns its
// index (0 when it is none of them).
func (r *Reader) Choice(key string, names []string) int {
	v := r.Field(key)
	i := slices.Index(names, v)
	if i < 0 {
		r.Fail("unknown %s %q", key, v)
		return 0
	}
	return i
}

// End refuses fields left over after the last one the game reads.
func (r *Reader) End() {
	if len(r.fields) > 0 {
		r.Fail("unexpected field %q", r.fields[0])
	}
}

// Counts reads token counts written by Digits into counts, one digit per
// kind.
func (r *Reader) Counts(v string, counts []uint8) {
	if len(v) != len(counts) {
		r.Fail("tokens %q: want %d digits", v, len(counts))
		return
	}
	for i := range counts {
		if v[i] < '0' || v[i] > '9' {
			r.Fail("tokens %q: not a digit", v)
		}
		counts[i] = v[i] - '0'
	}
}

// List splits a '.'-separated list of ids in [0,limit); '-' stands for an
// absent entry (-1) or, alone, for the empty list.
func (r *Reader) List(v string, limit int) []int {
	if v == "-" {
		return nil
	}
	parts := strings.Split(v, ".")
	ids := make([]int, len(parts))
	for i, part := range parts {
		ids[i] = -1
		if part == "-" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || n >= limit {
			r.Fail("%q is not an id in [0,%d)", part, limit)
			continue
		}
		ids[i] = n
	}
	return ids
}

// Levels splits the value of field key into its n '/'-separated card
// levels. On a wrong count it returns n empty levels, so that the caller's
// loop still sets up every level.
func (r *Reader) Levels(v, key string, n int) []string {
	rows := strings.Split(v, "/")
	if len(rows) != n {
		r.Fail("%s: want %d levels", key, n)
		return make([]string, n)
	}
	return rows
}

// Reserved reads a seat's reserved cards, written by WriteReserved: ids in
// [0,limit), at most len(slots). claim turns each id into the card stored in
// its slot, in order, so that the game can refuse a card seen twice. It
// returns the number of cards read and the blind marks, bit i for slots[i];
// it stops at the first bad card. (A function, not a method: methods cannot
// be generic.)
func Reserved[T any](r *Reader, v string, limit int, slots []T, claim func(id int) T) (n, blind uint8) {
	if v == "-" {
		return 0, 0
	}
	for i, part := range strings.Split(v, ".") {
		if i >= len(slots) {
			r.Fail("more than %d reserved cards", len(slots))
			break
		}
		id, marked := strings.CutPrefix(part, "*")
		ids := r.List(id, limit)
		if len(ids) != 1 || ids[0] < 0 {
			r.Fail("reserved card %q", part)
			break
		}
		slots[i] = claim(ids[0])
		if marked {
			blind |= 1 << i
		}
		n++
	}
	return n, blind
}
