package server

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/stretchr/testify/require"
)

func testConfig() Config {
	return Config{MaxMessageBytes: 1 << 20, MaxEnvsPerConnection: 256, MaxEnvsTotal: 512, MaxConnections: 8,
		PingInterval: time.Minute, Workers: 2, Version: "test",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// start serves cfg on a free loopback port and returns the /ws URL; the
// server is drained when the test ends.
func start(t *testing.T, cfg Config) (*Server, string) {
	t.Helper()
	return startWithGrace(t, cfg, strangerGrace)
}

// startWithGrace is start with another stranger grace than a server's.
func startWithGrace(t *testing.T, cfg Config, grace time.Duration) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := New(cfg)
	srv.grace = grace
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv, "ws://" + ln.Addr().String() + "/ws"
}

func dial(t *testing.T, url string) *Client {
	t.Helper()
	c, err := Dial(url)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func seed(s uint64) *wire.Seed {
	v := wire.Seed(s)
	return &v
}

// makeBatch makes and resets n splendor-v1 envs.
func makeBatch(t *testing.T, c *Client, n int, options map[string]any) (wire.MakeReply, wire.BatchReply) {
	t.Helper()
	var made wire.MakeReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: n, Options: options, Seed: seed(1)}, &made))
	var first wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: made.Handle}, &first))
	return made, first
}

// firstLegal picks, for every env, the lowest legal action of its mask.
func firstLegal(mask wire.Tensor) wire.Tensor {
	n, na := mask.Shape[0], mask.Shape[1]
	actions := make([]int32, n)
	for i := range actions {
		for a := 0; a < na; a++ {
			if mask.Data[i*na+a] == 1 {
				actions[i] = int32(a)
				break
			}
		}
	}
	return wire.Int32Tensor(actions, n)
}

func requireCode(t *testing.T, err error, code wire.Code) *wire.Error {
	t.Helper()
	var werr *wire.Error
	require.ErrorAs(t, err, &werr)
	require.Equal(t, code, werr.Code, werr.Message)
	return werr
}

func TestHello(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	var hello wire.HelloReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpHello}, &hello))
	require.Equal(t, wire.ProtocolVersion, hello.Protocol)
	require.Equal(t, "test", hello.Server)
	require.Contains(t, hello.Envs, "splendor-v1")
	require.Equal(t, 256, hello.Limits.MaxEnvsPerConnection)
	require.Equal(t, int64(1<<20), hello.Limits.MaxMessageBytes)
	require.Equal(t, env.DefaultSearchSlots(testConfig().Workers), hello.Limits.SearchSlots, "the default, resolved")
	cfg := testConfig()
	cfg.SearchSlots = 3
	_, url = start(t, cfg)
	require.NoError(t, dial(t, url).Call(wire.Request{Op: wire.OpHello}, &hello))
	require.Equal(t, 3, hello.Limits.SearchSlots)
}

func TestMakeResetStepClose(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 4, map[string]any{"players": 3})
	require.Equal(t, uint64(1), made.Handle)
	require.Equal(t, "splendor-v1", made.Spec.ID)
	require.Equal(t, 4, made.Spec.NumEnvs)
	require.Equal(t, 3, made.Spec.Players)
	require.Equal(t, []int{splendorenv.ObsSize}, made.Spec.ObsShape)
	require.Len(t, made.Spec.ActionLabels, made.Spec.NumActions)

	require.Equal(t, wire.Tensor{Dtype: "uint8", Shape: []int{4, splendorenv.ObsSize}, Data: first.Obs.Data}, first.Obs)
	require.Len(t, first.Obs.Data, 4*splendorenv.ObsSize)
	require.Equal(t, []int{4, made.Spec.NumActions}, first.Mask.Shape)
	require.Equal(t, []int{4, 3}, first.Rewards.Shape)
	require.Equal(t, "float32", first.Rewards.Dtype)
	require.Equal(t, "bool", first.Terminated.Dtype)
	require.Equal(t, "int32", first.ToPlay.Dtype)
	require.Nil(t, first.Ended, "ended is only sent in same_step mode")

	var stepped wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}, &stepped))
	require.NotEqual(t, first.Obs.Data, stepped.Obs.Data)
	require.Equal(t, []byte{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, stepped.ToPlay.Data, "seat 1 to play in every env")

	var closed wire.CloseReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpClose, Handle: made.Handle}, &closed))
	require.True(t, closed.Closed)
	err := c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}, &stepped)
	requireCode(t, err, wire.CodeUnknownHandle)
}

func ptr[T any](v T) *T { return &v }

func TestSameSeedsSameReplies(t *testing.T) {
	_, url := start(t, testConfig())
	a, b := dial(t, url), dial(t, url)
	_, ra := makeBatch(t, a, 8, nil)
	_, rb := makeBatch(t, b, 8, nil)
	for i := 0; i < 20; i++ {
		require.Equal(t, ra.Obs.Data, rb.Obs.Data)
		require.NoError(t, a.Call(wire.Request{Op: wire.OpStep, Handle: 1, Actions: ptr(firstLegal(ra.Mask))}, &ra))
		require.NoError(t, b.Call(wire.Request{Op: wire.OpStep, Handle: 1, Actions: ptr(firstLegal(rb.Mask))}, &rb))
	}
	// Explicit per-env seeds.
	var reseeded wire.BatchReply
	require.NoError(t, a.Call(wire.Request{Op: wire.OpReset, Handle: 1, Seeds: wire.Seeds{1, 2, 3, 4, 5, 6, 7, 8}}, &reseeded))
	var fresh wire.BatchReply
	_, fresh = makeBatch(t, b, 8, nil)
	require.Equal(t, fresh.Obs.Data, reseeded.Obs.Data, "seeds 1..8 deal what make with seed 1 deals")
}

func TestPipelining(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	_, r1 := makeBatch(t, c, 2, nil)
	_, r2 := makeBatch(t, c, 3, nil)
	// Send both steps and a hello before reading any reply.
	id1, err := c.Send(wire.Request{Op: wire.OpStep, Handle: 1, Actions: ptr(firstLegal(r1.Mask))})
	require.NoError(t, err)
	id2, err := c.Send(wire.Request{Op: wire.OpStep, Handle: 2, Actions: ptr(firstLegal(r2.Mask))})
	require.NoError(t, err)
	id3, err := c.Send(wire.Request{Op: wire.OpHello})
	require.NoError(t, err)
	var a, b wire.BatchReply
	var h wire.HelloReply
	require.NoError(t, c.Recv(&a))
	require.NoError(t, c.Recv(&b))
	require.NoError(t, c.Recv(&h))
	require.Equal(t, []uint64{id1, id2, id3}, []uint64{a.ID, b.ID, h.ID}, "replies in request order")
	require.Equal(t, 2, a.Obs.Shape[0])
	require.Equal(t, 3, b.Obs.Shape[0])
}

func TestClientsNeverSeeEachOthersHandles(t *testing.T) {
	_, url := start(t, testConfig())
	a, b := dial(t, url), dial(t, url)
	made, first := makeBatch(t, a, 2, nil)
	err := b.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}, &wire.BatchReply{})
	requireCode(t, err, wire.CodeUnknownHandle)
	requireCode(t, b.Call(wire.Request{Op: wire.OpClose, Handle: made.Handle}, &wire.CloseReply{}), wire.CodeUnknownHandle)
	// a's batch is untouched: its step still works.
	require.NoError(t, a.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}, &wire.BatchReply{}))
}

// An illegal action anywhere refuses the batch, and the next step behaves as
// if the bad one never happened.
func TestIllegalActionChangesNothing(t *testing.T) {
	_, url := start(t, testConfig())
	a, b := dial(t, url), dial(t, url)
	_, ra := makeBatch(t, a, 3, nil)
	_, rb := makeBatch(t, b, 3, nil)
	bad := firstLegal(ra.Mask)
	bad.Data[8] = 71 // env 2: pass, illegal at the start
	err := a.Call(wire.Request{Op: wire.OpStep, Handle: 1, Actions: &bad}, &wire.BatchReply{})
	werr := requireCode(t, err, wire.CodeIllegalAction)
	require.Equal(t, []int{2}, werr.Envs)
	var sa, sb wire.BatchReply
	require.NoError(t, a.Call(wire.Request{Op: wire.OpStep, Handle: 1, Actions: ptr(firstLegal(ra.Mask))}, &sa))
	require.NoError(t, b.Call(wire.Request{Op: wire.OpStep, Handle: 1, Actions: ptr(firstLegal(rb.Mask))}, &sb))
	require.Equal(t, sb.Obs.Data, sa.Obs.Data)
}

func TestBadRequestsGetCodesAndTheConnectionStaysUsable(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	_, first := makeBatch(t, c, 2, nil)
	cases := []struct {
		name string
		send func() error
		code wire.Code
	}{
		{"malformed msgpack", func() error { return c.SendRaw(2, []byte{0xc1, 0xff, 0x00}) }, wire.CodeBadRequest},
		{"not a map", func() error { return c.SendRaw(2, []byte{0x93, 1, 2, 3}) }, wire.CodeBadRequest},
		{"text frame", func() error { return c.SendRaw(1, []byte(`{"op":"hello"}`)) }, wire.CodeBadRequest},
		{"unknown field", sendMap(c, map[string]any{"id": 1, "op": "hello", "colour": "red"}), wire.CodeBadRequest},
		{"wrong type", sendMap(c, map[string]any{"id": 1, "op": "make", "num_envs": "many"}), wire.CodeBadRequest},
		{"unknown op", sendMap(c, map[string]any{"id": 1, "op": "teleport"}), wire.CodeUnknownOp},
		{"unknown env", sendReq(c, wire.Request{Op: "make", Env: "chess-v1", NumEnvs: 1}), wire.CodeUnknownEnv},
		{"bad option", sendReq(c, wire.Request{Op: "make", Env: "splendor-v1", NumEnvs: 1, Options: map[string]any{"players": 9}}), wire.CodeBadOption},
		{"zero envs", sendReq(c, wire.Request{Op: "make", Env: "splendor-v1"}), wire.CodeBadOption},
		{"negative seed", sendMap(c, map[string]any{"id": 1, "op": "make", "env": "splendor-v1", "num_envs": 1, "seed": -5}), wire.CodeBadSeed},
		{"float seed", sendMap(c, map[string]any{"id": 1, "op": "reset", "handle": 1, "seeds": []any{1.5, 2}}), wire.CodeBadSeed},
		{"too few seeds", sendReq(c, wire.Request{Op: "reset", Handle: 1, Seeds: wire.Seeds{1}}), wire.CodeBadShape},
		{"nil env id", sendMap(c, map[string]any{"id": 1, "op": "reset", "handle": 1, "env_ids": []any{nil}}), wire.CodeBadRequest},
		{"env id out of range", sendReq(c, wire.Request{Op: "reset", Handle: 1, EnvIDs: []int{5}}), wire.CodeBadShape},
		{"too few actions", sendReq(c, wire.Request{Op: "step", Handle: 1, Actions: ptr(wire.Int32Tensor([]int32{0}, 1))}), wire.CodeBadShape},
		{"float actions", sendReq(c, wire.Request{Op: "step", Handle: 1, Actions: ptr(wire.Float32Tensor([]float32{0, 0}, 2))}), wire.CodeBadRequest},
		{"short data", sendReq(c, wire.Request{Op: "step", Handle: 1, Actions: &wire.Tensor{Dtype: "int32", Shape: []int{2}, Data: []byte{0}}}), wire.CodeBadShape},
		{"no actions", sendReq(c, wire.Request{Op: "step", Handle: 1}), wire.CodeBadRequest},
		{"huge action", sendReq(c, wire.Request{Op: "step", Handle: 1, Actions: &wire.Tensor{Dtype: "int64", Shape: []int{2},
			Data: []byte{0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}}), wire.CodeIllegalAction},
		{"unknown handle", sendReq(c, wire.Request{Op: "reset", Handle: 99}), wire.CodeUnknownHandle},
		{"too many envs", sendReq(c, wire.Request{Op: "make", Env: "splendor-v1", NumEnvs: 255}), wire.CodeLimit},
	}
	for _, tc := range cases {
		require.NoError(t, tc.send(), tc.name)
		requireCode(t, c.Recv(&wire.BatchReply{}), tc.code)
	}
	var stepped wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: 1, Actions: ptr(firstLegal(first.Mask))}, &stepped),
		"after all that, the batch steps as if nothing happened")
}

// A negative id or handle is refused, not read as 2^64 − 1: the reply
// carries id 0 when the id is what was refused, the request's otherwise.
func TestNegativeIDsAreRefusedNotWrapped(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	for _, tc := range []struct {
		request map[string]any
		id      uint64
		says    string
	}{
		{map[string]any{"id": -1, "op": "hello"}, 0, "id -1 is negative"},
		{map[string]any{"id": 7, "op": "close", "handle": -1}, 7, "handle -1 is negative"},
		{map[string]any{"id": 8, "op": "make", "env": "splendor-v1", "num_envs": uint64(1<<64 - 1)}, 8,
			"num_envs 18446744073709551615 is out of range"},
	} {
		require.NoError(t, sendMap(c, tc.request)())
		werr := requireCode(t, c.Recv(&wire.CloseReply{}), wire.CodeBadRequest)
		require.Contains(t, werr.Message, tc.says)
		var reply wire.ErrorReply
		require.NoError(t, decodeFrame(c.in.Bytes(), &reply))
		require.Equal(t, tc.id, reply.ID, "%v", tc.request)
	}
}

func sendReq(c *Client, req wire.Request) func() error {
	return func() error { _, err := c.Send(req); return err }
}

func sendMap(c *Client, m map[string]any) func() error {
	return func() error {
		frame, err := encodeMap(m)
		if err != nil {
			return err
		}
		return c.SendRaw(2, frame)
	}
}

func TestTotalEnvLimitAcrossConnections(t *testing.T) {
	_, url := start(t, testConfig()) // 512 in total, 256 per connection
	a, b, c := dial(t, url), dial(t, url), dial(t, url)
	makeBatch(t, a, 256, nil)
	makeBatch(t, b, 200, nil)
	err := c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 100}, &wire.MakeReply{})
	requireCode(t, err, wire.CodeLimit)
	require.NoError(t, b.Call(wire.Request{Op: wire.OpClose, Handle: 1}, &wire.CloseReply{}))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 100}, &wire.MakeReply{}))
}

func TestDisconnectFreesEnvs(t *testing.T) {
	srv, url := start(t, testConfig())
	a := dial(t, url)
	makeBatch(t, a, 256, nil)
	// Disconnect with a step in flight.
	_, err := a.Send(wire.Request{Op: wire.OpStep, Handle: 1, Actions: ptr(wire.Int32Tensor(make([]int32, 256), 256))})
	require.NoError(t, err)
	a.Close()
	require.Eventually(t, func() bool { return srv.envs.used.Load() == 0 }, 5*time.Second, 10*time.Millisecond)
	require.Eventually(t, func() bool { return health(t, url).Connections == 0 }, 5*time.Second, 10*time.Millisecond)
}

type healthStatus struct {
	Status      string `json:"status"`
	Connections int    `json:"connections"`
	Envs        int64  `json:"envs"`
}

func health(t *testing.T, url string) healthStatus {
	resp, err := http.Get(strings.Replace(strings.TrimSuffix(url, "/ws"), "ws://", "http://", 1) + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	var h healthStatus
	require.NoError(t, jsonDecode(resp.Body, &h))
	return h
}
