package nets_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/splendor-rl/splendor/env/nets"
	"github.com/stretchr/testify/require"
)

// tensorFile is a safetensors file the tests build, right or deliberately
// wrong: a minimal writer, so that each refusal is one small change to a
// good file.
type tensorFile struct {
	meta    map[string]string
	tensors []*fileTensor
	rand    *rand.Rand // fills tensors whose shape a test changes
}

type fileTensor struct {
	name    string
	dtype   string
	shape   []int
	values  []float32 // written as they are, whatever shape says
	offsets []int64   // if set, written instead of the true data offsets
}

// randomNet is a good file of a net of these sizes, its weights drawn as
// torch's default initialisation does (uniform within ±1/√inputs), so that
// activations keep their size through the layers.
func randomNet(seed uint64, obs, actions, hidden, layers int) *tensorFile {
	f := &tensorFile{
		meta: map[string]string{"format": nets.Format, "env": "splendor-v1", "options": `{"players": 2}`},
		rand: rand.New(rand.NewPCG(seed, 1)),
	}
	f.add("scale", obs)
	in := obs
	for i := range layers {
		f.add(fmt.Sprintf("trunk.%d.weight", i), hidden, in)
		f.add(fmt.Sprintf("trunk.%d.bias", i), hidden)
		in = hidden
	}
	f.add("policy.weight", actions, hidden)
	f.add("policy.bias", actions)
	f.add("value.weight", 1, hidden)
	f.add("value.bias", 1)
	return f
}

// add appends a tensor of shape filled with random values.
func (f *tensorFile) add(name string, shape ...int) {
	f.tensors = append(f.tensors, &fileTensor{name: name, dtype: "F32"})
	f.reshape(name, shape...)
}

// reshape gives a tensor a new shape and random values to fill it; a scale
// gets positive factors up to 1, as pvnet.observation_scale makes.
func (f *tensorFile) reshape(name string, shape ...int) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	bound := 1 / math.Sqrt(float64(shape[len(shape)-1]))
	lo, hi := -bound, bound
	if name == "scale" {
		lo, hi = 0.05, 1
	}
	t := f.tensor(name)
	t.shape, t.values = shape, make([]float32, n)
	for i := range t.values {
		t.values[i] = float32(lo + (hi-lo)*f.rand.Float64())
	}
}

func (f *tensorFile) tensor(name string) *fileTensor {
	for _, t := range f.tensors {
		if t.name == name {
			return t
		}
	}
	panic("no tensor " + name)
}

func (f *tensorFile) drop(name string) {
	f.tensors = slices.DeleteFunc(f.tensors, func(t *fileTensor) bool { return t.name == name })
}

// bytes is the file: header length, JSON header, data in tensor order.
func (f *tensorFile) bytes() []byte {
	header := map[string]any{}
	if f.meta != nil {
		header["__metadata__"] = f.meta
	}
	var data []byte
	for _, t := range f.tensors {
		begin := len(data)
		for _, v := range t.values {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
		}
		offsets := []int64{int64(begin), int64(len(data))}
		if t.offsets != nil {
			offsets = t.offsets
		}
		header[t.name] = map[string]any{"dtype": t.dtype, "shape": t.shape, "data_offsets": offsets}
	}
	h, err := json.Marshal(header)
	if err != nil {
		panic(err)
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	return append(append(b, h...), data...)
}

// writeFile writes b as a file in a fresh directory and returns its path.
func writeFile(t testing.TB, b []byte) string {
	path := filepath.Join(t.TempDir(), "net.safetensors")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}
