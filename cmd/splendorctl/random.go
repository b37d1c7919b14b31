package main

import (
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// actionStream is the derived-seed stream of the random players' choices,
// kept apart from the deal so that the deal depends on the seed alone.
const actionStream = 1

// game is what random players need of an engine's state (*splendor.State,
// *duel.State), L being the pointer to its legal-action set.
type game[L any] interface {
	Over() bool
	Legal(L)
	Apply(int) error
}

// legalSet is an engine's set of legal action indices.
type legalSet interface {
	Has(int) bool
	Len() int
	Nth(int) int
}

// playRandomly plays s to its end, both games alike, so that play and trace
// make the same choices for a seed: each decision draws a uniformly random
// legal index from rng.Derive(seed, actionStream). visit sees every decision
// (s still before it, its legal set and the choice).
func playRandomly[S game[L], L legalSet](s S, legal L, seed uint64, visit func(legal L, action int)) error {
	r := rng.New(rng.Derive(seed, actionStream))
	for !s.Over() {
		s.Legal(legal)
		a := legal.Nth(r.Intn(legal.Len()))
		visit(legal, a)
		if err := s.Apply(a); err != nil {
			return err
		}
	}
	return nil
}

// splendorRules is what a Splendor game is dealt with: the player count and
// the payment rule (splendor.State.ChoosePayment).
type splendorRules struct {
	players       int
	choosePayment bool
}

// randomGame deals a Splendor game from seed and plays it randomly,
// yielding every decision to visit.
func randomGame(rules splendorRules, seed uint64, visit func(s *splendor.State, legal *splendor.ActionSet, action int)) (splendor.State, error) {
	s, err := splendor.New(rules.players, seed)
	if err != nil {
		return s, err
	}
	s.ChoosePayment = rules.choosePayment
	var legal splendor.ActionSet
	err = playRandomly(&s, &legal, seed, func(legal *splendor.ActionSet, a int) { visit(&s, legal, a) })
	return s, err
}

// legalLists is the legal indices of a set in increasing order, and their labels.
func legalLists(legal legalSet, numActions int, label func(int) string) (indices []int, labels []string) {
	for i := 0; i < numActions; i++ {
		if legal.Has(i) {
			indices = append(indices, i)
			labels = append(labels, label(i))
		}
	}
	return indices, labels
}
