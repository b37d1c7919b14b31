package env

import (
	"runtime"
	"sync"
)

// Pool is a fixed set of worker goroutines that step slices of envs. One pool
// can serve every Vector of a server, so total parallelism stays at the
// number of cores however many clients step at once.
//
// A batch is handed out in chunks from a shared count: the calling goroutine
// starts on it at once and the workers it wakes take chunks as they arrive
// (waking one costs tens of microseconds), so nobody waits for a fixed share
// given to a late worker, and a batch the caller finishes alone costs no
// wake-up at all.
type Pool struct {
	jobs    chan *Vector // a batch to help with
	workers int
}

// stepChunk is how many envs a goroutine takes at a time to step: a few
// microseconds of work, so the last chunk leaves little to wait for.
const stepChunk = 32

// NewPool starts workers goroutines (at least 1).
func NewPool(workers int) *Pool {
	workers = max(workers, 1)
	p := &Pool{jobs: make(chan *Vector, 4*workers), workers: workers}
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

func (p *Pool) work() {
	for v := range p.jobs {
		if v.claim() {
			v.finished <- struct{}{}
		}
	}
}

// run calls v.work over [0, n) in chunks of chunk envs, on the calling
// goroutine and on as many workers as there are chunks to share, and
// returns once all are done. A panic in any chunk is raised here.
func (p *Pool) run(v *Vector, n, chunk int) {
	v.batchSize.Store(int64(n))
	v.chunk.Store(int64(chunk)) // a late worker may read it at any time: atomics, though any chunk size would do
	v.done.Store(0)
	v.remaining.Store(int64(n)) // publishes the batch: claims start here
	for range min(p.workers-1, (n-1)/chunk) {
		select {
		case p.jobs <- v:
		default: // every worker is busy with other batches: the chunks stay for whoever is here
		}
	}
	if !v.claim() {
		<-v.finished // a worker finishes the last chunk
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
