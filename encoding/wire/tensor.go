package wire

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Tensor is an n-dimensional array as raw little-endian bytes, so that a
// client reads it with np.frombuffer and no per-element work.
type Tensor struct {
	Dtype string `msgpack:"dtype"`
	Shape []int  `msgpack:"shape"`
	Data  []byte `msgpack:"data"`
}

// Dtypes, named as numpy names them.
const (
	Uint8   = "uint8"
	Bool    = "bool"
	Int32   = "int32"
	Int64   = "int64"
	Float32 = "float32"
)

// littleEndian: on such hosts (all the project runs on) numeric slices are
// sent as they lie in memory; elsewhere they are converted.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Len is the number of elements the shape holds.
func (t *Tensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Uint8Tensor wraps bytes (no copy).
func Uint8Tensor(data []uint8, shape ...int) Tensor {
	return Tensor{Dtype: Uint8, Shape: shape, Data: data}
}

// BoolTensor wraps bools as one byte each (no copy).
func BoolTensor(data []bool, shape ...int) Tensor {
	return Tensor{Dtype: Bool, Shape: shape, Data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data))}
}

// Float32Tensor wraps float32s (no copy on little-endian hosts).
func Float32Tensor(data []float32, shape ...int) Tensor {
	if littleEndian {
		return Tensor{Dtype: Float32, Shape: shape, Data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), 4*len(data))}
	}
	b := make([]byte, 4*len(data))
	for i, x := range data {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return Tensor{Dtype: Float32, Shape: shape, Data: b}
}

// Int32Tensor wraps int32s (no copy on little-endian hosts).
func Int32Tensor(data []int32, shape ...int) Tensor {
	if littleEndian {
		return Tensor{Dtype: Int32, Shape: shape, Data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), 4*len(data))}
	}
	b := make([]byte, 4*len(data))
	for i, x := range data {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return Tensor{Dtype: Int32, Shape: shape, Data: b}
}

// Ints decodes an integer tensor (int32, int64 or uint8) of exactly n
// elements and one dimension into dst, which must have length n.
func (t *Tensor) Ints(dst []int32) *Error {
	n := len(dst)
	if len(t.Shape) != 1 || t.Shape[0] != n {
		return Errorf(CodeBadShape, "want shape [%d], got %v", n, t.Shape)
	}
	size := intSize(t.Dtype)
	if size == 0 {
		return Errorf(CodeBadShape, "want dtype int32, int64 or uint8, got %q", t.Dtype)
	}
	if len(t.Data) != size*n {
		return Errorf(CodeBadShape, "%d bytes of data for %d %s values", len(t.Data), n, t.Dtype)
	}
	for i := range dst {
		switch size {
		case 1:
			dst[i] = int32(t.Data[i])
		case 4:
			dst[i] = int32(binary.LittleEndian.Uint32(t.Data[4*i:]))
		case 8:
			v := int64(binary.LittleEndian.Uint64(t.Data[8*i:]))
			dst[i] = clampInt32(v)
		}
	}
	return nil
}

// intSize is the width of an integer dtype accepted for actions, 0 otherwise.
func intSize(dtype string) int {
	switch dtype {
	case Uint8:
		return 1
	case Int32:
		return 4
	case Int64:
		return 8
	}
	return 0
}

// clampInt32 keeps an out-of-range int64 action out of range as an int32, so
// that it is refused as illegal rather than wrapped into a legal index.
func clampInt32(v int64) int32 {
	switch {
	case v > math.MaxInt32:
		return math.MaxInt32
	case v < math.MinInt32:
		return math.MinInt32
	}
	return int32(v)
}
