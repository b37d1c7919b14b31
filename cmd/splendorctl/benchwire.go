package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"time"

	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
)

// wireBatches are the batch sizes the wire benchmark measures.
var wireBatches = []int{1, 64, 1024}

// benchWire serves on a loopback port inside this process and steps batches
// through a Go client, printing env-steps/s and round-trip latency next to
// the in-process rate of the same batch.
func benchWire(out io.Writer, id string, opts env.Options, d time.Duration) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := server.New(server.Config{MaxMessageBytes: 16 << 20, MaxEnvsPerConnection: 1 << 16,
		MaxEnvsTotal: 1 << 16, MaxConnections: 4, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	url := "ws://" + ln.Addr().String() + "/ws"
	fmt.Fprintf(out, "%-7s %6s %14s %14s %8s %10s %10s\n", "", "batch", "wire steps/s", "inproc", "ratio", "p50 rtt", "p99 rtt")
	for _, n := range wireBatches {
		inprocRates, err := stepRate(id, n, opts, d)
		if err != nil {
			return err
		}
		inproc := inprocRates.loop // both loops draw their actions the same way
		rate, p50, p99, err := wireRate(url, id, n, opts, d)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%-7s %6d %14.0f %14.0f %7.0f%% %10s %10s\n", "wire", n, rate, inproc, 100*rate/inproc,
			p50.Round(time.Microsecond), p99.Round(time.Microsecond))
	}
	return nil
}

// wireRate steps a batch of n over the wire for about d.
func wireRate(url, id string, n int, opts env.Options, d time.Duration) (rate float64, p50, p99 time.Duration, err error) {
	c, err := server.Dial(url)
	if err != nil {
		return 0, 0, 0, err
	}
	defer c.Close()
	var made wire.MakeReply
	if err := c.Call(wire.Request{Op: wire.OpMake, Env: id, NumEnvs: n, Options: opts}, &made); err != nil {
		return 0, 0, 0, err
	}
	var reply wire.BatchReply
	if err := c.Call(wire.Request{Op: wire.OpReset, Handle: made.Handle}, &reply); err != nil {
		return 0, 0, 0, err
	}
	r := rng.New(1)
	actions := make([]int32, n)
	na := made.Spec.NumActions
	var rtts []time.Duration
	start := time.Now()
	for time.Since(start) < d {
		for i := range actions {
			actions[i] = env.SampleLegal(reply.Mask.Data[i*na:(i+1)*na], &r)
		}
		sent := time.Now()
		req := wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: &wire.Tensor{}}
		*req.Actions = wire.Int32Tensor(actions, n)
		if err := c.Call(req, &reply); err != nil {
			return 0, 0, 0, err
		}
		rtts = append(rtts, time.Since(sent))
	}
	elapsed := time.Since(start)
	slices.Sort(rtts)
	return float64(len(rtts)*n) / elapsed.Seconds(), rtts[len(rtts)/2], rtts[len(rtts)*99/100], nil
}
