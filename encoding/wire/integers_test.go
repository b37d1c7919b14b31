package wire

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"
)

// An integer its field cannot hold is refused as sent, whatever its
// encoding, never wrapped: a negative id or handle (uint64), an int field
// or a shape item past 2^63 − 1. The reply's id is 0 when the id is what
// was refused, and the request's otherwise.
func TestIntegersAreRefusedRatherThanWrapped(t *testing.T) {
	tensor := func(shape ...any) map[string]any {
		return map[string]any{"dtype": "int32", "shape": shape, "data": []byte{}}
	}
	for _, c := range []struct {
		request map[string]any
		id      uint64
		says    string
	}{
		{map[string]any{"id": -1, "op": "hello"}, 0, "id -1 is negative"},
		{map[string]any{"id": int8(-128), "op": "hello"}, 0, "id -128 is negative"},
		{map[string]any{"id": int16(-300), "op": "hello"}, 0, "id -300 is negative"},
		{map[string]any{"id": int32(-70000), "op": "hello"}, 0, "id -70000 is negative"},
		{map[string]any{"id": int64(math.MinInt64), "op": "hello"}, 0, "id -9223372036854775808 is negative"},
		{map[string]any{"id": 4, "op": "close", "handle": -1}, 4, "handle -1 is negative"},
		{map[string]any{"id": 4, "op": "close", "handle": int64(-1 << 40)}, 4, "handle -1099511627776 is negative"},
		{map[string]any{"id": 5, "op": "make", "env": "e", "num_envs": uint64(math.MaxUint64)}, 5,
			"num_envs 18446744073709551615 is out of range"},
		{map[string]any{"id": 5, "op": "make", "env": "e", "num_envs": uint64(1 << 63)}, 5, "num_envs 9223372036854775808"},
		{map[string]any{"id": 6, "op": "view", "handle": 1, "seat": uint64(math.MaxUint64)}, 6, "seat 18446744073709551615"},
		{map[string]any{"id": 7, "op": "step", "handle": 1, "actions": tensor(uint64(math.MaxUint64))}, 7,
			"actions shape 18446744073709551615 is out of range"},
		{map[string]any{"id": 8, "op": "evaluate", "handle": 1, "priors": tensor(2, uint64(1<<63)), "values": tensor(2)}, 8,
			"priors shape 9223372036854775808"},
		{map[string]any{"op": "hello", "id": -1}, 0, "id -1 is negative"},
	} {
		frame, err := msgpack.Marshal(c.request)
		require.NoError(t, err)
		requireWrapRefused(t, frame, c.id, c.says)
	}
}

// The same, in the encodings a map's keys and length may have: a map16
// header, bin keys (which the decoder takes for strings), and a duplicate
// key (of which the decoder keeps the last).
func TestIntegersAreRefusedInEveryMapEncoding(t *testing.T) {
	hello := "\xa2op\xa5hello"
	for name, c := range map[string]struct {
		frame string
		id    uint64
		says  string
	}{
		"map16":                  {"\xde\x00\x02\xa2id\xff" + hello, 0, "id -1 is negative"},
		"bin key":                {"\x82\xc4\x02id\xff" + hello, 0, "id -1 is negative"},
		"str8 key":               {"\x82\xd9\x02id\xff" + hello, 0, "id -1 is negative"},
		"second id negative":     {"\x83\xa2id\x05\xa2id\xff" + hello, 0, "id -1 is negative"},
		"first id negative":      {"\x83\xa2id\xff\xa2id\x05" + hello, 0, "id -1 is negative"},
		"handle as int8, id int": {"\x83\xa2id\xd3\x00\x00\x00\x00\x00\x00\x00\x09\xa6handle\xd0\xfe\xa2op\xa5close", 9, "handle -2 is negative"},
	} {
		t.Run(name, func(t *testing.T) { requireWrapRefused(t, []byte(c.frame), c.id, c.says) })
	}
}

// requireWrapRefused decodes frame and checks the refusal and the id its
// reply would carry.
func requireWrapRefused(t *testing.T, frame []byte, id uint64, says string) {
	t.Helper()
	var req Request
	werr := NewCodec().DecodeRequest(frame, &req)
	require.NotNil(t, werr, "%x", frame)
	assert.Equal(t, CodeBadRequest, werr.Code, "%x", frame)
	assert.Contains(t, werr.Message, says, "%x", frame)
	assert.Equal(t, id, req.ID, "%x: the id of the reply", frame)
}

// Values that fit are read as sent, in any encoding: the unsigned fields up
// to 2^64 − 1, a non-negative int64 encoding, and negative ints, which the
// ops refuse with their own codes (num_envs < 1 is bad_option, a seat
// outside the table bad_shape).
func TestIntegersThatFitAreRead(t *testing.T) {
	frame, err := msgpack.Marshal(map[string]any{"id": uint64(math.MaxUint64), "op": "close", "handle": int64(3)})
	require.NoError(t, err)
	var req Request
	require.Nil(t, NewCodec().DecodeRequest(frame, &req))
	assert.Equal(t, Request{ID: math.MaxUint64, Op: OpClose, Handle: 3}, req)

	frame, err = msgpack.Marshal(map[string]any{"id": 1, "op": "make", "env": "e", "num_envs": int64(-2)})
	require.NoError(t, err)
	require.Nil(t, NewCodec().DecodeRequest(frame, &req))
	assert.Equal(t, -2, req.NumEnvs)

	frame, err = msgpack.Marshal(map[string]any{"id": 1, "op": "view", "handle": 1, "seat": int8(-1)})
	require.NoError(t, err)
	require.Nil(t, NewCodec().DecodeRequest(frame, &req))
	assert.Equal(t, -1, *req.Seat)
}

// integerFields and tensorFields are Request's integer and tensor fields:
// a field added to Request without them would be wrapped again.
func TestIntegerFieldsAreRequestsFields(t *testing.T) {
	ints, tensors := map[string]bool{}, map[string]bool{}
	typ := reflect.TypeFor[Request]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("msgpack"), ",")
		kind := f.Type.Kind()
		if kind == reflect.Pointer {
			kind = f.Type.Elem().Kind()
		}
		switch {
		case f.Type == reflect.TypeFor[*Tensor]():
			tensors[name] = true
		case f.Type == reflect.TypeFor[*Seed]():
			// Seed reads itself, refusing what is not in [0, 2^64).
		case kind >= reflect.Int && kind <= reflect.Uint64:
			ints[name] = kind >= reflect.Uint
		}
	}
	assert.Equal(t, ints, integerFields)
	assert.Equal(t, tensors, tensorFields)
	assert.Equal(t, reflect.TypeFor[[]int](), reflect.TypeFor[Tensor]().Field(1).Type, "a shape is ints")
}
