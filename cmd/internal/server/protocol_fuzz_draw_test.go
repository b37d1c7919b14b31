package server

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// The fuzzer's choices. A fuzz input is a list of records, one request (or
// one short exchange) each: an op byte, then the bytes the op's parameters
// are drawn from. A parameter byte below hostileByte picks one of the valid
// alternatives; from hostileByte on it picks a hostile one, a value the
// protocol refuses. Once a record's bytes run out every choice is 0, the
// first valid alternative, so a record of one op byte is a plain valid
// request and a mutation rarely turns the rest of the input into noise.

// recordBytes is one record's length: an op byte and its parameter bytes.
const recordBytes = 16

// hostileByte starts the parameter bytes that pick hostile values: 1 in 16.
const hostileByte = 240

// msg is a request or a reply as a msgpack map: requests are built as maps
// rather than wire.Request so that a field can be absent, explicitly nil,
// empty or of the wrong type.
type msg = map[string]any

// draw hands out one record's parameter bytes as choices.
type draw struct{ b []byte }

func (d *draw) byte() byte {
	if len(d.b) == 0 {
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// pick is a valid alternative in [0, n), ignoring hostility.
func (d *draw) pick(n int) int {
	if n <= 1 {
		d.byte()
		return 0
	}
	return int(d.byte()) % n
}

// choose is a valid alternative in [0, valid) or, with bad set, a hostile
// one in [0, hostile).
func (d *draw) choose(valid, hostile int) (k int, bad bool) {
	v := d.byte()
	if v >= hostileByte && hostile > 0 {
		return int(v-hostileByte) % hostile, true
	}
	return int(v) % max(valid, 1), false
}

// seedValue is a seed: small mostly, sometimes at the top of the uint64
// range, where a signed conversion would go wrong.
func (d *draw) seedValue() uint64 {
	v := uint64(d.byte())
	if v >= 200 {
		return math.MaxUint64 - (v - 200)
	}
	return v
}

// rand is a generator seeded from the next two bytes, for tensors of many
// numbers (priors) that bytes cannot spell out one by one.
func (d *draw) rand() *rand.Rand {
	s := uint64(d.byte())<<8 | uint64(d.byte())
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}

// envIDs puts key into m: the envs of an n-env batch a request names
// (ids nil: all of them), absent, nil, every env, a run, reversed or empty;
// hostile lists are refused (out of range, repeated, not integers).
func (d *draw) envIDs(m msg, key string, n int) (ids []int, bad bool) {
	k, bad := d.choose(6, 6)
	if bad {
		m[key] = []any{[]any{n}, []any{-1}, []any{0, 0}, []any{"0"}, 3, []any{nil}}[k]
		return nil, true
	}
	switch k {
	case 1:
		m[key] = nil
	case 2:
		ids = run(0, n)
	case 3:
		start := d.pick(n)
		ids = run(start, start+1+d.pick(n-start))
	case 4:
		for i := n - 1; i >= 0; i-- {
			ids = append(ids, i)
		}
	case 5:
		ids = []int{}
	}
	if ids != nil {
		m[key] = ids
	}
	return ids, false
}

func run(from, to int) []int {
	ids := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		ids = append(ids, i)
	}
	return ids
}

// count is how many envs ids names in an n-env batch.
func count(ids []int, n int) int {
	if ids == nil {
		return n
	}
	return len(ids)
}

// seed puts an optional seed into m; hostile seeds are not uint64s.
func (d *draw) seed(m msg, key string) (bad bool) {
	k, bad := d.choose(2, 3)
	switch {
	case bad:
		m[key] = []any{-1, 1.5, "7"}[k]
	case k == 1:
		m[key] = d.seedValue()
	}
	return bad
}

// seeds puts k seeds into m (or, when optional, sometimes none); hostile
// lists have the wrong length or an element that is not a uint64.
func (d *draw) seeds(m msg, key string, k int, optional bool) (bad bool) {
	alt, bad := d.choose(2, 5)
	if bad {
		list := make([]any, k+1)
		for i := range list {
			list[i] = uint64(i)
		}
		if alt > 0 {
			list = list[:k+1-min(k, 1)]
			list[0] = []any{-1, 2.5, "3", nil}[alt-1]
		}
		m[key] = list
		return true
	}
	if alt == 0 && optional {
		return false
	}
	list := make([]uint64, k)
	for i := range list {
		list[i] = d.seedValue()
	}
	m[key] = list
	return false
}

// seat puts an optional seat of a players-seat table into m, −1 too where
// it means the referee; hostile seats are out of range or not integers.
func (d *draw) seat(m msg, players int, referee bool) (seat *int, bad bool) {
	k, bad := d.choose(players+1, 4)
	if bad {
		m["seat"] = []any{players, -2, "0", 0.5}[k]
		return nil, true
	}
	if k == 0 {
		return nil, false
	}
	s := k - 1
	if referee && d.pick(4) == 0 {
		s = -1
	}
	m["seat"] = s
	return &s, false
}

// tensor is a wire tensor as a map.
func tensor(dtype string, shape []int, data []byte) msg {
	return msg{"dtype": dtype, "shape": shape, "data": data}
}

func float32Bytes(xs []float32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// intBytes encodes actions as dtype (int32, int64 or uint8).
func intBytes(dtype string, xs []int64) []byte {
	size := map[string]int{"int32": 4, "int64": 8, "uint8": 1}[dtype]
	b := make([]byte, size*len(xs))
	for i, x := range xs {
		switch size {
		case 1:
			b[i] = byte(x)
		case 4:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		case 8:
			binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
		}
	}
	return b
}
