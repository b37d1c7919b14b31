// Package nettest writes policy-value network files (safetensors, the format
// env/nets reads and python_client/splendor_rl/pvnet.py writes) for tests:
// random networks of any size, right or deliberately wrong, so that the
// tests of the reader, the baseline bots and the server that loads them
// need no trained file.
package nettest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
)

// Format is the format the files say they are: env/nets.Format (whose
// tests check the two are equal; internal/ may not import env/).
const Format = "splendor-rl/pv-mlp/1"

// File is a safetensors file the tests build, right or deliberately
// wrong: a minimal writer, so that each refusal is one small change to a
// good file.
type File struct {
	Meta    map[string]string
	Tensors []*Tensor
	rand    *rand.Rand // fills tensors whose shape a test changes
}

// Tensor is one tensor of a File.
type Tensor struct {
	Name    string
	Dtype   string
	Shape   []int
	Values  []float32 // written as they are, whatever shape says
	Offsets []int64   // if set, written instead of the true data offsets
}

// RandomNet is a good file of a net of these sizes, its weights drawn as
// torch's default initialisation does (uniform within ±1/√inputs), so that
// activations keep their size through the layers.
func RandomNet(seed uint64, obs, actions, hidden, layers int) *File {
	f := &File{
		Meta: map[string]string{"format": Format, "env": "splendor-v1", "options": `{"players": 2}`},
		rand: rand.New(rand.NewPCG(seed, 1)),
	}
	f.Add("scale", obs)
	in := obs
	for i := range layers {
		f.Add(fmt.Sprintf("trunk.%d.weight", i), hidden, in)
		f.Add(fmt.Sprintf("trunk.%d.bias", i), hidden)
		in = hidden
	}
	f.Add("policy.weight", actions, hidden)
	f.Add("policy.bias", actions)
	f.Add("value.weight", 1, hidden)
	f.Add("value.bias", 1)
	return f
}

// Add appends a tensor of shape filled with random values.
func (f *File) Add(name string, shape ...int) {
	f.Tensors = append(f.Tensors, &Tensor{Name: name, Dtype: "F32"})
	f.Reshape(name, shape...)
}

// Reshape gives a tensor a new shape and random values to fill it; a scale
// gets positive factors up to 1, as pvnet.observation_scale makes.
func (f *File) Reshape(name string, shape ...int) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	bound := 1 / math.Sqrt(float64(shape[len(shape)-1]))
	lo, hi := -bound, bound
	if name == "scale" {
		lo, hi = 0.05, 1
	}
	t := f.Tensor(name)
	t.Shape, t.Values = shape, make([]float32, n)
	for i := range t.Values {
		t.Values[i] = float32(lo + (hi-lo)*f.rand.Float64())
	}
}

// Tensor is the tensor of that name.
func (f *File) Tensor(name string) *Tensor {
	for _, t := range f.Tensors {
		if t.Name == name {
			return t
		}
	}
	panic("no tensor " + name)
}

// Drop removes the tensor of that name.
func (f *File) Drop(name string) {
	f.Tensors = slices.DeleteFunc(f.Tensors, func(t *Tensor) bool { return t.Name == name })
}

// Bytes is the file: header length, JSON header, data in tensor order.
func (f *File) Bytes() []byte {
	header := map[string]any{}
	if f.Meta != nil {
		header["__metadata__"] = f.Meta
	}
	var data []byte
	for _, t := range f.Tensors {
		begin := len(data)
		for _, v := range t.Values {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
		}
		offsets := []int64{int64(begin), int64(len(data))}
		if t.Offsets != nil {
			offsets = t.Offsets
		}
		header[t.Name] = map[string]any{"dtype": t.Dtype, "shape": t.Shape, "data_offsets": offsets}
	}
	h, err := json.Marshal(header)
	if err != nil {
		panic(err)
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	return append(append(b, h...), data...)
}

// Write writes the file as name in dir and returns its path.
func (f *File) Write(dir, name string) (string, error) {
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, f.Bytes(), 0o644)
}
