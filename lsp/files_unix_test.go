//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestIndexReadsOnlyRegularFilesInside: a FIFO, a symlink to /dev/zero, a
// symlink to a file outside the workspace, a folder and a file over the
// size limit, all with Fortran names, are left out; indexing goes on past
// them, and a symlink to a file inside the workspace is indexed.
func TestIndexReadsOnlyRegularFilesInside(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "secret.f"), "      SUBROUTINE OUTSIDE\n      END\n")
	// Not a Fortran name: LINKED is found only through the symlink.
	write(filepath.Join(dir, "lib", "real.txt"), "      SUBROUTINE LINKED\n      END\n")
	write(filepath.Join(dir, "zz", "good.f"), "      SUBROUTINE GOOD\n      END\n")
	write(filepath.Join(dir, "big.f"), "      SUBROUTINE BIG\n      END\n"+strings.Repeat("C\n", maxIndexedSize/2))
	must(syscall.Mkfifo(filepath.Join(dir, "a_pipe.f"), 0o644))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "a_zero.f")))
	must(os.Symlink(filepath.Join(outside, "secret.f"), filepath.Join(dir, "a_secret.f")))
	must(os.Symlink(outside, filepath.Join(dir, "a_outdir")))
	must(os.Mkdir(filepath.Join(dir, "a_folder.f"), 0o755))
	must(os.Symlink(filepath.Join(dir, "lib", "real.txt"), filepath.Join(dir, "linked.f")))

	c := newClient(t, Options{})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": map[string]any{}}, &res)
	c.notify("initialized", map[string]any{})
	select {
	case <-c.srv.index.done:
	case <-time.After(10 * time.Second):
		t.Fatal("indexing did not finish (stuck on a FIFO or a device?)")
	}
	found := func(name string) bool {
		var syms []protocol.SymbolInformation
		c.call("workspace/symbol", map[string]any{"query": name}, &syms)
		return len(syms) > 0
	}
	for _, name := range []string{"GOOD", "LINKED"} {
		if !found(name) {
			t.Errorf("%s not indexed", name)
		}
	}
	for _, name := range []string{"OUTSIDE", "BIG"} {
		if found(name) {
			t.Errorf("%s indexed", name)
		}
	}
	// A watched-file event naming a file outside is ignored too.
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": pathToURI(filepath.Join(dir, "a_secret.f")), "type": 1},
		map[string]any{"uri": pathToURI(filepath.Join(outside, "secret.f")), "type": 2},
		map[string]any{"uri": pathToURI(filepath.Join(dir, "a_pipe.f")), "type": 2},
	}})
	if found("OUTSIDE") {
		t.Errorf("a watched file outside the workspace was indexed")
	}
}

// TestReadRegularFile refuses FIFOs, devices and folders without
// blocking, and files over the limit whatever Stat says.
func TestReadRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, "/dev/zero", "/dev/null", dir} {
		done := make(chan error, 1)
		go func() { _, err := ReadRegularFile(path, 1<<20); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v", path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading hangs", path)
		}
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 2000), 0o644)
	if _, err := ReadRegularFile(big, 1000); err == nil {
		t.Error("no error for a file over the limit")
	}
	if b, err := ReadRegularFile(big, 2000); err != nil || len(b) != 2000 {
		t.Errorf("a file at the limit: %d bytes, %v", len(b), err)
	}
}
