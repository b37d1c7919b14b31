package env

import (
	"fmt"
	"slices"
	"strings"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"
)

// State ops, for search over the wire: a client can save any env's whole
// state and load it into any env of a batch of the same id and options,
// redeal what the seat to play cannot see, fork envs, and ask a bot. As for
// Reset, nil ids mean every env in order.
//
// An env's state is the Vector's row bookkeeping, then ";", then the env's
// own Snapshot: "seed=S next=N pending=0 over=0 terminated=0 truncated=0
// rewards=3f800000,bf800000; <env snapshot>".

// States returns the state of each env in ids.
func (v *Vector) States(ids []int) ([]string, error) {
	ids = v.idsOrAll(ids)
	if err := v.checkIDs(ids); err != nil {
		return nil, err
	}
	out := make([]string, len(ids))
	for k, i := range ids {
		snap, ok := v.envs[i].(Snapshotter)
		if !ok {
			return nil, fmt.Errorf("%w: %s cannot write its state", ErrBadState, v.Spec.ID)
		}
		out[k] = v.rowState(i) + "; " + snap.Snapshot()
	}
	return out, nil
}

// SetStates loads states[k] into env ids[k]: every state is checked before
// any is loaded, so a refused call changes nothing.
func (v *Vector) SetStates(ids []int, states []string) error {
	ids, err := v.rows(ids, len(states), "states")
	if err != nil {
		return err
	}
	loaded := make([]Env, len(ids))
	rows := make([]rowState, len(ids))
	for k, i := range ids {
		var err error
		if loaded[k], rows[k], err = v.parseState(i, states[k]); err != nil {
			return fmt.Errorf("env %d: %w", i, err)
		}
	}
	for k, i := range ids {
		v.envs[i].(Copier).CopyFrom(loaded[k])
		v.loadRow(i, rows[k])
	}
	return nil
}

// Determinize redeals, in each env of ids, everything its seat to play
// cannot see, from seeds[k]: what information-set search samples (an env
// never dealt stays rows of zeros).
func (v *Vector) Determinize(ids []int, seeds []uint64) error {
	ids, err := v.rows(ids, len(seeds), "seeds")
	if err != nil {
		return err
	}
	if _, ok := v.envs[0].(Resampler); !ok {
		return fmt.Errorf("%w: %s has nothing hidden to redeal", ErrBadState, v.Spec.ID)
	}
	for k, i := range ids {
		v.envs[i].(Resampler).Resample(seeds[k])
		v.reobserve(i) // every seat's view with obs_seats "all": the others' changed
	}
	return nil
}

// Fork copies env src[k]'s whole state into env dst[k] (a search node into
// a free slot) without moving text; a dst listed twice is refused, a src
// may be listed more than once. Every src is read before any dst is
// written (PROTOCOL.md): when a pair would read a row an earlier pair
// wrote, the sources are copied aside first.
func (v *Vector) Fork(src, dst []int) error {
	if len(src) != len(dst) {
		return fmt.Errorf("%w: %d sources for %d destinations", ErrBadShape, len(src), len(dst))
	}
	if err := v.checkIDs(dst); err != nil {
		return err
	}
	for _, i := range src {
		if i < 0 || i >= len(v.envs) {
			return fmt.Errorf("%w: env index %d outside [0, %d)", ErrBadShape, i, len(v.envs))
		}
	}
	if _, ok := v.envs[0].(Cloner); !ok {
		return fmt.Errorf("%w: %s cannot copy its envs", ErrBadState, v.Spec.ID)
	}
	envs, rows := v.envs, []rowState(nil)
	if v.readsWritten(src, dst) { // copying in order would read a row already overwritten
		envs, rows = make([]Env, len(v.envs)), make([]rowState, len(v.envs))
		for _, i := range src {
			envs[i], rows[i] = v.envs[i].(Cloner).Clone(), v.rowOf(i)
		}
	}
	for k := range src {
		if src[k] != dst[k] {
			v.place(dst[k], envs[src[k]], rows, src[k])
		}
	}
	return nil
}

// readsWritten reports whether some src[k] is the dst of an earlier pair.
func (v *Vector) readsWritten(src, dst []int) bool {
	written := make([]bool, len(v.envs))
	for k := range src {
		if written[src[k]] {
			return true
		}
		written[dst[k]] = src[k] != dst[k]
	}
	return false
}

// BotActions returns the action bot (a name bots.Parse reads) would choose
// now in each env of ids, env ids[k] drawing from seeds[k], or, with seeds
// nil, env i from rng.Derive(seed, i); nothing is stepped. An env whose
// episode is over gets −1. The envs think in parallel, one env per worker
// at a time for a search.
func (v *Vector) BotActions(ids []int, bot string, seed uint64, seeds []uint64) ([]int32, error) {
	actions, _, err := v.advise(ids, bot, seed, seeds, false)
	return actions, err
}

// BotTargets are an mcts bot's search targets, row k for the k-th env
// asked: what expert iteration trains a network on.
type BotTargets struct {
	// Policy is [K, NumActions]: the root's visit distribution, zero where
	// an action is illegal, summing to 1; all zeros for an env whose
	// episode is over.
	Policy []float32
	// Value is [K]: the mean outcome share of the seat to play over the
	// search's playouts, on the scale of the terminal rewards
	// (bots.ShareValue); 0 for an env whose episode is over.
	Value []float32
	// Values is [K, Players]: every seat's, from the seat to play's view
	// (bots.Targets), column 0 being Value.
	Values []float32
}

// BotTargets is BotActions for an mcts bot, with its searches' targets, at
// no extra search (a forced move is searched too, for its value), or for a
// bot of a guided search (baseline+search:N, gumbel:N, puct:N), with its
// improved policy and root value. Another bot is refused with
// ErrBadOption: it has no search to learn from.
func (v *Vector) BotTargets(ids []int, bot string, seed uint64, seeds []uint64) ([]int32, *BotTargets, error) {
	return v.advise(ids, bot, seed, seeds, true)
}

// advise is BotActions, with BotTargets when targets is set.
func (v *Vector) advise(ids []int, bot string, seed uint64, seeds []uint64, targets bool) ([]int32, *BotTargets, error) {
	ids = v.idsOrAll(ids)
	seeds, err := v.botSeeds(ids, seed, seeds)
	if err != nil {
		return nil, nil, err
	}
	var t *BotTargets
	na := v.Spec.NumActions
	if targets {
		players := v.Spec.Players
		t = &BotTargets{Policy: make([]float32, len(ids)*na), Value: make([]float32, len(ids)), Values: make([]float32, len(ids)*players)}
	}
	spec, err := v.botSpec(bot, targets)
	if err != nil {
		return nil, nil, err
	}
	out := make([]int32, len(ids))
	v.each = func(k int) {
		i := ids[k]
		out[k] = -1
		if v.pending[i] || v.over[i] || v.stopped.Load() {
			return
		}
		var asked bots.Targets
		if t != nil {
			players := v.Spec.Players
			asked = bots.Targets{Policy: t.Policy[k*na : (k+1)*na], Values: t.Values[k*players : (k+1)*players]}
		}
		out[k] = int32(v.envs[i].(Advisor).BotAction(spec, seeds[k], asked))
		if t != nil {
			t.Value[k] = asked.Values[0]
		}
	}
	if spec.Searches() {
		v.runSearches(len(ids))
	} else {
		v.pool.run(v, len(ids), stepChunk)
	}
	v.each = nil
	if v.stopped.Load() {
		return nil, nil, ErrStopped
	}
	return out, t, nil
}

// botSeeds checks ids and gives each its seed: seeds[k], or with seeds nil
// rng.Derive(seed, i) for env i.
func (v *Vector) botSeeds(ids []int, seed uint64, seeds []uint64) ([]uint64, error) {
	if err := v.checkIDs(ids); err != nil {
		return nil, err
	}
	if seeds == nil {
		seeds = make([]uint64, len(ids))
		for k, i := range ids {
			seeds[k] = rng.Derive(seed, uint64(i))
		}
	}
	if len(seeds) != len(ids) {
		return nil, fmt.Errorf("%w: %d seeds for %d envs", ErrBadShape, len(seeds), len(ids))
	}
	return seeds, nil
}

// botSpec reads a bot's name, refusing a bot the envs do not have, and one
// without a search when targets are asked for.
func (v *Vector) botSpec(bot string, targets bool) (bots.Spec, error) {
	spec, err := bots.Parse(bot)
	if err != nil {
		return spec, fmt.Errorf("%w: %v", ErrBadOption, err)
	}
	a, ok := v.envs[0].(Advisor)
	if !ok {
		return spec, fmt.Errorf("%w: %s has no bots", ErrBadOption, v.Spec.ID)
	}
	if err := a.CanPlay(spec); err != nil {
		return spec, fmt.Errorf("%w: %v", ErrBadOption, err)
	}
	if targets && !spec.Searches() {
		return spec, fmt.Errorf("%w: targets need a bot that searches (mcts, gumbel, puct, baseline+search:N; %s does not)", ErrBadOption, bot)
	}
	return spec, nil
}

// idsOrAll is ids, or every env in order when ids is nil (the wire's
// absent env_ids).
func (v *Vector) idsOrAll(ids []int) []int {
	if ids != nil {
		return ids
	}
	all := make([]int, len(v.envs))
	for i := range all {
		all[i] = i
	}
	return all
}

// rows is ids (nil: every env) checked, given a list of n values (what) for
// them.
func (v *Vector) rows(ids []int, n int, what string) ([]int, error) {
	ids = v.idsOrAll(ids)
	if err := v.checkIDs(ids); err != nil {
		return nil, err
	}
	if n != len(ids) {
		return nil, fmt.Errorf("%w: %d %s for %d envs", ErrBadShape, n, what, len(ids))
	}
	return ids, nil
}

// checkIDs refuses an env index out of range or listed twice.
func (v *Vector) checkIDs(ids []int) error {
	listed := make([]bool, len(v.envs))
	for _, i := range ids {
		if i < 0 || i >= len(v.envs) {
			return fmt.Errorf("%w: env index %d outside [0, %d)", ErrBadShape, i, len(v.envs))
		}
		if listed[i] {
			return fmt.Errorf("%w: env index %d listed twice", ErrBadShape, i)
		}
		listed[i] = true
	}
	return nil
}

// rowState is the Vector's bookkeeping of one env.
type rowState struct {
	seed, next                           uint64
	pending, over, terminated, truncated bool
	fresh                                bool // never dealt (a fresh env's text holds an empty table, which loads nowhere)
	rewards                              []float32
}

func (v *Vector) rowState(i int) string {
	p := v.Spec.Players
	return fmt.Sprintf("seed=%d next=%d pending=%d over=%d terminated=%d truncated=%d rewards=%s",
		v.seeds[i], v.next[i], btoi(v.pending[i]), btoi(v.over[i]), btoi(v.Terminated[i]), btoi(v.Truncated[i]),
		FloatBits(v.Rewards[i*p:(i+1)*p]))
}

// parseState reads a state for env i into a fresh env, checking it.
func (v *Vector) parseState(i int, text string) (Env, rowState, error) {
	row, snapshot, ok := strings.Cut(text, "; ")
	if !ok {
		return nil, rowState{}, fmt.Errorf("%w: want the row fields, \"; \", then the game", ErrBadState)
	}
	rs, err := parseRow(row, v.Spec.Players)
	if err != nil {
		return nil, rs, err
	}
	e, ok := v.envs[i].(Cloner)
	if _, copies := v.envs[i].(Copier); !ok || !copies {
		return nil, rs, fmt.Errorf("%w: %s cannot load states", ErrBadState, v.Spec.ID)
	}
	fresh := e.Clone()
	if err := fresh.(Snapshotter).Restore(snapshot); err != nil {
		return nil, rs, err
	}
	return fresh, rs, nil
}

// parseRow reads the row fields, all of them, in order.
func parseRow(text string, players int) (rowState, error) {
	var rs rowState
	var pending, over, term, trunc int
	var rewards string
	n, err := fmt.Sscanf(text, "seed=%d next=%d pending=%d over=%d terminated=%d truncated=%d rewards=%s",
		&rs.seed, &rs.next, &pending, &over, &term, &trunc, &rewards)
	if err != nil || n != 7 || len(strings.Fields(text)) != 7 {
		return rs, fmt.Errorf("%w: row fields: want exactly seed, next, pending, over, terminated, truncated, rewards", ErrBadState)
	}
	for _, flag := range []int{pending, over, term, trunc} {
		if flag != 0 && flag != 1 {
			return rs, fmt.Errorf("%w: row flags are 0 or 1", ErrBadState)
		}
	}
	rs.pending, rs.over, rs.terminated, rs.truncated = pending == 1, over == 1, term == 1, trunc == 1
	rs.rewards, err = ParseFloatBits(rewards, players)
	return rs, err
}

// loadRow sets env i's bookkeeping and refreshes its row of every buffer.
func (v *Vector) loadRow(i int, rs rowState) {
	v.clearEnded(i)
	v.seeds[i], v.next[i], v.pending[i], v.over[i], v.fresh[i] = rs.seed, rs.next, rs.pending, rs.over, rs.fresh
	v.reobserve(i)
	v.Terminated[i], v.Truncated[i] = rs.terminated, rs.truncated
	copy(v.Rewards[i*v.Spec.Players:], rs.rewards)
}

// reobserve rewrites env i's row of the buffers after its game changed in
// place; an ended (or forfeited) episode, or one never started, keeps an
// empty mask, and an env never dealt rows of zeros.
func (v *Vector) reobserve(i int) {
	na := v.Spec.NumActions
	if v.fresh[i] {
		clear(v.row(v.Obs, i))
		if v.ObsF32 != nil {
			clear(v.ObsF32[i*v.obsSize : (i+1)*v.obsSize])
		}
		clear(v.Mask[i*na : (i+1)*na])
		v.ToPlay[i] = 0
		return
	}
	v.observe(i)
	if v.pending[i] || v.over[i] {
		clear(v.Mask[i*na : (i+1)*na])
	}
}

// rowOf is env i's bookkeeping, as a copy.
func (v *Vector) rowOf(i int) rowState {
	p := v.Spec.Players
	return rowState{seed: v.seeds[i], next: v.next[i], pending: v.pending[i], over: v.over[i],
		terminated: v.Terminated[i], truncated: v.Truncated[i], fresh: v.fresh[i],
		rewards: slices.Clone(v.Rewards[i*p : (i+1)*p])}
}

// place makes env dst a copy of e, with the bookkeeping of row src: rows[src]
// when rows holds copies, else the live row.
func (v *Vector) place(dst int, e Env, rows []rowState, src int) {
	rs := v.rowOf(src)
	if rows != nil {
		rs = rows[src]
	}
	v.envs[dst].(Copier).CopyFrom(e)
	v.loadRow(dst, rs)
}
