package env

import (
	"encoding/binary"
	"math/bits"

	"github.com/splendor-rl/splendor/internal/rng"
)

// SampleLegal returns a uniformly random action whose mask byte is 1, or 0
// when none is (an env waiting for its autoreset ignores its action). Mask
// bytes are 0 or 1, so eight of them are counted at once as the set bits of
// a word.
func SampleLegal(mask []uint8, r *rng.Rand) int32 {
	legal := 0
	words := len(mask) / 8
	for w := 0; w < words; w++ {
		legal += bits.OnesCount64(binary.LittleEndian.Uint64(mask[8*w:]))
	}
	for _, m := range mask[8*words:] {
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

// FirstLegal is the lowest action whose mask byte is 1, or −1 when none is:
// the simplest deterministic player, for tests and tools.
func FirstLegal(mask []uint8) int32 {
	for a, m := range mask {
		if m == 1 {
			return int32(a)
		}
	}
	return -1
}
