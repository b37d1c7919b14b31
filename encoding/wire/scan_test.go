package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"
)

// Frames a few bytes long that declare huge containers or deep nesting are
// refused before anything is allocated by their lengths.
func TestHostileFramesAreRefusedCheaply(t *testing.T) {
	hostile := map[string]string{
		"4G seeds":        "\x81\xa5seeds\xdd\xff\xff\xff\xff",
		"4G option map":   "\x81\xa7options\xdf\xff\xff\xff\xff",
		"4G env ids":      "\x81\xa7env_ids\xdd\xff\xff\xff\xff",
		"4G shape":        "\x81\xa7actions\x81\xa5shape\xdd\xff\xff\xff\xff",
		"4G nested list":  "\x81\xa7options\x81\xa1a\xdd\xff\xff\xff\xff",
		"4G bin":          "\x81\xa7actions\x81\xa4data\xc6\xff\xff\xff\xff",
		"4G str":          "\x8a\xdb\xdb\xdb\xdb\xdb\xc0",
		"4G ext":          "\x81\xa1a\xc9\xff\xff\xff\xff\x01",
		"ext as map":      "\x9b0\xc0\xc0\xc00\xd60\xdf\xdf00-0000",
		"fixext":          "\x81\xa1a\xd4\x01\x02",
		"deep nesting":    "\x81\xa7options\x81\xa1a" + string(bytes.Repeat([]byte{0x91}, 100000)) + "\xc0",
		"trailing bytes":  "\x81\xa2op\xa5hello\x00",
		"truncated int":   "\x81\xa2id\xcf\x00",
		"never-used byte": "\x81\xa2id\xc1",
	}
	codec := NewCodec()
	for name, frame := range hostile {
		var req Request
		werr := codec.DecodeRequest([]byte(frame), &req)
		require.NotNil(t, werr, name)
		require.Equal(t, CodeBadRequest, werr.Code, name)
	}
}

// Every well-formed value the encoder can produce passes the scan.
func TestScanAcceptsEveryMsgpackType(t *testing.T) {
	values := []any{nil, true, false, 0, 127, -1, -32, -33, 200, 70000, 1 << 40, -1 << 40, uint64(1 << 63),
		float32(1.5), 2.5, "", "short", string(bytes.Repeat([]byte("x"), 300)), string(bytes.Repeat([]byte("y"), 70000)),
		[]byte{}, bytes.Repeat([]byte{1}, 300), bytes.Repeat([]byte{1}, 70000),
		[]any{1, "a", []any{}}, make([]any, 20), make([]any, 70000),
		map[string]any{"a": 1}, bigMap(20), bigMap(70000)}
	for _, v := range values {
		frame, err := msgpack.Marshal(v)
		require.NoError(t, err)
		require.NoError(t, scan(frame, 1<<20), "%T", v)
		require.Error(t, scan(append(frame, 0), 1<<20), "trailing byte after %T", v)
		if len(frame) > 1 {
			require.Error(t, scan(frame[:len(frame)-1], 1<<20), "truncated %T", v)
		}
	}
}

func bigMap(n int) map[string]any {
	m := map[string]any{}
	for i := 0; i < n; i++ {
		m[string(rune('a'+i%26))+string(rune(i))] = i
	}
	return m
}

// The item budget counts every array item and map entry in the frame,
// however they are nested, before anything is decoded.
func TestScanBoundsItems(t *testing.T) {
	for _, c := range []struct {
		value any
		items int
	}{
		{make([]any, 100), 100},
		{map[string]any{"a": 1, "b": 2}, 4},
		{map[string]any{"options": map[string]any{"mode": make([]any, 10)}}, 2 + 2 + 10},
		{[]any{make([]any, 5), make([]any, 5)}, 12},
	} {
		frame, err := msgpack.Marshal(c.value)
		require.NoError(t, err)
		require.NoError(t, scan(frame, c.items), "%v", c.value)
		require.ErrorIs(t, scan(frame, c.items-1), errTooMany, "%v", c.value)
	}
}

// A request whose options hold millions of nils is refused by the codec
// before decoding, with a short message.
func TestCodecRefusesTooManyItems(t *testing.T) {
	frame, err := msgpack.Marshal(map[string]any{"id": 1, "op": "make", "options": map[string]any{"mode": make([]any, 2_000_000)}})
	require.NoError(t, err)
	var req Request
	werr := NewCodec().DecodeRequest(frame, &req)
	require.NotNil(t, werr)
	require.Equal(t, CodeBadRequest, werr.Code)
	require.Less(t, len(werr.Message), 200)
}

// env_ids refuses nil and non-integer items, as seeds does, rather than
// reading them as env 0.
func TestEnvIDsRefuseNonIntegers(t *testing.T) {
	for _, ids := range []any{[]any{nil}, []any{0, "1"}, []any{1.5}} {
		frame, err := msgpack.Marshal(map[string]any{"id": 1, "op": "reset", "handle": 1, "env_ids": ids})
		require.NoError(t, err)
		var req Request
		werr := NewCodec().DecodeRequest(frame, &req)
		require.NotNil(t, werr, "%v", ids)
		require.Equal(t, CodeBadRequest, werr.Code, "%v", ids)
	}
	frame, err := msgpack.Marshal(map[string]any{"id": 1, "op": "reset", "handle": 1, "env_ids": []any{0, uint64(7), int8(3)}})
	require.NoError(t, err)
	var req Request
	require.Nil(t, NewCodec().DecodeRequest(frame, &req))
	require.Equal(t, EnvIDs{0, 7, 3}, req.EnvIDs)
}

func TestErrorMessagesAreCapped(t *testing.T) {
	werr := Errorf(CodeBadOption, "got %s", bytes.Repeat([]byte("é"), 10000))
	require.LessOrEqual(t, len(werr.Message), MaxMessageBytes+len("…"))
}

// Decoding errors speak of the protocol's types, not the library's codes.
func TestDecodeErrorsArePlain(t *testing.T) {
	for _, c := range []struct {
		request map[string]any
		code    Code
		says    string
	}{
		{map[string]any{"id": 1.5, "op": "hello"}, CodeBadRequest, "a float where an integer was expected"},
		{map[string]any{"id": 1, "op": 7}, CodeBadRequest, "an integer where a string was expected"},
		{map[string]any{"id": 1, "op": "make", "seed": 1.0}, CodeBadSeed, "seed 1 is a float"},
	} {
		frame, err := msgpack.Marshal(c.request)
		require.NoError(t, err)
		var req Request
		werr := NewCodec().DecodeRequest(frame, &req)
		require.NotNil(t, werr, "%v", c.request)
		require.Equal(t, c.code, werr.Code)
		require.Contains(t, werr.Message, c.says)
		require.NotContains(t, werr.Message, "code=")
	}
}

// Actions are indices: floats are refused as such, and an int64 past int32
// is named with its own value.
func TestActionsMustBeIntegerIndices(t *testing.T) {
	dst := make([]int32, 2)
	f := Float32Tensor([]float32{1.5, 2}, 2)
	require.Equal(t, CodeBadRequest, f.Ints(dst).Code)
	big := Tensor{Dtype: Int64, Shape: []int{2}, Data: make([]byte, 16)}
	big.Data[12] = 1 // env 1: 2^32
	werr := big.Ints(dst)
	require.Equal(t, CodeIllegalAction, werr.Code)
	require.Contains(t, werr.Message, "action 4294967296")
	require.Equal(t, []int{1}, werr.Envs)
}
