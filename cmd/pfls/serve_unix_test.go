//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pfls/pfls/hints"
)

// TestMachineSettingNotRegular: a pfls.estimate.machine setting naming a
// FIFO or a device answers an error at once (the built-in model is used)
// instead of hanging or reading for ever.
func TestMachineSettingNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "model.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	est := newEstimates()
	for _, path := range []string{fifo, "/dev/zero"} {
		done := make(chan error, 1)
		go func() {
			_, err := est.options(hints.EstimateSettings{Procs: 16, Machine: path})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v", path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: loading the machine model hangs", path)
		}
	}
}
