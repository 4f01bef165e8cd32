//go:build unix

package gen

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time (user and system, every thread) the process
// has used so far; benchmarks report it per operation, since on a
// shared machine it varies far less than the wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
