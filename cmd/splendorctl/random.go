package main

import (
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// actionStream is the derived-seed stream of the random players' choices,
// kept apart from the deal so that the deal depends on the seed alone.
const actionStream = 1

// randomGame deals a game from seed and yields every decision (the state
// before it, the legal set and the uniformly random choice) to visit.
func randomGame(players int, seed uint64, visit func(s *splendor.State, legal *splendor.ActionSet, action int)) (splendor.State, error) {
	s, err := splendor.New(players, seed)
	if err != nil {
		return s, err
	}
	r := rng.New(rng.Derive(seed, actionStream))
	var legal splendor.ActionSet
	for !s.Over() {
		s.Legal(&legal)
		a := legal.Nth(r.Intn(legal.Len()))
		visit(&s, &legal, a)
		if err := s.Apply(a); err != nil {
			return s, err
		}
	}
	return s, nil
}
