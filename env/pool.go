package env

import (
	"runtime"
	"sync"
	"time"
)

// Pool is a fixed set of worker goroutines that step slices of envs. One pool
// can serve every Vector of a server, so total parallelism stays at the
// number of cores however many clients step at once.
//
// A batch is handed out in chunks from a shared count: the calling goroutine
// starts on it at once and the workers it wakes take chunks as they arrive,
// so nobody waits for a fixed share given to a late worker, and a batch the
// caller finishes alone costs no wake-up at all.
//
// Waking a sleeping goroutine's thread costs 50–200 µs on a VM whose idle
// cores are halted, as long as a whole 1024-env step; so a worker that was
// handed batches in quick succession polls a while for the next before it
// sleeps, and a caller waiting for a worker's last chunk polls before it
// sleeps too. A client that steps slowly (a network round trip, a neural
// network) makes the workers sleep at once, so the polling costs it nothing.
type Pool struct {
	jobs        chan *Vector // a batch to help with
	workers     int
	searchSlots chan struct{} // runSearches
}

// stepChunk is how many envs a goroutine takes at a time to step: about 15
// µs of work, so the last chunk leaves little to wait for, and 64 so that
// two goroutines never write the same cache line of a batch's flags (64
// bools a line; at 32 envs a chunk, sharing lines cost 10 % of a 2-core
// step).
const stepChunk = 64

// NewPool starts workers goroutines (at least 1).
func NewPool(workers int) *Pool {
	workers = max(workers, 1)
	p := &Pool{jobs: make(chan *Vector, 4*workers), workers: workers}
	p.SetSearchSlots(DefaultSearchSlots(workers))
	for i := 0; i < workers-1; i++ {
		go p.work()
	}
	return p
}

var (
	defaultPool     *Pool
	defaultPoolOnce sync.Once
)

// DefaultPool is a process-wide pool with one worker per core.
func DefaultPool() *Pool {
	defaultPoolOnce.Do(func() { defaultPool = NewPool(runtime.GOMAXPROCS(0)) })
	return defaultPool
}

// Workers is the number of goroutines that step envs, the caller included.
func (p *Pool) Workers() int { return p.workers }

// spinWait is how long a worker polls for the next batch, and a caller for
// a worker's last chunk, before sleeping: long enough for an in-process loop
// to draw 1024 random legal actions (60 µs for Splendor's masks, 180 µs for
// Duel's) or a Python client to turn a 256-env reply around, short enough
// not to take cores from busy connections (measured: 1 ms took 10 % off 16
// clients' throughput, 250 µs nothing).
const spinWait = 250 * time.Microsecond

func (p *Pool) work() {
	quick := false // the last batch was run within spinWait of this worker's idling
	for {
		idle := time.Now()
		v, ok := p.next(quick, idle.Add(spinWait))
		if !ok {
			return
		}
		quick = v.runAt.Load()-idle.UnixNano() < int64(spinWait) // when it was run, not when this worker woke
		if v.claim() {
			v.complete()
		}
	}
}

// next waits for a batch to help with, polling until deadline first when
// asked to; false once the pool is closed.
func (p *Pool) next(poll bool, deadline time.Time) (*Vector, bool) {
	for poll && time.Now().Before(deadline) {
		select {
		case v, ok := <-p.jobs:
			return v, ok
		default:
		}
	}
	v, ok := <-p.jobs
	return v, ok
}

// run calls v.work over [0, n) in chunks of chunk envs, on the calling
// goroutine and on as many workers as there are chunks to share, and
// returns once all are done. A panic in any chunk is raised here.
func (p *Pool) run(v *Vector, n, chunk int) {
	v.batchSize.Store(int64(n))
	v.chunk.Store(int64(chunk)) // a late worker may read it at any time: atomics, though any chunk size would do
	v.done.Store(0)
	v.runAt.Store(time.Now().UnixNano())
	v.remaining.Store(int64(n)) // publishes the batch: claims start here
	for range min(p.workers-1, (n-1)/chunk) {
		select {
		case p.jobs <- v:
		default: // every worker is busy with other batches: the chunks stay for whoever is here
		}
	}
	if !v.claim() {
		v.await() // a worker finishes the last chunk
	}
	if r := v.panicked.Swap(nil); r != nil {
		panic(*r)
	}
}

// claim steps chunks of the current batch until none is left, and reports
// whether this goroutine completed the batch. Chunks are counted down from
// the batch size by one atomic add, so whatever the batch a late worker
// wakes into, its chunk is one nobody else has.
func (v *Vector) claim() bool {
	for {
		chunk := v.chunk.Load()
		end := v.remaining.Add(-chunk) + chunk
		if end <= 0 {
			return false
		}
		lo, hi := int(max(end-chunk, 0)), int(end)
		v.workChunk(lo, hi)
		if v.done.Add(int64(hi-lo)) == v.batchSize.Load() {
			return true
		}
	}
}

// await returns once a worker has completed the batch: it polls until
// spinWait has passed, then sleeps until complete wakes it. parked tells the
// completing worker whether anyone sleeps: whichever of the two flips it
// first decides, so a wake-up is neither lost nor left over for the next
// batch.
func (v *Vector) await() {
	deadline := time.Now().Add(spinWait)
	for time.Now().Before(deadline) {
		if v.done.Load() == v.batchSize.Load() {
			return
		}
	}
	v.parked.Store(true)
	if v.done.Load() == v.batchSize.Load() && v.parked.CompareAndSwap(true, false) {
		return // completed meanwhile, and the worker did not see parked
	}
	<-v.finished
}

// complete wakes the caller if it sleeps in await.
func (v *Vector) complete() {
	if v.parked.CompareAndSwap(true, false) {
		v.finished <- struct{}{}
	}
}

// workChunk runs one chunk; a panic in it is kept for the goroutine that
// called run, instead of killing the process from a worker nobody can
// recover.
func (v *Vector) workChunk(lo, hi int) {
	defer func() {
		if r := recover(); r != nil {
			p := r // a copy only on this path: taking r's address would allocate on every chunk
			v.panicked.CompareAndSwap(nil, &p)
		}
	}()
	v.work(lo, hi)
}

// Close stops the workers once queued work is done; the pool must not be
// used afterwards.
func (p *Pool) Close() { close(p.jobs) }
