package wire

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"
)

// stepFrames are plain steps in the encodings clients use: the server's own
// codec, and msgpack maps with other key orders and integer widths.
func stepFrames(t testing.TB) [][]byte {
	var frames [][]byte
	var buf bytes.Buffer
	for _, dtype := range []Tensor{Int32Tensor([]int32{3, 70}, 2), Uint8Tensor([]uint8{1, 2}, 2),
		{Dtype: Int64, Shape: []int{2}, Data: make([]byte, 16)}} {
		require.NoError(t, NewCodec().Encode(&buf, &Request{ID: 1 << 40, Op: OpStep, Handle: 3, Actions: &dtype}))
		frames = append(frames, bytes.Clone(buf.Bytes()))
	}
	for _, m := range []map[string]any{
		{"actions": map[string]any{"data": []byte{1, 0, 0, 0}, "shape": []int64{1}, "dtype": "int32"}, "handle": uint16(7), "op": "step", "id": int8(5)},
		{"op": "step", "id": uint64(1 << 63), "handle": 1, "actions": map[string]any{"dtype": "uint8", "shape": []int{3}, "data": []byte{1, 2, 3}}},
	} {
		frame, err := msgpack.Marshal(m)
		require.NoError(t, err)
		frames = append(frames, frame)
	}
	return frames
}

// The fast path reads exactly what the full decoder reads.
func TestFastStepEqualsFullDecoding(t *testing.T) {
	for _, frame := range stepFrames(t) {
		var fast, full Request
		c := NewCodec()
		require.True(t, c.decodeStep(frame, &fast), "%x", frame)
		require.Nil(t, c.decodeFull(frame, &full))
		require.Equal(t, full, fast)
	}
}

// Anything but a plain step goes to the full decoder, and so keeps its
// error: other ops, extra or missing fields, negative ids, shapes an int
// cannot hold, truncations.
func TestFastStepLeavesTheRestToTheFullDecoder(t *testing.T) {
	for _, req := range []map[string]any{
		{"id": 1, "op": "reset", "handle": 1, "seeds": []int{1}},
		{"id": 1, "op": "step", "handle": 1},
		{"id": -1, "op": "step", "handle": 1, "actions": map[string]any{"dtype": "int32", "shape": []int{1}, "data": []byte{0, 0, 0, 0}}},
		{"id": 1, "op": "step", "handle": 1, "actions": map[string]any{"dtype": "float32", "shape": []int{1}, "data": []byte{0, 0, 0, 0}}},
		{"id": 1, "op": "step", "handle": 1, "actions": map[string]any{"dtype": "int32", "shape": []int{1, 1}, "data": []byte{0, 0, 0, 0}}},
		{"id": 1, "op": "step", "seed": 1, "actions": map[string]any{"dtype": "int32", "shape": []int{1}, "data": []byte{0, 0, 0, 0}}},
		{"id": 1, "op": "step", "handle": 1, "actions": map[string]any{"dtype": "int32", "shape": []any{uint64(math.MaxUint64)}, "data": []byte{}}},
	} {
		frame, err := msgpack.Marshal(req)
		require.NoError(t, err)
		var r Request
		require.False(t, NewCodec().decodeStep(frame, &r), "%v", req)
	}
	for _, frame := range stepFrames(t) {
		for cut := 0; cut < len(frame); cut++ {
			var r Request
			require.False(t, NewCodec().decodeStep(frame[:cut], &r))
		}
		var r Request
		require.False(t, NewCodec().decodeStep(append(bytes.Clone(frame), 0), &r), "trailing byte")
	}
}

// FuzzDecodeStep: whenever the fast path accepts a frame, the full decoder
// reads the same request from it.
func FuzzDecodeStep(f *testing.F) {
	for _, frame := range stepFrames(f) {
		f.Add(frame)
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		var fast, full Request
		c := NewCodec()
		if !c.decodeStep(frame, &fast) {
			return
		}
		require.Nil(t, c.decodeFull(frame, &full), "%x", frame)
		require.Equal(t, full, fast)
	})
}
