// Package rng is the project's only source of chance: a small, portable,
// seeded generator (SplitMix64) whose output depends on nothing but its seed,
// so the same seed gives the same games on every machine and Go version.
// It never touches math/rand's global state.
package rng

import "math/bits"

// Rand is a SplitMix64 generator. Its zero value is a valid generator seeded
// with 0; it is a plain value, so copying it forks the stream.
type Rand struct {
	state uint64
}

// New returns a generator seeded with seed.
func New(seed uint64) Rand {
	return Rand{state: seed}
}

// State is r's whole state: New(r.State()) continues r's stream exactly
// (for saving a game's bots with the game).
func (r *Rand) State() uint64 { return r.state }

// Derive returns a seed for an independent stream named by stream, so that
// components of one game (the deck, each bot) draw from streams that do not
// influence each other.
func Derive(seed, stream uint64) uint64 {
	r := New(seed ^ mix(stream+0x632be59bd9b4e019))
	return r.Uint64()
}

// Uint64 returns the next 64 pseudo-random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix(r.state)
}

// Intn returns a uniform integer in [0, n) without modulo bias (Lemire's
// multiply-and-reject). It panics if n <= 0, which is a programming error.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		panic("rng: Intn with n <= 0")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return int(hi)
}

// Shuffle permutes xs uniformly (Fisher–Yates, drawing from the last
// position down). The order of draws is part of every seeded deal: changing
// it changes every game dealt from a seed.
func Shuffle[T any](r *Rand, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
