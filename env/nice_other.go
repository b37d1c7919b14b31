//go:build !linux

package env

// lowerPriority does nothing where threads have no priority of their own.
func lowerPriority() {}
