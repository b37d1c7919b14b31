package main

import (
	tv "github.com/splendor-rl/splendor/env/tableview"
	"github.com/splendor-rl/splendor/internal/rng"
)

// actionStream is the derived-seed stream of the random players' choices,
// kept apart from the deal so that the deal depends on the seed alone.
const actionStream = 1

// playRandomly plays t to its end, every game alike, so that play and trace
// make the same choices for a seed: each decision draws a uniformly random
// legal action from rng.Derive(seed, actionStream). visit sees every
// decision (t still before it, the legal actions and the choice).
func playRandomly(t table, seed uint64, visit func(legal []int, action int)) error {
	r := rng.New(rng.Derive(seed, actionStream))
	var legal []int
	for !t.Over() {
		legal = t.legal(legal[:0])
		a := legal[r.Intn(len(legal))]
		visit(legal, a)
		if err := t.Apply(a); err != nil {
			return err
		}
	}
	return nil
}

// appendLegal appends, increasing, the actions an engine's Legal puts in its
// action set A.
func appendLegal[A any, P interface {
	*A
	Len() int
	Nth(k int) int
}](buf []int, legal func(P)) []int {
	var set A
	legal(&set)
	for k := range P(&set).Len() {
		buf = append(buf, P(&set).Nth(k))
	}
	return buf
}

// refereeBoard is the text board of the referee's view of s.
func refereeBoard[S, V any](s *S, view func(s *S, viewer int) V, board func(v *V) string) string {
	v := view(s, tv.Referee)
	return board(&v)
}
