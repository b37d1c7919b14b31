package bots

// Targets is where a search writes what a network learns from it; a nil
// slice is not asked for. Policy spans the game's whole action space: the
// root's visit distribution (mcts) or improved policy (a guided search).
// Values is the position's value to every seat as the search found it,
// from the seat to play's view as observations rotate seats: Values[k] is
// seat (ToPlay + k) mod N's, Values[0] the seat to play's own, each on the
// terminal rewards' scale (ShareValue). It holds N values, or 1 when only
// the seat to play's is wanted.
type Targets struct{ Policy, Values []float32 }

// Asked reports that a search must run for these targets, even for a
// forced move.
func (t Targets) Asked() bool { return t.Policy != nil || t.Values != nil }

// writeValues writes values, indexed by seat, into t.Values rotated to
// seat's view.
func (t Targets) writeValues(values *[MaxSeats]float64, seat, players int) {
	for k := range t.Values {
		t.Values[k] = float32(values[(seat+k)%players])
	}
}
