package server

import (
	"bytes"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// stepFrames makes a batch on a connection with no socket and returns it
// with an encoded step request of first legal actions.
func stepFixture(t testing.TB, n int, options map[string]any) (*conn, []byte) {
	cfg := testConfig()
	cfg.MaxEnvsPerConnection, cfg.MaxEnvsTotal = max(n, cfg.MaxEnvsPerConnection), max(n, cfg.MaxEnvsTotal)
	s := New(cfg)
	c := &conn{s: s, batches: map[uint64]*batch{}, out: make(chan reply, queued), free: make(chan *bytes.Buffer, 2),
		taken: make(chan struct{}, 1)}
	c.codec = c.newCodec()
	var codec = wire.NewCodec()
	var frame bytes.Buffer
	require.NoError(t, codec.Encode(&frame, &wire.Request{ID: 1, Op: wire.OpMake, Env: "splendor-v1", NumEnvs: n, Options: options}))
	r, _ := c.handle(frame.Bytes())
	var made wire.MakeReply
	require.NoError(t, wire.DecodeReply(r.buf.Bytes(), &made))
	require.NoError(t, codec.Encode(&frame, &wire.Request{ID: 2, Op: wire.OpReset, Handle: made.Handle}))
	r, _ = c.handle(frame.Bytes())
	var first wire.BatchReply
	require.NoError(t, wire.DecodeReply(r.buf.Bytes(), &first))
	actions := firstLegal(first.Mask)
	require.NoError(t, codec.Encode(&frame, &wire.Request{ID: 3, Op: wire.OpStep, Handle: made.Handle, Actions: &actions}))
	return c, frame.Bytes()
}

// In steady state a step's trip through the server (decode, step, encode
// into a pooled buffer) allocates nothing.
func TestWireStepDoesNotAllocate(t *testing.T) {
	for _, opts := range []map[string]any{nil, {"obs_dtype": "float32", "autoreset": "same_step"}} {
		c, frame := stepFixture(t, 64, opts)
		v := c.batches[1].v
		data := frame[len(frame)-4*v.Len():] // the actions tensor's data ends the frame
		var last reply
		step := func() {
			for i := range v.Len() { // a legal action each, written into the frame in place
				a := firstLegalIndex(v.Mask[i*v.Spec.NumActions : (i+1)*v.Spec.NumActions])
				binary.LittleEndian.PutUint32(data[4*i:], uint32(a))
			}
			last, _ = c.handle(frame)
			c.forgetRequest()
			c.recycle(last.buf)
		}
		step()
		require.Zero(t, testing.AllocsPerRun(100, step), "%v", opts)
		require.Less(t, last.buf.Cap(), last.buf.Len()*5/4, "a reused buffer is as large as one reply, %v", opts)
		require.EqualValues(t, 64*102, counterValue(t, c.s, "splendor_env_steps_total", ""), "every step was legal")
	}
}

// Through a real socket a step adds at most gorilla's writev list for a
// reply larger than its write buffer (two allocations, 72 bytes), whatever
// the batch size: no garbage in proportion to the batch.
func TestWireStepThroughTheSocketAllocatesLittle(t *testing.T) {
	for _, n := range []int{64, 1024} {
		c, frame := stepFixture(t, n, nil)
		c.ws = socketPair(t, c.s)
		v := c.batches[1].v
		data := frame[len(frame)-4*v.Len():]
		step := func() {
			for i := range v.Len() {
				binary.LittleEndian.PutUint32(data[4*i:], uint32(firstLegalIndex(v.Mask[i*v.Spec.NumActions:(i+1)*v.Spec.NumActions])))
			}
			r, _ := c.handle(frame)
			c.forgetRequest()
			c.count(r)
			require.True(t, c.writeReply(r))
		}
		for range 3 {
			step()
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		allocs := testing.AllocsPerRun(100, step)
		runtime.ReadMemStats(&after)
		bytes := float64(after.TotalAlloc-before.TotalAlloc) / 101
		require.LessOrEqual(t, allocs, 2.0, "%d envs", n)
		require.Less(t, bytes, 256.0, "bytes per step, %d envs", n)
	}
}

// socketPair upgrades a loopback connection with the server's upgrader and
// returns the server's end; the client's end is drained by raw reads, which
// allocate nothing.
func socketPair(t *testing.T, s *Server) *websocket.Conn {
	upgraded := make(chan *websocket.Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := s.upgrader.Upgrade(w, r, nil)
		require.NoError(t, err)
		upgraded <- ws
	}))
	t.Cleanup(srv.Close)
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { client.Close() })
	buf := make([]byte, 1<<20)
	go func() {
		for {
			if _, err := client.UnderlyingConn().Read(buf); err != nil {
				return
			}
		}
	}()
	return <-upgraded
}

func firstLegalIndex(mask []uint8) int {
	for a, ok := range mask {
		if ok == 1 {
			return a
		}
	}
	return 0
}

func BenchmarkServerStep(b *testing.B) {
	c, frame := stepFixture(b, 64, nil)
	v := c.batches[1].v
	data := frame[len(frame)-4*v.Len():]
	b.ReportAllocs()
	for range b.N {
		for i := range v.Len() {
			a := firstLegalIndex(v.Mask[i*v.Spec.NumActions : (i+1)*v.Spec.NumActions])
			binary.LittleEndian.PutUint32(data[4*i:], uint32(a))
		}
		r, _ := c.handle(frame)
		c.forgetRequest()
		c.recycle(r.buf)
	}
}
