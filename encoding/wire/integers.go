package wire

import "math"

// The msgpack decoder reads any integer into any integer field, wrapping
// what the field cannot hold: id −1 became 2^64 − 1, which the reply
// echoed, and num_envs 2^64 − 1 became −1. checkIntegers refuses such a
// value first, naming it as the client sent it.

// integerFields are the request's integer fields, true for the unsigned
// ones (uint64: no negative value fits), false for the ints (no value past
// 2^63 − 1 fits). A test keeps them equal to Request's fields.
var integerFields = map[string]bool{"id": true, "handle": true, "num_envs": false, "seat": false, "part": false}

// tensorFields are the request's tensors, whose shapes are ints.
var tensorFields = map[string]bool{"actions": true, "priors": true, "legal_priors": true, "values": true}

// checkIntegers returns the first field of the request map frame (which
// scan has let through) whose integer its Go field would wrap, with the
// refusal; "" and nil if there is none. Anything else that is wrong is
// left to the decoder, which names it.
func checkIntegers(frame []byte) (field string, werr *Error) {
	werr = eachEntry(frame, func(key string, value []byte) *Error {
		field = key
		if unsigned, isInt := integerFields[key]; isInt {
			return checkInt(key, integerAt(value), unsigned)
		}
		if !tensorFields[key] {
			return nil
		}
		return eachEntry(value, func(tensorKey string, value []byte) *Error {
			if tensorKey != "shape" {
				return nil
			}
			return eachItem(value, func(item []byte) *Error { return checkInt(key+" shape", integerAt(item), false) })
		})
	})
	if werr == nil {
		field = ""
	}
	return field, werr
}

// eachEntry calls f with each key of the map b starts with and the bytes
// from its value on, until f refuses one. It stops at a key that is not a
// string, and does nothing if b starts no map: the decoder reports those.
func eachEntry(b []byte, f func(key string, value []byte) *Error) *Error {
	n, b, ok := header(b, 0x80, 0xde)
	for i := 0; ok && i < n; i++ {
		var key []byte
		if key, b, ok = text(b); !ok {
			break
		}
		if werr := f(string(key), b); werr != nil {
			return werr
		}
		b = skipValue(b)
	}
	return nil
}

// eachItem calls f with the bytes from each item of the array b starts
// with on, until f refuses one; it does nothing if b starts no array.
func eachItem(b []byte, f func(item []byte) *Error) *Error {
	n, b, ok := header(b, 0x90, 0xdc)
	for i := 0; ok && i < n; i++ {
		if werr := f(b); werr != nil {
			return werr
		}
		b = skipValue(b)
	}
	return nil
}

// checkInt refuses v (an int64, a uint64, or nil for another value) where
// the field cannot hold it.
func checkInt(field string, v any, unsigned bool) *Error {
	switch n := v.(type) {
	case int64:
		if unsigned && n < 0 {
			return Errorf(CodeBadRequest, "%s %d is negative: it is unsigned, in [0, 2^64)", field, n)
		}
	case uint64:
		if !unsigned && n > math.MaxInt64 {
			return Errorf(CodeBadRequest, "%s %d is out of range: past 2^63 - 1", field, n)
		}
	}
	return nil
}

// integerAt is the integer b starts with as sent: an int64 for a signed
// encoding (fixint included), a uint64 for an unsigned one, nil for any
// other value.
func integerAt(b []byte) any {
	code, rest := b[0], b[1:]
	switch {
	case code <= 0x7f:
		return int64(code)
	case code >= 0xe0:
		return int64(int8(code))
	case code >= 0xcc && code <= 0xcf:
		return bigEndian(rest, 1<<(code-0xcc))
	case code >= 0xd0 && code <= 0xd3:
		width := 1 << (code - 0xd0)
		shift := 64 - 8*width
		return int64(bigEndian(rest, width)<<shift) >> shift // sign-extended
	}
	return nil
}

// bigEndian reads width bytes, which scan has found present.
func bigEndian(b []byte, width int) uint64 {
	var v uint64
	for _, x := range b[:width] {
		v = v<<8 | uint64(x)
	}
	return v
}

// header reads the entry count of a map (fix 0x80, wide 0xde) or an array
// (0x90, 0xdc) in its fix, 16- or 32-bit form; ok is false for another value.
func header(b []byte, fix, wide byte) (n int, rest []byte, ok bool) {
	switch code := b[0]; {
	case code >= fix && code <= fix+0x0f:
		return int(code & 0x0f), b[1:], true
	case code == wide || code == wide+1:
		n, rest, err := count(b[1:], 2<<(code-wide))
		return n, rest, err == nil
	}
	return 0, nil, false
}

// text reads a str or a bin, which the decoder takes for a string too.
func text(b []byte) (s, rest []byte, ok bool) {
	code, b := b[0], b[1:]
	n, width := int(code&0x1f), 0
	switch {
	case code >= 0xa0 && code <= 0xbf:
	case code >= 0xd9 && code <= 0xdb:
		width = 1 << (code - 0xd9)
	case code >= 0xc4 && code <= 0xc6:
		width = 1 << (code - 0xc4)
	default:
		return nil, nil, false
	}
	if width > 0 {
		var err error
		if n, b, err = count(b, width); err != nil {
			return nil, nil, false
		}
	}
	if n > len(b) {
		return nil, nil, false
	}
	return b[:n], b[n:], true
}

// skipValue is what follows the value b starts with.
func skipValue(b []byte) []byte {
	s := scanner{items: math.MaxInt}
	rest, _ := s.value(b, 0)
	return rest
}
