package nets_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/nets"
	"github.com/splendor-rl/splendor/internal/nettest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Sizes of the nets the refusal cases change (obs 30, 11 actions, 16 wide, 2 layers).
const obs, actions, hidden = 30, 11, 16

func goodNet() *nettest.File { return nettest.RandomNet(7, obs, actions, hidden, 2) }

// changed is goodNet's file after change.
func changed(change func(f *nettest.File)) []byte {
	f := goodNet()
	change(f)
	return f.Bytes()
}

// requireRefusal checks that err refuses the file at path in one line that
// names it and says each of what.
func requireRefusal(t *testing.T, path string, err error, what ...string) {
	t.Helper()
	require.Error(t, err)
	msg := err.Error()
	assert.True(t, strings.HasPrefix(msg, "nets: "+path+": "), "the refusal does not start with the file: %s", msg)
	assert.NotContains(t, msg, "\n")
	for _, w := range what {
		assert.Contains(t, msg, w)
	}
}

func TestTheTestWriterMakesALoadableNet(t *testing.T) {
	n, err := nets.Load(writeFile(t, goodNet().Bytes()))
	require.NoError(t, err)
	assert.Equal(t, []int{obs, actions, hidden, 2}, []int{n.Obs(), n.Actions(), n.Hidden(), n.Layers()})
	assert.Equal(t, "splendor-v1", n.Env)
	assert.Equal(t, map[string]any{"players": 2.0}, n.Options)
}

func TestLoadRefusesAnUnreadableFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.safetensors")
	_, err := nets.Load(missing)
	requireRefusal(t, missing, err, "cannot read", "no such file")
	assert.True(t, errors.Is(err, fs.ErrNotExist), "the system's error is wrapped")

	dir := t.TempDir()
	_, err = nets.Load(dir)
	requireRefusal(t, dir, err, "a directory, not a regular file")
}

// Every cut of a good file, inside the header length, the header or the
// data, is refused as truncated.
func TestLoadRefusesEveryTruncation(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "mlp1.safetensors")) // the smallest: ~1500 cuts
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "cut.safetensors")
	for cut := range len(good) {
		require.NoError(t, os.WriteFile(path, good[:cut], 0o644))
		_, err := nets.Load(path)
		requireRefusal(t, path, err, "truncated")
		if t.Failed() {
			t.Fatalf("cut at %d of %d bytes", cut, len(good))
		}
	}
}

func TestLoadRefusesABrokenContainer(t *testing.T) {
	good := goodNet().Bytes()
	headerLength := func(n uint64) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint64(b, n)
		return b
	}
	rawHeader := func(h string) []byte {
		return append(binary.LittleEndian.AppendUint64(nil, uint64(len(h))), h...)
	}
	cases := []struct {
		name string
		file []byte
		what []string
	}{
		{"absurd header length", headerLength(1 << 40), []string{"header length 1099511627776 is absurd"}},
		{"header length past the end", headerLength(uint64(len(good))), []string{"truncated: header says"}},
		{"header not JSON", rawHeader("{not json"), []string{"header is not a JSON object"}},
		{"header an array", rawHeader("[]"), []string{"header is not a JSON object"}},
		{"metadata not strings", rawHeader(`{"__metadata__": {"format": 1}}`), []string{"__metadata__ is not a map of strings"}},
		{"entry not an object", rawHeader(`{"__metadata__": {"format": "` + nets.Format + `", "env": "e", "options": "{}"}, "scale": 3}`),
			[]string{`header entry "scale"`}},
		{"dtype", changed(func(f *nettest.File) { f.Tensor("trunk.0.weight").Dtype = "F16" }),
			[]string{"trunk.0.weight: dtype F16, want F32"}},
		{"offsets past the data", changed(func(f *nettest.File) { f.Tensor("value.bias").Offsets = []int64{0, 1 << 20} }),
			[]string{"truncated: value.bias ends at data byte 1048576"}},
		{"offsets reversed", changed(func(f *nettest.File) { f.Tensor("value.bias").Offsets = []int64{8, 4} }),
			[]string{"value.bias: data offsets [8 4] are not a byte range"}},
		{"offsets negative", changed(func(f *nettest.File) { f.Tensor("value.bias").Offsets = []int64{-4, 0} }),
			[]string{"value.bias: data offsets [-4 0] are not a byte range"}},
		{"offsets overlap", changed(func(f *nettest.File) { // scale is first, [0, 4·obs)
			f.Tensor("trunk.0.weight").Offsets = []int64{4*obs - 4, 4*obs - 4 + 4*hidden*obs}
		}), []string{"tensors scale and trunk.0.weight overlap"}},
		{"size not the shape's", changed(func(f *nettest.File) { f.Tensor("trunk.0.weight").Shape = []int{hidden, obs + 1} }),
			[]string{"trunk.0.weight: data offsets", "hold 1920 bytes, shape [16 31] of F32 needs 1984"}},
		{"empty dimension", changed(func(f *nettest.File) { f.Reshape("scale", 0) }),
			[]string{"scale: shape [0] is not a size"}},
		{"bytes after the tensors", append(good, 0, 0, 0, 0), []string{"data bytes", "belong to no tensor"}},
		{"NaN weight", changed(func(f *nettest.File) { f.Tensor("policy.weight").Values[3] = float32(math.NaN()) }),
			[]string{"policy.weight: value 3 is NaN"}},
		{"infinite scale", changed(func(f *nettest.File) { f.Tensor("scale").Values[0] = float32(math.Inf(1)) }),
			[]string{"scale: value 0 is +Inf"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, c.file)
			_, err := nets.Load(path)
			requireRefusal(t, path, err, c.what...)
		})
	}
}

// A header cannot make a small file cost much memory: here 2,000 entries
// all claim the same 64 KiB of data, which decoded once for each would be
// 128 MiB. The overlap is refused before any value is decoded; what is
// left is the header's JSON, a few times the file.
func TestReadOfALyingHeaderAllocatesLittle(t *testing.T) {
	const entries, data = 2000, 64 << 10
	var header strings.Builder
	header.WriteString(`{"__metadata__": {"format": "` + nets.Format + `", "env": "e", "options": "{}"}`)
	for i := range entries {
		fmt.Fprintf(&header, `, "t%d": {"dtype": "F32", "shape": [%d], "data_offsets": [0, %d]}`, i, data/4, data)
	}
	header.WriteString("}")
	file := append(binary.LittleEndian.AppendUint64(nil, uint64(header.Len())), header.String()...)
	file = append(file, make([]byte, data)...)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := nets.Read("lying", file)
	runtime.ReadMemStats(&after)
	requireRefusal(t, "lying", err, "overlap in the data")
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(20*len(file)), "%d bytes allocated to read a file of %d", allocated, len(file))
}

func TestLoadRefusesTensorsThatDoNotChain(t *testing.T) {
	cases := []struct {
		name   string
		change func(f *nettest.File)
		what   []string
	}{
		{"scale of two dimensions", func(f *nettest.File) { f.Reshape("scale", obs, 1) }, []string{"scale: shape [30 1], want [30]"}},
		{"first layer not the observation's width", func(f *nettest.File) { f.Reshape("trunk.0.weight", hidden, obs+1) },
			[]string{"trunk.0.weight: shape [16 31], want [16 30]", "30 features of scale"}},
		{"first layer of one dimension", func(f *nettest.File) { f.Reshape("trunk.0.weight", hidden*obs) },
			[]string{"trunk.0.weight: shape [480], want [480 30]"}},
		{"second layer not the first's width", func(f *nettest.File) { f.Reshape("trunk.1.weight", hidden, hidden+1) },
			[]string{"trunk.1.weight: shape [16 17], want [16 16]", "trunk.0's 16 outputs"}},
		{"second layer wider", func(f *nettest.File) {
			f.Reshape("trunk.1.weight", hidden+1, hidden)
			f.Reshape("trunk.1.bias", hidden+1)
		},
			[]string{"trunk.1.weight: shape [17 16], want [16 16]", "every trunk layer is 16 wide"}},
		{"bias of another width", func(f *nettest.File) { f.Reshape("trunk.1.bias", hidden-1) },
			[]string{"trunk.1.bias: shape [15], want [16]"}},
		{"policy not over the trunk", func(f *nettest.File) { f.Reshape("policy.weight", actions, hidden+1) },
			[]string{"policy.weight: shape [11 17], want [11 16]", "trunk.1's 16 outputs"}},
		{"policy bias of another size", func(f *nettest.File) { f.Reshape("policy.bias", actions+1) },
			[]string{"policy.bias: shape [12], want [11]"}},
		{"two values, one bias", func(f *nettest.File) { f.Reshape("value.weight", 2, hidden) },
			[]string{"value.bias: shape [1], want [2] (one per value of value.weight)"}},
		{"five values", func(f *nettest.File) {
			f.Reshape("value.weight", 5, hidden)
			f.Reshape("value.bias", 5)
		}, []string{"value.weight: 5 values, more than one per seat of a 4-seat table"}},
		{"value bias of two", func(f *nettest.File) { f.Reshape("value.bias", 2) },
			[]string{"value.bias: shape [2], want [1]"}},
		{"missing bias", func(f *nettest.File) { f.Drop("trunk.1.bias") }, []string{"missing tensor trunk.1.bias"}},
		{"missing value head", func(f *nettest.File) { f.Drop("value.bias") }, []string{"missing tensor value.bias"}},
		{"missing scale", func(f *nettest.File) { f.Drop("scale") }, []string{"missing tensor scale"}},
		{"no trunk", func(f *nettest.File) {
			for _, name := range []string{"trunk.0.weight", "trunk.0.bias", "trunk.1.weight", "trunk.1.bias"} {
				f.Drop(name)
			}
		}, []string{"no trunk layers"}},
		{"unexpected tensor", func(f *nettest.File) { f.Add("trunk.0.running_mean", hidden) },
			[]string{"unexpected tensor trunk.0.running_mean"}},
		{"a layer after a gap", func(f *nettest.File) { f.Add("trunk.3.weight", hidden, hidden) },
			[]string{"unexpected tensor trunk.3.weight"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, changed(c.change))
			_, err := nets.Load(path)
			requireRefusal(t, path, err, c.what...)
		})
	}
}

func TestLoadRefusesWrongMetadata(t *testing.T) {
	cases := []struct {
		name   string
		change func(meta map[string]string)
		what   []string
	}{
		{"later format", func(m map[string]string) { m["format"] = "splendor-rl/pv-mlp/2" },
			[]string{`format "splendor-rl/pv-mlp/2", want "splendor-rl/pv-mlp/1"`}},
		{"no format", func(m map[string]string) { delete(m, "format") }, []string{"no format in the metadata"}},
		{"no env", func(m map[string]string) { delete(m, "env") }, []string{"no env id"}},
		{"no options", func(m map[string]string) { delete(m, "options") }, []string{"no options"}},
		{"options an array", func(m map[string]string) { m["options"] = "[1, 2]" }, []string{`options "[1, 2]" are not a JSON object`}},
		{"options null", func(m map[string]string) { m["options"] = "null" }, []string{`options "null" are not a JSON object`}},
		{"options not JSON", func(m map[string]string) { m["options"] = "{players: 2\n" }, []string{"are not a JSON object"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, changed(func(f *nettest.File) { c.change(f.Meta) }))
			_, err := nets.Load(path)
			requireRefusal(t, path, err, c.what...)
		})
	}
	t.Run("no metadata", func(t *testing.T) {
		path := writeFile(t, changed(func(f *nettest.File) { f.Meta = nil }))
		_, err := nets.Load(path)
		requireRefusal(t, path, err, "no format in the metadata")
	})
}
