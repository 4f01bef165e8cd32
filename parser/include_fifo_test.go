//go:build unix

package parser

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestIncludeFIFO: INCLUDE of a FIFO once blocked for good.
func TestIncludeFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.inc"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	_, msgs := includeCase(t, dir, map[string]string{"main.f": "      PROGRAM P\n      INCLUDE 'pipe.inc'\n      END\n"}, nil)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "is not a regular file (a FIFO)") {
		t.Errorf("diagnostics %q, want one saying the FIFO is not a regular file", msgs)
	}
}
