package env

import (
	"sync"
	"sync/atomic"
)

// Searcher is implemented by envs whose built-in bots may search (mcts bots
// in vs-bots mode): their steps and resets run as searches do
// (runSearches).
type Searcher interface {
	// SearchIterations is the iterations of one decision of every seat's
	// searching bot, added up (0: no bot searches).
	SearchIterations() int
}

// DefaultSearchSlots is one fewer than workers, at least one: so that a
// step always finds a core however many clients search.
func DefaultSearchSlots(workers int) int { return max(1, workers-1) }

// SetSearchSlots sets how many searches of the pool's batches run at once
// (DefaultSearchSlots by default), before the pool is used. Searches hold a
// slot one env at a time, so that the searches of several batches take
// turns env by env.
func (p *Pool) SetSearchSlots(n int) { p.searchSlots = make(chan struct{}, max(n, 1)) }

// runSearches calls v.work over [0, n), env by env, each env holding a
// search slot, on as many goroutines as there are slots; a panic in any is
// raised here, as Pool.run does.
func (v *Vector) runSearches(n int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	slots := v.pool.searchSlots
	for range min(n, cap(slots)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lowerPriority()
			for k := int(next.Add(1)) - 1; k < n; k = int(next.Add(1)) - 1 {
				slots <- struct{}{}
				v.workChunk(k, k+1)
				<-slots
			}
		}()
	}
	wg.Wait()
	if r := v.panicked.Swap(nil); r != nil {
		panic(*r)
	}
}

// SearchIterations is an env's Searcher.SearchIterations: how much a step
// may search per env (a server budgets it and watches its client
// meanwhile).
func (v *Vector) SearchIterations() int { return v.searchIterations }

// run calls v.work over [0, n): on the pool in chunks, or, for envs whose
// bots search, as searches.
func (v *Vector) run(n int) {
	if v.searchIterations > 0 {
		v.runSearches(n)
		return
	}
	v.pool.run(v, n, stepChunk)
}
