package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/splendor-rl/splendor/env"
)

// loadConfig is one load run, as its flags give it (docs/load.md).
type loadConfig struct {
	url       string
	clients   int
	envs      int // per client, one batch
	id        string
	duration  time.Duration
	seed      uint64
	dtype     string
	autoreset string
	token     string
	verify    bool
	json      bool
	search    *searcher // nil: none
}

// load drives a running server with many connections stepping random legal
// actions, and reports throughput, latency, errors, the server's memory and,
// with --verify, whether every trajectory replays identically in process.
func load(args []string, out io.Writer) error {
	cfg, done, err := parseLoad(args, out)
	if done {
		return err
	}
	report, _ := runLoad(cfg, nil)
	printLoad(out, &report)
	if cfg.search != nil {
		cfg.search.print(out)
	}
	if cfg.json {
		if err := printLoadJSON(out, &report); err != nil {
			return err
		}
	}
	return report.failure()
}

// parseLoad reads the flags; done is true when the command must stop (see
// flagSet.parse), with a usage error for settings check refuses.
func parseLoad(args []string, out io.Writer) (cfg loadConfig, done bool, err error) {
	fs := newFlagSet("load")
	fs.StringVar(&cfg.url, "url", "ws://127.0.0.1:8765/ws", "the running server's WebSocket URL")
	fs.IntVar(&cfg.clients, "clients", 4, "connections, one goroutine each")
	fs.IntVar(&cfg.envs, "envs", 64, "envs per connection, stepped as one batch")
	fs.StringVar(&cfg.id, "env", "splendor-v1", "env id: splendor-v1 or splendor-duel-v1")
	seconds := fs.Float64("seconds", 10, "how long the clients step (fractions allowed)")
	fs.Uint64Var(&cfg.seed, "seed", 1, "client c's batch is made with seed S+c*envs; its actions draw from rng.Derive(S, c)")
	fs.StringVar(&cfg.dtype, "dtype", "uint8", "observation dtype: uint8 or float32")
	fs.StringVar(&cfg.autoreset, "autoreset", "next_step", "next_step, same_step or disabled (the client resets ended envs)")
	fs.StringVar(&cfg.token, "token", "", "the server's token, sent in hello")
	fs.BoolVar(&cfg.verify, "verify", false, "replay every trajectory in process and compare digests")
	fs.BoolVar(&cfg.json, "json", false, "also print the report as one JSON line (the last line)")
	cfg.search = &searcher{}
	fs.StringVar(&cfg.search.bot, "search", "", "a searching bot (mcts:…) one more connection asks bot_actions of all along")
	fs.IntVar(&cfg.search.envs, "search-envs", 1024, "the searcher's envs")
	if done, err := fs.parse(args, out); done {
		return cfg, true, err
	}
	cfg.duration = time.Duration(*seconds * float64(time.Second))
	if cfg.search.bot == "" {
		cfg.search = nil
	}
	if err := cfg.check(); err != nil {
		return cfg, true, fs.bad(err)
	}
	return cfg, false, nil
}

// check refuses settings that could only produce errors, before connecting.
func (cfg *loadConfig) check() error {
	switch {
	case cfg.clients < 1 || cfg.envs < 1:
		return fmt.Errorf("--clients and --envs must be at least 1")
	case cfg.duration <= 0:
		return fmt.Errorf("--seconds must be positive")
	case cfg.dtype != "uint8" && cfg.dtype != "float32":
		return fmt.Errorf("unknown --dtype %q (known: uint8, float32)", cfg.dtype)
	}
	switch env.Autoreset(cfg.autoreset) {
	case env.NextStep, env.SameStep, env.Disabled:
		return nil
	}
	return fmt.Errorf("unknown --autoreset %q (known: next_step, same_step, disabled)", cfg.autoreset)
}

// options are the make options of every client's batch, and of its replay.
func (cfg *loadConfig) options() env.Options {
	return env.Options{"obs_dtype": cfg.dtype, "autoreset": cfg.autoreset}
}

// runLoad sets every client up, lets them all step for the duration from
// the same instant, and gathers the report. alter is for tests of --verify:
// it corrupts the replays (nil in the command).
func runLoad(cfg loadConfig, alter alterFunc) (loadReport, []trajectory) {
	rss := startRSS(metricsURL(cfg.url))
	clients := make([]*loadClient, cfg.clients)
	for i := range clients {
		clients[i] = newLoadClient(&cfg, i)
	}
	eachClient(clients, (*loadClient).setup)
	start := time.Now()
	deadline := start.Add(cfg.duration)
	searched := make(chan struct{})
	if cfg.search != nil {
		go cfg.search.search(&cfg, deadline, searched)
	}
	eachClient(clients, func(c *loadClient) { c.play(deadline) })
	elapsed := time.Since(start)
	if cfg.search != nil {
		<-searched
	}
	eachClient(clients, (*loadClient).close)
	report := newLoadReport(&cfg, elapsed, clients)
	report.setRSS(rss.finish())
	trajectories := recorded(clients)
	if cfg.verify {
		report.Trajectories = verifyTrajectories(&cfg, trajectories, alter)
	}
	return report, trajectories
}

// eachClient runs f on every client in its own goroutine and waits for all.
func eachClient(clients []*loadClient, f func(*loadClient)) {
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(c)
		}()
	}
	wg.Wait()
}

// recorded lists the trajectories of the clients that got as far as a reset.
func recorded(clients []*loadClient) []trajectory {
	var out []trajectory
	for _, c := range clients {
		if c.player != nil && c.player.replies > 0 {
			out = append(out, c.trajectory())
		}
	}
	return out
}

// failure is the command's error: any request error or differing trajectory
// makes the exit code non-zero.
func (r *loadReport) failure() error {
	errs := 0
	for _, n := range r.Errors {
		errs += n
	}
	var problems []string
	if errs > 0 {
		problems = append(problems, fmt.Sprintf("%d errors", errs))
	}
	if t := r.Trajectories; t != nil && t.Identical < t.Verified {
		problems = append(problems, fmt.Sprintf("%d of %d trajectories differ", t.Verified-t.Identical, t.Verified))
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("load: %s", strings.Join(problems, ", "))
}
