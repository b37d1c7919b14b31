package main

import (
	"fmt"
	"io"
	"time"

	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/encoding/wire"
)

// searcher is one more connection that asks bot_actions with a searching
// bot over its batch again and again while the clients step: what a client
// that searches hard does to the others (the fairness figures of
// docs/server.md). When the run ends it disconnects mid-search.
type searcher struct {
	bot      string
	envs     int
	requests int           // bot_actions answered
	busy     time.Duration // their total round trip
	err      error
}

// search runs the searcher until deadline; done is closed once it has a
// batch and is asking.
func (s *searcher) search(cfg *loadConfig, deadline time.Time, done chan<- struct{}) {
	defer close(done)
	conn, err := server.Dial(cfg.url)
	if err != nil {
		s.err = err
		return
	}
	defer conn.Close()
	var made wire.MakeReply
	if s.err = conn.Call(wire.Request{Op: wire.OpHello, Token: cfg.token}, &wire.HelloReply{}); s.err != nil {
		return
	}
	if s.err = conn.Call(wire.Request{Op: wire.OpMake, Env: cfg.id, NumEnvs: s.envs}, &made); s.err != nil {
		return
	}
	if s.err = conn.Call(wire.Request{Op: wire.OpReset, Handle: made.Handle}, &wire.BatchReply{}); s.err != nil {
		return
	}
	go func() { time.Sleep(time.Until(deadline)); conn.Close() }() // mid-search: the server must not care
	for time.Now().Before(deadline) {
		sent := time.Now()
		if err := conn.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: s.bot}, &wire.ActionsReply{}); err != nil {
			if time.Now().Before(deadline) {
				s.err = err
			}
			return
		}
		s.requests++
		s.busy += time.Since(sent)
	}
}

func (s *searcher) print(out io.Writer) {
	switch {
	case s.err != nil:
		fmt.Fprintf(out, "searcher: %s over %d envs failed: %v\n", s.bot, s.envs, s.err)
	case s.requests == 0:
		fmt.Fprintf(out, "searcher: %s over %d envs, no request answered before the end\n", s.bot, s.envs)
	default:
		fmt.Fprintf(out, "searcher: %s over %d envs, %d requests answered, %.2f s each\n", s.bot, s.envs,
			s.requests, s.busy.Seconds()/float64(s.requests))
	}
}
