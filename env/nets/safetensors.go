package nets

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
)

// maxHeader bounds the JSON header as safetensors itself does: a longer one
// means the file is something else (a torch pickle's zip magic read as a
// length, say), refused before the length is trusted any further.
const maxHeader = 100_000_000

// header is a safetensors header: string metadata, and each tensor's entry
// still as JSON (decoded by decodeTensors, which knows the data).
type header struct {
	meta    map[string]string
	entries map[string]json.RawMessage
}

// entry is one tensor's description in the header.
type entry struct {
	Dtype   string  `json:"dtype"`
	Shape   []int   `json:"shape"`
	Offsets []int64 `json:"data_offsets"` // [begin, end) in the data
}

// tensor is a decoded float32 tensor, row-major.
type tensor struct {
	shape  []int
	values []float32
}

// span is the bytes of the data a tensor claims.
type span struct {
	name       string
	begin, end int64
}

// readHeader splits a file into its header and its data: 8 bytes of header
// length N (little-endian), N bytes of JSON, then the data.
func readHeader(b []byte) (header, []byte, error) {
	var h header
	if len(b) < 8 {
		return h, nil, fmt.Errorf("truncated: %d bytes, too few for the 8-byte header length", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > maxHeader {
		return h, nil, fmt.Errorf("header length %d is absurd (over %d): not a safetensors file", n, maxHeader)
	}
	if n > uint64(len(b)-8) {
		return h, nil, fmt.Errorf("truncated: header says %d bytes, only %d follow its length", n, len(b)-8)
	}
	if err := json.Unmarshal(b[8:8+n], &h.entries); err != nil {
		return h, nil, fmt.Errorf("header is not a JSON object: %v", err)
	}
	if raw, ok := h.entries["__metadata__"]; ok {
		delete(h.entries, "__metadata__")
		if err := json.Unmarshal(raw, &h.meta); err != nil {
			return h, nil, fmt.Errorf("__metadata__ is not a map of strings: %v", err)
		}
	}
	return h, b[8+n:], nil
}

// decodeTensors checks every entry against the data (dtype, byte range,
// size) and that the tensors tile the data exactly, as safetensors requires:
// no overlap, no bytes of nobody's (a corrupt or concatenated file). The
// tiling is checked before any value is decoded, so that the values take
// no more memory than the data: a small file whose many entries all claimed
// its data would otherwise be decoded once for each.
func decodeTensors(entries map[string]json.RawMessage, data []byte) (map[string]tensor, error) {
	shapes := make(map[string][]int, len(entries))
	spans := make([]span, 0, len(entries))
	for _, name := range slices.Sorted(maps.Keys(entries)) { // the same first error on every run
		var e entry
		if err := json.Unmarshal(entries[name], &e); err != nil {
			return nil, fmt.Errorf("header entry %q: %v", name, err)
		}
		s, err := e.check(name, len(data))
		if err != nil {
			return nil, err
		}
		shapes[name], spans = e.Shape, append(spans, s)
	}
	if err := checkTiling(spans, len(data)); err != nil {
		return nil, err
	}
	tensors := make(map[string]tensor, len(spans))
	for _, s := range spans {
		values, err := float32s(s.name, data[s.begin:s.end])
		if err != nil {
			return nil, err
		}
		tensors[s.name] = tensor{shapes[s.name], values}
	}
	return tensors, nil
}

// check returns the bytes e claims in a data of size bytes, if they exist
// and hold exactly its shape of float32.
func (e entry) check(name string, size int) (span, error) {
	if e.Dtype != "F32" {
		return span{}, fmt.Errorf("%s: dtype %s, want F32", name, e.Dtype)
	}
	if len(e.Offsets) != 2 || e.Offsets[0] < 0 || e.Offsets[1] < e.Offsets[0] {
		return span{}, fmt.Errorf("%s: data offsets %v are not a byte range [begin, end]", name, e.Offsets)
	}
	s := span{name, e.Offsets[0], e.Offsets[1]}
	if s.end > int64(size) {
		return span{}, fmt.Errorf("truncated: %s ends at data byte %d, the data has %d", name, s.end, size)
	}
	n := elements(e.Shape, int64(size)/4)
	if n < 0 {
		return span{}, fmt.Errorf("%s: shape %v is not a size (an empty or negative dimension, or too large)", name, e.Shape)
	}
	if s.end-s.begin != 4*n {
		return span{}, fmt.Errorf("%s: data offsets %v hold %d bytes, shape %v of F32 needs %d",
			name, e.Offsets, s.end-s.begin, e.Shape, 4*n)
	}
	return s, nil
}

// elements is the number of values of shape, or -1 if a dimension is not
// positive (no tensor of the format is empty) or the count passes limit
// (checked before multiplying, so a crafted shape cannot overflow).
func elements(shape []int, limit int64) int64 {
	n := int64(1)
	for _, d := range shape {
		if d <= 0 || n > limit/int64(d) {
			return -1
		}
		n *= int64(d)
	}
	return n
}

// float32s decodes little-endian float32s, refusing NaN and infinities: a
// diverged training run, and evaluation skips zero inputs, which is exact
// only if 0·w is 0 for every weight w.
func float32s(name string, b []byte) ([]float32, error) {
	values := make([]float32, len(b)/4)
	for i := range values {
		v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("%s: value %d is %v", name, i, v)
		}
		values[i] = v
	}
	return values, nil
}

// checkTiling requires the spans to cover the data's size bytes end to end.
func checkTiling(spans []span, size int) error {
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.begin, b.begin) })
	var pos int64
	for i, s := range spans {
		if s.begin < pos {
			return fmt.Errorf("tensors %s and %s overlap in the data", spans[i-1].name, s.name)
		}
		if s.begin > pos {
			return fmt.Errorf("data bytes [%d, %d) belong to no tensor", pos, s.begin)
		}
		pos = s.end
	}
	if pos != int64(size) {
		return fmt.Errorf("data bytes [%d, %d) belong to no tensor", pos, size)
	}
	return nil
}
