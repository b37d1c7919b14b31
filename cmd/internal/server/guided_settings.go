package server

import (
	"fmt"
	"math"
	"reflect"

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
	case "pb_c_init":
		set.PbCInit, err = x, in(0, 1e6)
	case "gumbel_scale":
		set.GumbelScale, err = x, in(0, 1e6)
	case "value_scale":
		set.ValueScale, err = x, in(0, 1e6)
	case "pb_c_base":
		set.PbCBase, err = x, in(1e-6, 1e9)
	case "maxvisit_init":
		set.MaxvisitInit, err = x, in(1e-6, 1e9)
	case "dirichlet_alpha":
		set.DirichletAlpha, err = x, in(1e-6, 1e9)
	case "dirichlet_fraction":
		set.DirichletFraction, err = x, in(0, 1)
	default:
		err = fmt.Errorf("unknown setting %q (known: algorithm, simulations, leaves_per_env, playouts, pb_c_init, "+
			"pb_c_base, dirichlet_alpha, dirichlet_fraction, max_num_considered_actions, gumbel_scale, maxvisit_init, value_scale)", key)
	}
	return err
}

// number is a msgpack number as a float64 (the decoder picks the
// narrowest type of each).
func number(v any) (float64, bool) {
	switch n := reflect.ValueOf(v); n.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(n.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(n.Uint()), true
	case reflect.Float32, reflect.Float64:
		return n.Float(), true
	}
	return 0, false
}
