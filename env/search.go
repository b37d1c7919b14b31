package env

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Searcher is implemented by envs whose built-in bots search (mcts bots in
// vs-bots mode): their steps and resets run as searches do (runSearches).
type Searcher interface {
	Searches() bool
}

// searchSlots bounds the searches running at once in the process to one
// fewer than the cores (at least one), so that a step always finds a core
// however many clients search; searches hold a slot one env at a time, so
// that the searches of several batches take turns env by env.
var searchSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1))

// SearchSlots is how many searches run at once in the process at most: a
// server counts one search tree (bots.TreeBytes) for each.
func SearchSlots() int { return cap(searchSlots) }

// runSearches calls v.work over [0, n), env by env, each env holding a
// search slot, on as many goroutines as there are slots; a panic in any is
// raised here, as Pool.run does.
func (v *Vector) runSearches(n int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, cap(searchSlots)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lowerPriority()
			for k := int(next.Add(1)) - 1; k < n; k = int(next.Add(1)) - 1 {
				searchSlots <- struct{}{}
				v.workChunk(k, k+1)
				<-searchSlots
			}
		}()
	}
	wg.Wait()
	if r := v.panicked.Swap(nil); r != nil {
		panic(*r)
	}
}

// Searches reports whether the envs' bots search, so that a step may take
// seconds (a server watches its client meanwhile).
func (v *Vector) Searches() bool { return v.searches }

// run calls v.work over [0, n): on the pool in chunks, or, for envs whose
// bots search, as searches.
func (v *Vector) run(n int) {
	if v.searches {
		v.runSearches(n)
		return
	}
	v.pool.run(v, n, stepChunk)
}
