package env

import "github.com/splendor-rl/splendor/internal/rng"

// Redeal shuffles the values held at slots among those same slots, for a
// Resampler: every hidden card stays in play and in a place it could be,
// only which one lies where changes.
func Redeal[T any](r *rng.Rand, slots []*T) {
	values := make([]T, len(slots))
	for i, slot := range slots {
		values[i] = *slot
	}
	rng.Shuffle(r, values)
	for i, slot := range slots {
		*slot = values[i]
	}
}
