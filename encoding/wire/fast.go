package wire

import "math"

// Step requests come thousands of times a second; the reflective decoder
// allocates the op, the tensor, its shape and a copy of its data for each.
// decodeStep reads the one plain form of a step, {id, op: "step", handle,
// actions: {dtype, shape: [n], data: bin}} in any key order, without
// allocating: the action data stays a view of the frame, valid while the
// frame is. Anything else is left to the full decoder, which also gives
// every error its message.

// decodeStep fills req from frame and reports whether it could.
func (c *Codec) decodeStep(frame []byte, req *Request) bool {
	r := frameReader{b: frame, ok: true}
	if r.mapLen() != 4 {
		return false
	}
	var seen uint8
	for range 4 {
		bit, ok := c.stepField(&r, req)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	return r.ok && len(r.b) == 0 && req.Op == OpStep
}

// stepField reads one key and its value; bit names the key.
func (c *Codec) stepField(r *frameReader, req *Request) (bit uint8, ok bool) {
	switch string(r.str()) {
	case "id":
		req.ID = r.uint()
		return 1, r.ok
	case "op":
		if string(r.str()) == OpStep {
			req.Op = OpStep
		}
		return 2, r.ok
	case "handle":
		req.Handle = r.uint()
		return 4, r.ok
	case "actions":
		req.Actions = &c.actions
		return 8, c.readTensor(r)
	}
	return 0, false
}

// readTensor reads {dtype, shape: [n], data} into c.actions.
func (c *Codec) readTensor(r *frameReader) bool {
	if r.mapLen() != 3 {
		return false
	}
	t := &c.actions
	*t = Tensor{}
	for range 3 {
		switch string(r.str()) {
		case "dtype":
			t.Dtype = knownDtype(r.str())
		case "shape":
			if r.arrayLen() != 1 {
				return false
			}
			n := r.uint()
			if n > math.MaxInt64 { // an int would wrap it: the full decoder refuses it
				return false
			}
			c.shape[0] = int(n)
			t.Shape = c.shape[:]
		case "data":
			t.Data = r.bin()
		default:
			return false
		}
	}
	return r.ok && t.Dtype != "" && t.Shape != nil && t.Data != nil
}

// knownDtype returns the constant naming b, or "" for any other.
func knownDtype(b []byte) string {
	for _, d := range []string{Int32, Int64, Uint8} {
		if string(b) == d {
			return d
		}
	}
	return ""
}

// frameReader reads msgpack values from the front of b; any surprise sets
// ok to false (and every later read returns zeros).
type frameReader struct {
	b  []byte
	ok bool
}

func (r *frameReader) take(n int) []byte {
	if !r.ok || n > len(r.b) {
		r.fail()
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *frameReader) fail() { r.ok, r.b = false, nil }

func (r *frameReader) byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

// mapLen reads a fixmap header.
func (r *frameReader) mapLen() int { return r.fixLen(0x80) }

// arrayLen reads a fixarray header.
func (r *frameReader) arrayLen() int { return r.fixLen(0x90) }

// fixLen reads the header of a fixmap or fixarray, whose codes run from
// first to first+15 with the length in the low bits.
func (r *frameReader) fixLen(first byte) int {
	code := r.byte()
	if code < first || code > first+0x0f {
		r.fail()
		return -1
	}
	return int(code & 0x0f)
}

// str reads a fixstr or str8.
func (r *frameReader) str() []byte {
	code := r.byte()
	switch {
	case code >= 0xa0 && code <= 0xbf:
		return r.take(int(code & 0x1f))
	case code == 0xd9:
		return r.take(int(r.byte()))
	}
	r.fail()
	return nil
}

// uint reads a non-negative integer of any msgpack width.
func (r *frameReader) uint() uint64 {
	code := r.byte()
	switch {
	case code <= 0x7f:
		return uint64(code)
	case code >= 0xcc && code <= 0xcf:
		return r.bigEndian(1 << (code - 0xcc))
	case code >= 0xd0 && code <= 0xd3:
		v := r.bigEndian(1 << (code - 0xd0))
		width := 8 << (code - 0xd0)
		if v>>(width-1)&1 == 0 { // non-negative
			return v
		}
	}
	r.fail()
	return 0
}

func (r *frameReader) bigEndian(n int) uint64 {
	b := r.take(n)
	if b == nil {
		return 0
	}
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}

// bin reads bin8, bin16 or bin32.
func (r *frameReader) bin() []byte {
	code := r.byte()
	if code < 0xc4 || code > 0xc6 {
		r.fail()
		return nil
	}
	n := r.bigEndian(1 << (code - 0xc4))
	if n > math.MaxInt32 {
		r.fail()
		return nil
	}
	return r.take(int(n))
}
