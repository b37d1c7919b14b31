package env

import (
	"runtime"
	"sync"
)

// Pool is a fixed set of worker goroutines that step slices of envs. One pool
// can serve every Vector of a server, so total parallelism stays at the
// number of cores however many clients step at once.
type Pool struct {
	jobs    chan job
	workers int
}

type job struct {
	v      *Vector
	lo, hi int
}

// minChunk is the fewest envs worth handing to another goroutine to step:
// below it the hand-off costs more than the steps.
const minChunk = 16

// NewPool starts workers goroutines (at least 1).
func NewPool(workers int) *Pool {
	workers = max(workers, 1)
	p := &Pool{jobs: make(chan job, 4*workers), workers: workers}
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
	for j := range p.jobs {
		p.do(j)
	}
}

// do runs one job; a panic in it is handed to the goroutine that called run,
// instead of killing the process from a worker nobody can recover.
func (p *Pool) do(j job) {
	defer func() {
		if r := recover(); r != nil {
			p := r // a copy only on this path: taking r's address would allocate on every job
			j.v.panicked.CompareAndSwap(nil, &p)
		}
		j.v.wg.Done()
	}()
	j.v.work(j.lo, j.hi)
}

// run calls v.work over [0, n) in up to Workers chunks of at least grain
// envs; the calling goroutine does the last chunk itself so that a pool of
// one runs inline.
func (p *Pool) run(v *Vector, n, grain int) {
	chunks := min(p.workers, max(n/grain, 1))
	size := (n + chunks - 1) / chunks
	lo := 0
	for ; lo+size < n; lo += size {
		v.wg.Add(1)
		p.jobs <- job{v, lo, lo + size}
	}
	v.wg.Add(1)
	p.do(job{v, lo, n})
	v.wg.Wait()
	if r := v.panicked.Swap(nil); r != nil {
		panic(*r)
	}
}

// Close stops the workers once queued work is done; the pool must not be
// used afterwards.
func (p *Pool) Close() { close(p.jobs) }
