package server

import (
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
)

// BenchmarkWireStep: one op is one step of 1024 envs over loopback, client
// included, as the wire bench measures it.
func BenchmarkWireStep(b *testing.B) {
	cfg := testConfig()
	cfg.MaxEnvsPerConnection, cfg.MaxEnvsTotal = 1024, 1024
	_, url := start(&testing.T{}, cfg)
	c, err := Dial(url)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var made wire.MakeReply
	if err := c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1024}, &made); err != nil {
		b.Fatal(err)
	}
	var reply wire.BatchReply
	if err := c.Call(wire.Request{Op: wire.OpReset, Handle: made.Handle}, &reply); err != nil {
		b.Fatal(err)
	}
	r := rng.New(1)
	actions := make([]int32, 1024)
	na := made.Spec.NumActions
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range actions {
			actions[k] = env.SampleLegal(reply.Mask.Data[k*na:(k+1)*na], &r)
		}
		t := wire.Int32Tensor(actions, 1024)
		if err := c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: &t}, &reply); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*1024)/b.Elapsed().Seconds(), "env-steps/s")
}
