package server

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"
)

// socketless is a connection with no socket, holding one reset splendor-v1
// batch (handle 1), so that frames reach every op through handle, the one
// place every reply is built.
func socketless(t testing.TB) *conn {
	s := New(testConfig())
	c := &conn{s: s, batches: map[uint64]*batch{}, out: make(chan reply, queued), free: make(chan *bytes.Buffer, 2),
		taken: make(chan struct{}, 1)}
	c.codec = c.newCodec()
	c.look.changed.L = &c.look.mu
	c.look.reading = true // there is no socket for a lookout to read: searches start none
	remake(t, c)
	return c
}

// remake makes and resets batch 1 again when a request closed it.
func remake(t testing.TB, c *conn) {
	if _, ok := c.batches[1]; ok {
		return
	}
	c.nextHandle = 0
	for _, req := range []*wire.Request{{ID: 1, Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 2},
		{ID: 2, Op: wire.OpReset, Handle: 1}} {
		var frame bytes.Buffer
		require.NoError(t, wire.NewCodec().Encode(&frame, req))
		r, _ := c.handle(frame.Bytes())
		c.forgetRequest()
		require.NoError(t, wire.DecodeReply(r.buf.Bytes(), &struct{}{}))
	}
}

// checkErrorReply fails when a reply to frame is an error whose message is
// longer than wire.MaxMessageBytes or not valid UTF-8.
func checkErrorReply(t *testing.T, c *conn, frame []byte) {
	t.Helper()
	r, _ := c.handle(frame)
	c.forgetRequest()
	var e struct {
		Error *struct {
			Message []byte `msgpack:"message"` // bytes: a str that is not UTF-8 must not be hidden by decoding
		} `msgpack:"error"`
	}
	require.NoError(t, msgpack.Unmarshal(r.buf.Bytes(), &e))
	remake(t, c)
	if e.Error == nil {
		return
	}
	msg := e.Error.Message
	if len(msg) > wire.MaxMessageBytes || !utf8.Valid(msg) {
		t.Fatalf("error message of %d bytes, valid UTF-8 %v: %q", len(msg), utf8.Valid(msg), msg)
	}
}

// errorSeeds are requests whose errors quote the client's bytes: invalid
// UTF-8 and long values in every place a message names them.
func errorSeeds() []map[string]any {
	bad := "\xff\xfe\xc3" + strings.Repeat("é\x80", 60)
	long := strings.Repeat("ü", 200) + "\xff"
	return []map[string]any{
		{"id": 1, "op": bad},
		{"id": 1, "op": long},
		{"id": 1, "op": "hello", bad: 1},
		{"id": 1, "op": "make", "env": bad, "num_envs": 1},
		{"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{bad: 1}},
		{"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{"mode": bad}},
		{"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{"bots": []any{bad, long}}},
		{"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{"payment": long}},
		{"id": 1, "op": "bot_actions", "handle": 1, "bot": bad, "seed": 1},
		{"id": 1, "op": "bot_actions", "handle": 1, "bot": "mcts:" + long, "seed": 1},
		{"id": 1, "op": "set_state", "handle": 1, "env_ids": []any{0}, "states": []any{bad}},
		{"id": 1, "op": "set_state", "handle": 1, "env_ids": []any{0}, "states": []any{"seed=1 next=2 pending=0 over=0 terminated=0 truncated=0 rewards=0,0; " + long}},
		{"id": 1, "op": "step", "handle": 1, "actions": map[string]any{"dtype": bad, "shape": []any{2}, "data": []byte{0, 0}}},
		{"id": 1, "op": "reset", "handle": 1, "seeds": []any{bad}},
		{"id": 1, "op": "set_state", "handle": 1, "env_ids": []any{0}, "states": []any{"seed=\xff next=2"}},
		{"id": 1, "op": "set_state", "handle": 1, "env_ids": []any{0}, "states": []any{"seed=1 next=2 pending=0 over=0 terminated=0 truncated=0 rewards=0,0; players=\xff2"}},
		{"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "options": map[string]any{"players": "\xff"}},
	}
}

// Every error reply's message is at most 256 bytes of valid UTF-8, whatever
// the request quoted.
func TestErrorMessagesAreShortValidUTF8(t *testing.T) {
	c := socketless(t)
	for _, req := range errorSeeds() {
		frame, err := encodeMap(req)
		require.NoError(t, err)
		checkErrorReply(t, c, frame)
	}
}

// FuzzErrorReplies: whatever frame arrives, an error reply's message is at
// most 256 bytes of valid UTF-8.
func FuzzErrorReplies(f *testing.F) {
	for _, req := range errorSeeds() {
		frame, err := encodeMap(req)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(frame)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "..", "encoding", "wire", "testdata", "*_request.msgpack"))
	for _, p := range paths {
		frame, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(frame)
	}
	c := socketless(f)
	f.Fuzz(func(t *testing.T, frame []byte) {
		checkErrorReply(t, c, frame)
	})
}
