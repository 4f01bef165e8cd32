//go:build !unix

package gen

import "time"

// CPUTime is 0 where getrusage is missing: benchmarks then report no
// CPU time.
func CPUTime() time.Duration { return 0 }
