package env

import "github.com/splendor-rl/splendor/internal/rng"

// SampleLegal returns a uniformly random action whose mask byte is 1, or 0
// when none is (an env waiting for its autoreset ignores its action).
func SampleLegal(mask []uint8, r *rng.Rand) int32 {
	legal := 0
	for _, m := range mask {
		legal += int(m)
	}
	if legal == 0 {
		return 0
	}
	k := r.Intn(legal)
	for a, m := range mask {
		if m == 1 {
			if k == 0 {
				return int32(a)
			}
			k--
		}
	}
	panic("env: mask changed while sampling")
}
