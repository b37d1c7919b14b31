package main

import (
	"fmt"
	"io"
	"time"

	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/duelenv"     // registers splendor-duel-v1
	_ "github.com/splendor-rl/splendor/env/splendorenv" // registers splendor-v1
	"github.com/splendor-rl/splendor/internal/rng"
)

// bench measures env-steps per second: batched steps of num-envs envs with
// uniformly random legal actions drawn from the masks, as a client would.
func bench(args []string, out io.Writer) error {
	fs := newFlagSet("bench")
	mode := fs.String("mode", "inproc", "inproc: step a Vector in this process; wire: through a loopback server in this process")
	id := fs.String("env", "splendor-v1", "env id: splendor-v1 or splendor-duel-v1")
	numEnvs := fs.Int("num-envs", 1024, "envs stepped per batch (inproc; wire measures batches of 1, 64 and 1024)")
	seconds := fs.Float64("seconds", 10, "seconds per measurement (fractions allowed)")
	dtype := fs.String("obs-dtype", "uint8", "observation dtype: uint8 or float32")
	if done, err := fs.parse(args, out); done {
		return err
	}
	if *numEnvs < 1 || *seconds <= 0 {
		return fs.badf("--num-envs must be at least 1 and --seconds positive")
	}
	duration := time.Duration(*seconds * float64(time.Second))
	switch *mode {
	case "inproc":
	case "wire":
		fmt.Fprintf(out, "%s self-play, %s observations, %.0fs per measurement\n", *id, *dtype, *seconds)
		return benchWire(out, *id, env.Options{"obs_dtype": *dtype}, duration)
	default:
		return fs.badf("unknown --mode %q (known: inproc, wire)", *mode)
	}
	fmt.Fprintf(out, "%s, %d envs, %s observations, %d workers, %.0fs per line\n",
		*id, *numEnvs, *dtype, env.DefaultPool().Workers(), *seconds)
	fmt.Fprintf(out, "%-30s %14s %16s\n", "", "env-steps/s", "with sampling")
	for _, play := range []env.Options{
		{"mode": "self_play"},
		{"mode": "vs_bots", "bots": "random"},
		{"mode": "vs_bots", "bots": "greedy"},
	} {
		play["obs_dtype"] = *dtype
		rate, err := stepRate(*id, *numEnvs, play, duration)
		if err != nil {
			return err
		}
		label := fmt.Sprint(play["mode"])
		if bots, ok := play["bots"]; ok {
			label += " (" + fmt.Sprint(bots) + " bots)"
		}
		fmt.Fprintf(out, "inproc  %-22s %14.0f %16.0f\n", label, rate.env, rate.loop)
	}
	return nil
}

// rates are env-steps per second of a bench: counting the time in Step only
// (what the env costs; a client's policy is its own), and counting the whole
// loop, whose random legal actions one goroutine draws.
type rates struct{ env, loop float64 }

// stepRate steps a fresh Vector for about d.
func stepRate(id string, n int, opts env.Options, d time.Duration) (rates, error) {
	v, err := env.Make(id, n, opts, 1, nil)
	if err != nil {
		return rates{}, err
	}
	if err := v.Reset(nil, nil); err != nil {
		return rates{}, err
	}
	r := rng.New(1)
	actions := make([]int32, n)
	na := v.Spec.NumActions
	steps, stepping := 0, time.Duration(0)
	start := time.Now()
	for time.Since(start) < d {
		for i := range actions {
			actions[i] = env.SampleLegal(v.Mask[i*na:(i+1)*na], &r)
		}
		t := time.Now()
		if err := v.Step(actions); err != nil {
			return rates{}, err
		}
		stepping += time.Since(t)
		steps += n
	}
	return rates{env: float64(steps) / stepping.Seconds(), loop: float64(steps) / time.Since(start).Seconds()}, nil
}
