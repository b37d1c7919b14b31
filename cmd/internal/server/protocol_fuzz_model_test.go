package server

import "slices"

// What the fuzzer knows of a connection's batches, learnt from the
// replies only: it draws valid requests from it (real handles, legal
// actions, real states) and checks later replies against it.

// fuzzBatch is one batch the connection made.
type fuzzBatch struct {
	handle    uint64
	env       string
	n         int // envs
	players   int
	actions   int
	obsShape  []int // one env's observation, as the spec gives it
	seatObs   int   // one seat's observation: a search leaf's row
	dtype     string
	autoreset string
	rewards   [2]float64 // the spec's reward_range
	options   msg        // as the spec reports them
	closed    bool
	// mask is the last batch reply's; known[i] is false until a reply
	// showed env i's row (a reply for one seat zeroes the others' rows).
	mask  []uint8
	known []bool
	rows  []envRow // the last reply's rows, when known
	// started[i]: env i was surely reset (or forked from such an env), so
	// that a step does not wait for its first reset.
	started []bool
	// dealt[i]: env i holds a game (reset, loaded, or forked from such an
	// env); the state of an env never dealt holds an empty table, which
	// loads nowhere (bad_state).
	dealt    []bool
	states   map[int]fuzzState           // the last get_state of each env dealt
	searches [MaxSearchParts]*fuzzSearch // the searches waiting for evaluations, by part
}

// envRow is an env's row of a batch reply, as text to compare: what its
// seat to play sees (observation and mask), and its rewards, flags and
// seat to play. Empty when not known.
type envRow struct{ view, rest string }

// fuzzState is a state read with get_state, and the env's row then.
type fuzzState struct {
	text string
	row  envRow
}

// fuzzSearch is a search a batch holds: what it searches and the leaves it
// waits for.
type fuzzSearch struct {
	part         int
	ids          []int     // the envs searched, in order
	roots        [][]uint8 // their masks when the search started (nil: unknown)
	algorithm    string
	leavesPerEnv int
	packed       bool // mask_bits for mask, legal_priors for priors
	leafEnvs     []int32
	leafMask     []uint8
}

func newFuzzBatch(handle uint64, spec msg) *fuzzBatch {
	b := &fuzzBatch{handle: handle, env: strOf(spec["id"]), n: intOf(spec["num_envs"]), players: intOf(spec["players"]),
		actions: intOf(spec["num_actions"]), obsShape: intsOf(spec["obs_shape"]), dtype: strOf(spec["obs_dtype"]),
		autoreset: strOf(spec["autoreset"]), states: map[int]fuzzState{}}
	b.options, _ = spec["options"].(msg)
	if r := floatsOf(spec["reward_range"]); len(r) == 2 {
		b.rewards = [2]float64{r[0], r[1]}
	}
	b.seatObs = product(b.obsShape)
	if len(b.obsShape) > 1 { // obs_seats all: a row per seat
		b.seatObs /= b.players
	}
	b.mask = make([]uint8, b.n*b.actions)
	b.known, b.started, b.dealt, b.rows = make([]bool, b.n), make([]bool, b.n), make([]bool, b.n), make([]envRow, b.n)
	return b
}

func (b *fuzzBatch) row(i int) []uint8 { return b.mask[i*b.actions : (i+1)*b.actions] }

// legal is env i's legal actions, as far as the model knows them.
func (b *fuzzBatch) legal(i int) []int {
	var out []int
	for a, m := range b.row(i) {
		if m == 1 {
			out = append(out, a)
		}
	}
	return out
}

// steppable reports whether a step of actions must succeed: every env is
// started and known, and each takes a legal action, or 0 where its episode
// is over and waits for the autoreset that the next step does.
func (b *fuzzBatch) steppable(actions []int64) bool {
	for i, a := range actions {
		legal := b.legal(i)
		switch {
		case !b.started[i] || !b.known[i]:
			return false
		case len(legal) == 0 && (b.autoreset == "disabled" || a != 0):
			return false
		case len(legal) > 0 && !slices.Contains(legal, int(a)):
			return false
		}
	}
	return true
}

// searchRoots is each searched env's mask now, as a search starts.
func (b *fuzzBatch) searchRoots(ids []int) [][]uint8 {
	roots := make([][]uint8, len(ids))
	for k, i := range ids {
		if b.known[i] {
			roots[k] = slices.Clone(b.row(i))
		}
	}
	return roots
}

// allIDs is ids, or every env when ids is nil.
func (b *fuzzBatch) allIDs(ids []int) []int {
	if ids == nil {
		return run(0, b.n)
	}
	return ids
}

// sameTable reports whether a state of b loads into c: same env and options.
func (b *fuzzBatch) sameTable(c *fuzzBatch) bool {
	return b.env == c.env && show(b.options) == show(c.options)
}

func product(shape []int) int {
	p := 1
	for _, d := range shape {
		p *= d
	}
	return p
}
