package server

import (
	"fmt"
	"math"

	"github.com/splendor-rl/splendor/env/bots"
)

// setGuided sets one search setting (PROTOCOL.md §3, search: mctx's
// names) from its msgpack value.
func setGuided(set *bots.GuidedSettings, key string, value any) error {
	if key == "algorithm" {
		switch value {
		case "gumbel":
			set.Algorithm = bots.Gumbel
		case "puct":
			set.Algorithm = bots.PUCT
		default:
			return fmt.Errorf("algorithm: want gumbel or puct, got %v", value)
		}
		return nil
	}
	if key == "playouts" {
		b, ok := value.(bool)
		if !ok {
			return fmt.Errorf("playouts: want a bool, got %v", value)
		}
		set.Playouts = b
		return nil
	}
	x, ok := number(value)
	if !ok {
		return fmt.Errorf("%s: want a number, got %v", key, value)
	}
	return setNumber(set, key, x)
}

func setNumber(set *bots.GuidedSettings, key string, x float64) error {
	in := func(lo, hi float64) error {
		if !(x >= lo && x <= hi) {
			return fmt.Errorf("%s: want a number in [%v, %v], got %v", key, lo, hi, x)
		}
		return nil
	}
	whole := func(lo, hi int) (int, error) {
		if x != math.Trunc(x) || x < float64(lo) || x > float64(hi) {
			return 0, fmt.Errorf("%s: want an integer in [%d, %d], got %v", key, lo, hi, x)
		}
		return int(x), nil
	}
	var err error
	switch key {
	case "simulations":
		set.Simulations, err = whole(1, bots.MaxSimulations)
	case "leaves_per_env":
		set.LeavesPerEnv, err = whole(1, MaxLeavesPerEnv)
	case "max_num_considered_actions":
		set.MaxNumConsideredActions, err = whole(1, 1024)
	case "pb_c_init", "gumbel_scale", "value_scale":
		err = in(0, 1e6)
		*map[string]*float64{"pb_c_init": &set.PbCInit, "gumbel_scale": &set.GumbelScale, "value_scale": &set.ValueScale}[key] = x
	case "pb_c_base", "maxvisit_init", "dirichlet_alpha":
		err = in(1e-6, 1e9)
		*map[string]*float64{"pb_c_base": &set.PbCBase, "maxvisit_init": &set.MaxvisitInit, "dirichlet_alpha": &set.DirichletAlpha}[key] = x
	case "dirichlet_fraction":
		err = in(0, 1)
		set.DirichletFraction = x
	default:
		err = fmt.Errorf("unknown setting %q (known: algorithm, simulations, leaves_per_env, playouts, pb_c_init, "+
			"pb_c_base, dirichlet_alpha, dirichlet_fraction, max_num_considered_actions, gumbel_scale, maxvisit_init, value_scale)", key)
	}
	return err
}

// number is a msgpack number as a float64.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
