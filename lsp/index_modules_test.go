package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pfls/pfls/parser"
)

// TestModuleNotFound: a USE of a module that neither the workspace nor a
// library defines is a warning, once the index is complete and not before;
// modules of indexed files, open documents and libraries are found.
func TestModuleNotFound(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shared.f90"), []byte("module shared\n  integer :: n\nend module shared\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": map[string]any{}}, &res)
	uri := pathToURI(filepath.Join(dir, "main.f90"))
	text := "program main\n  use shared\n  use, intrinsic :: iso_c_binding\n  use ieee_arithmetic\n  use mpi\n  use openacc\n  use open_mod\n  use nowhere\n" +
		"contains\n  subroutine s\n    use Missing_Too, only: x\n  end subroutine\nend program\n"
	c.open(uri, text)
	c.open(pathToURI(filepath.Join(dir, "open.f90")), "module open_mod\nend module\n")
	// While the index is loading: nothing.
	c.waitDiags(uri, 1)
	if ds := c.srv.moduleDiagnostics(c.srv.store.get(uri)); ds != nil {
		t.Fatalf("module diagnostics before the index: %+v", ds)
	}
	c.notify("initialized", map[string]any{})
	deadline := time.After(10 * time.Second)
	for {
		var p struct {
			diags []string
		}
		select {
		case d := <-c.diags:
			if d.URI != uri {
				continue
			}
			for _, x := range d.Diagnostics {
				if x.Code == moduleNotFoundCode {
					if x.Severity != 2 {
						t.Errorf("severity %v", x.Severity)
					}
					line := strings.Split(text, "\n")[x.Range.Start.Line]
					p.diags = append(p.diags, line[x.Range.Start.Character:x.Range.End.Character])
				}
			}
			if len(p.diags) == 0 {
				continue
			}
			if strings.Join(p.diags, " ") != "nowhere Missing_Too" {
				t.Fatalf("module-not-found on %q, want nowhere and Missing_Too", p.diags)
			}
			return
		case <-deadline:
			t.Fatal("no module-not-found diagnostic after indexing")
		}
	}
}

// moduleServer is a server whose complete index holds the Fortran files
// under root, returned parsed.
func moduleServer(t *testing.T, root string) (*Server, []*Snapshot) {
	s := NewServer(Options{})
	var files []*Snapshot
	for _, path := range fortranFiles([]string{root}) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := parser.Parse(path, src, &parser.Config{})
		s.index.add(pathToURI(path), path, f, s.index.read())
		files = append(files, &Snapshot{URI: pathToURI(path), File: f})
	}
	close(s.index.done)
	return s, files
}

// No module-not-found in the programs suite, nor in LAPACK (from
// PFLS_CORPUS, skipped without it), whose .f90 files use LA_CONSTANTS and
// LA_XISNAN (a .F90 file) and whose tests use omp_lib.
func TestModuleNotFoundNoFalsePositives(t *testing.T) {
	roots := []string{filepath.Join("..", "hints", "testdata", "programs")}
	if root := os.Getenv("PFLS_CORPUS"); root != "" {
		roots = append(roots, root)
	} else {
		t.Log("PFLS_CORPUS unset: the LAPACK corpus is skipped")
	}
	for _, root := range roots {
		s, files := moduleServer(t, root)
		uses := 0
		for _, x := range files {
			for _, u := range x.File.Units {
				if u.Scope != nil {
					uses += len(u.Scope.Uses)
				}
			}
			for _, d := range s.moduleDiagnostics(x) {
				t.Errorf("%s: %s", x.File.Name, d.Message)
			}
		}
		t.Logf("%s: %d files, %d USE statements, no module-not-found", root, len(files), uses)
		if uses == 0 {
			t.Errorf("%s: no USE statement checked", root)
		}
	}
}
