package env

import (
	"runtime"
	"syscall"
)

// searchNice is the scheduling priority of search threads: below the step
// workers', so that a step that wakes preempts a search at once instead of
// after a time slice of milliseconds, but not the lowest (19), at which a
// machine busy with other work starved searches (7 to 8 times fewer
// iterations than at 5 beside two busy loops) and held every connection in
// garbage collections that waited for a starved thread (a step's worst
// latency 280 ms against 31 ms): docs/server.md, CPU.
const searchNice = 5

// lowerPriority runs the calling goroutine on a thread of its own at
// searchNice until it exits, when the thread goes with it.
func lowerPriority() {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), searchNice) // a refusal only costs the priority
}
