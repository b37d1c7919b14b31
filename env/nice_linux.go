package env

import (
	"runtime"
	"syscall"
)

// lowerPriority runs the calling goroutine on a thread of its own at the
// lowest scheduling priority (nice 19) until it exits, when the thread goes
// with it: the kernel then lets a step that wakes preempt a search at once,
// instead of after a time slice of milliseconds.
func lowerPriority() {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19) // a refusal only costs the priority
}
