package mpirun

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// What the machine is doing: pfls train checks the load before each run
// and records it, with the processor's name, in the model's provenance.

// CPUModel is the processor's name from /proc/cpuinfo ("" elsewhere).
func CPUModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if k, v, ok := bytes.Cut(l, []byte(":")); ok && strings.TrimSpace(string(k)) == "model name" {
			return strings.TrimSpace(string(v))
		}
	}
	return ""
}

// Busy watches /proc/stat for d and returns the share of all CPU
// time spent outside the idle and iowait states, and the load average.
// Where /proc is not there it says 0 and "unknown".
func Busy(d time.Duration) (float64, string) {
	read := func() (busy, total float64, ok bool) {
		data, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0, false
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		f := strings.Fields(string(line))
		if len(f) < 5 || f[0] != "cpu" {
			return 0, 0, false
		}
		for i, s := range f[1:] {
			v, _ := strconv.ParseFloat(s, 64)
			total += v
			if i != 3 && i != 4 { // idle, iowait
				busy += v
			}
		}
		return busy, total, true
	}
	b0, t0, ok0 := read()
	time.Sleep(d)
	b1, t1, ok1 := read()
	loadavg := "unknown"
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(data)); len(f) > 0 {
			loadavg = f[0]
		}
	}
	if !ok0 || !ok1 || t1 <= t0 {
		return 0, loadavg
	}
	return (b1 - b0) / (t1 - t0), loadavg
}
