package wire

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
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

// TensorsView says whether the Tensor constructors view their slices rather
// than copy them, so that a tensor built once follows later writes to its
// slice (true on little-endian hosts).
var TensorsView = littleEndian

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
// elements and one dimension into dst, which must have length n. Floats are
// refused, integral or not: an action is an index. An int64 outside int32
// is an illegal action, reported with its value.
func (t *Tensor) Ints(dst []int32) *Error {
	n := len(dst)
	if t.Dtype == Float32 || t.Dtype == "float64" || t.Dtype == "float16" {
		return Errorf(CodeBadRequest, "want integers (dtype int32, int64 or uint8), got %s: convert the actions to integers", t.Dtype)
	}
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
			if v != int64(int32(v)) {
				return &Error{Code: CodeIllegalAction, Message: fmt.Sprintf("env %d: action %d is not an action index", i, v), Envs: []int{i}}
			}
			dst[i] = int32(v)
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

// Floats decodes a float32 tensor of exactly shape into dst, whose length
// is the shape's product: a guided search's evaluations.
func (t *Tensor) Floats(dst []float32, shape ...int) *Error {
	if t.Dtype != Float32 {
		return Errorf(CodeBadShape, "want dtype float32, got %q", t.Dtype)
	}
	if !slices.Equal(t.Shape, shape) {
		return Errorf(CodeBadShape, "want shape %v, got %v", shape, t.Shape)
	}
	if len(t.Data) != 4*len(dst) {
		return Errorf(CodeBadShape, "%d bytes of data for %d float32 values", len(t.Data), len(dst))
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
	}
	return nil
}
