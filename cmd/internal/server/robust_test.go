package server

import (
	"math"
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/stretchr/testify/require"
)

// faultyEnv panics on its third step: a stand-in for a server bug.
type faultyEnv struct{ steps int }

func (f *faultyEnv) Reset(uint64) { f.steps = 0 }
func (f *faultyEnv) Step(int) error {
	if f.steps++; f.steps == 3 {
		panic("faulty env")
	}
	return nil
}
func (f *faultyEnv) Observe(obs []uint8)            { obs[0] = uint8(f.steps) }
func (f *faultyEnv) ObserveSeat(_ int, obs []uint8) { f.Observe(obs) }
func (f *faultyEnv) Mask(mask []uint8)              { mask[0] = 1 }
func (f *faultyEnv) ToPlay() int                    { return 0 }
func (f *faultyEnv) Rewards(r []float32)            { clear(r) }
func (f *faultyEnv) Status() (bool, bool)           { return false, false }
func (f *faultyEnv) Report(obs, mask []uint8, r []float32) (int, bool, bool) {
	if obs != nil {
		f.Observe(obs)
	}
	f.Mask(mask)
	return 0, false, false
}

func init() {
	env.Register(env.Game{ID: "faulty-v0", Make: func(*env.OptionReader) (env.Spec, func() env.Env) {
		return env.Spec{ID: "faulty-v0", Version: 0, ObsShape: []int{1}, NumActions: 1, ActionLabels: []string{"go"},
			Players: 2, Mode: env.SelfPlay}, func() env.Env { return &faultyEnv{} }
	}})
}

// A panic while stepping (here in the pool's worker goroutines) becomes an
// internal error for that request; the batch is closed, the connection and
// the server carry on.
func TestPanicIsContainedToItsBatch(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	var made wire.MakeReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "faulty-v0", NumEnvs: 64}, &made))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: made.Handle}, &wire.BatchReply{}))
	zeros := ptr(wire.Int32Tensor(make([]int32, 64), 64))
	for i := 0; i < 2; i++ {
		require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: zeros}, &wire.BatchReply{}))
	}
	requireCode(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: zeros}, &wire.BatchReply{}), wire.CodeInternal)
	requireCode(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: zeros}, &wire.BatchReply{}), wire.CodeUnknownHandle)
	require.Zero(t, srv.envs.used.Load(), "the broken batch's envs were released")
	makeBatch(t, c, 2, nil) // the connection still works
}

func TestHugeNumEnvsCannotOverflowTheLimits(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	makeBatch(t, c, 1, nil)
	for _, n := range []int{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt32} {
		requireCode(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: n}, &wire.MakeReply{}), wire.CodeLimit)
	}
	require.Equal(t, int64(1), srv.envs.used.Load())
}

func TestRequestsAreCheckedStrictly(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	makeBatch(t, c, 2, nil)
	cases := []struct {
		name string
		send func() error
		code wire.Code
	}{
		{"seed given to reset", sendMap(c, map[string]any{"id": 1, "op": "reset", "handle": 1, "seed": 3}), wire.CodeBadRequest},
		{"actions given to make", sendReq(c, wire.Request{Op: "make", Env: "splendor-v1", NumEnvs: 1, Actions: ptr(wire.Int32Tensor([]int32{0}, 1))}), wire.CodeBadRequest},
		{"nil seed in a list", sendMap(c, map[string]any{"id": 1, "op": "reset", "handle": 1, "seeds": []any{1, nil}}), wire.CodeBadSeed},
		{"env listed twice", sendReq(c, wire.Request{Op: "reset", Handle: 1, EnvIDs: []int{1, 1}}), wire.CodeBadShape},
		{"unknown env before limits", sendReq(c, wire.Request{Op: "make", Env: "chess-v1", NumEnvs: 1 << 30}), wire.CodeUnknownEnv},
	}
	for _, tc := range cases {
		require.NoError(t, tc.send(), tc.name)
		werr := requireCode(t, c.Recv(&wire.BatchReply{}), tc.code)
		require.NotEmpty(t, werr.Message, tc.name)
	}
	err := c.SendRaw(1, []byte("hello"))
	require.NoError(t, err)
	werr := requireCode(t, c.Recv(&wire.HelloReply{}), wire.CodeBadRequest)
	require.Contains(t, werr.Message, "binary")
}

// same_step: the step after an ending clears ended and its final_obs row.
func TestSameStepEndedIsClearedNextStep(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, reply := makeBatch(t, c, 4, map[string]any{"autoreset": "same_step", "max_rounds": 1})
	sawEnd := false
	for step := 0; step < 40; step++ {
		wasEnded := append([]byte(nil), reply.Ended.Data...)
		require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(reply.Mask))}, &reply))
		for i, e := range reply.Ended.Data {
			row := reply.FinalObs.Data[i*splendorenv.ObsSize : (i+1)*splendorenv.ObsSize]
			if e == 0 {
				require.Equal(t, make([]byte, splendorenv.ObsSize), row, "env %d: final_obs row of an env that did not end", i)
			} else {
				sawEnd = true
				require.Equal(t, byte(0), wasEnded[i], "an env cannot end two steps running with max_rounds 1")
			}
		}
	}
	require.True(t, sawEnd)
}
