package gen

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ResidentMB is the resident set of the process in MB, read from
// /proc/self/status (Linux); 0 elsewhere.
func ResidentMB() float64 {
	return procStatusMB("VmRSS:")
}

// PeakResidentMB is the largest resident set the process has had (MB,
// Linux; 0 elsewhere).
func PeakResidentMB() float64 {
	return procStatusMB("VmHWM:")
}

func procStatusMB(key string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key) {
			f := strings.Fields(l)
			if len(f) < 2 {
				return 0
			}
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

// CPUTimer reports a benchmark's CPU time per operation ("cpu-ms/op")
// beside its wall time: start it after the set-up, call Stop once the
// loop ends.
type CPUTimer struct {
	b     *testing.B
	start time.Duration
}

// StartCPU starts measuring the CPU time of b's loop; it resets b's timer.
func StartCPU(b *testing.B) *CPUTimer {
	b.ResetTimer()
	return &CPUTimer{b: b, start: CPUTime()}
}

// Stop reports the CPU time per operation since StartCPU.
func (t *CPUTimer) Stop() { t.StopBytes(0) }

// StopBytes reports the CPU time per operation since StartCPU and, when
// each operation handles n bytes, the throughput per second of CPU time
// ("cpu-MB/s").
func (t *CPUTimer) StopBytes(n int64) {
	t.b.StopTimer()
	used := CPUTime() - t.start
	if used <= 0 || t.b.N <= 0 {
		return
	}
	t.b.ReportMetric(float64(used)/float64(time.Millisecond)/float64(t.b.N), "cpu-ms/op")
	if n > 0 {
		t.b.ReportMetric(float64(n)*float64(t.b.N)/1e6/used.Seconds(), "cpu-MB/s")
	}
}
