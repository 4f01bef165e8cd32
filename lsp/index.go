package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// The workspace index: after initialized, the Fortran files under the
// workspace folders are parsed in the background, with $/progress when the
// client supports it, so that workspace symbols and definitions reach
// files that are not open. Open documents always win over the index.
//
// The index keeps a summary of each file (hints.FileSummary: its symbols,
// program units, modules, USE'd modules and the names it holds), not its
// tree: LAPACK's trees take about a gigabyte, its summaries a few
// megabytes. A request that needs closed files in full parses again the
// few it needs (index_query.go).

const (
	maxIndexedFiles = 5000
	maxIndexedSize  = 4 << 20
)

type index struct {
	start sync.Once // a second initialized must not index again
	mu    sync.Mutex
	files map[protocol.DocumentURI]*indexEntry
	done  chan struct{}
	trees treeCache // closed files parsed again for requests
	// reparsed counts the closed files parsed again for requests.
	reparsed atomic.Int64
	// reads stamps each reading of a file from disk, in order; gone
	// holds the stamp of each removal, so that a summary read before a
	// newer one was stored, or before its file was deleted, is dropped.
	reads atomic.Int64
	gone  map[protocol.DocumentURI]int64
}

// indexEntry is what the index keeps of one file.
type indexEntry struct {
	path    string // where the file was read, to parse it again
	sum     *hints.FileSummary
	sel     []protocol.Range // the LSP ranges of sum.Symbols' names
	globals []protocol.Range // those of sum.Globals
	stamp   int64            // when the file was read (index.read)
}

func newIndex() *index {
	return &index{files: map[protocol.DocumentURI]*indexEntry{}, gone: map[protocol.DocumentURI]int64{}, done: make(chan struct{}), trees: treeCache{max: treeCacheSize}}
}

// read returns the stamp of a reading of a file from disk that begins
// now, for add.
func (ix *index) read() int64 { return ix.reads.Add(1) }

// add summarizes f, read from path at stamp (index.read), into the index
// under uri, unless the index holds a reading of the file begun later or
// the file was removed since: when the workspace's indexing and a
// watched file's change, or the closing of its document, read the same
// file at once, the later reading wins whichever ends last.
func (ix *index) add(uri protocol.DocumentURI, path string, f *parser.File, stamp int64) {
	e := &indexEntry{path: path, sum: hints.Summarize(f), stamp: stamp}
	e.sel = make([]protocol.Range, len(e.sum.Symbols))
	for i, sy := range e.sum.Symbols {
		e.sel[i] = rangeOf(f, sy.SelStart, sy.SelEnd)
	}
	e.globals = make([]protocol.Range, len(e.sum.Globals))
	for i := range e.sum.Globals {
		e.globals[i] = rangeOf(f, e.sum.Spans[2*i], e.sum.Spans[2*i+1])
	}
	e.sum.Spans = nil
	ix.mu.Lock()
	old, ok := ix.files[uri]
	if ok && old.stamp > stamp || ix.gone[uri] > stamp {
		ix.mu.Unlock()
		return
	}
	if ok || len(ix.files) < maxIndexedFiles {
		ix.files[uri] = e // watched files created later count against the limit too
	}
	ix.mu.Unlock()
	ix.trees.drop(old)
}

// remove drops the file at uri from the index; stamp is when its
// deletion was seen (index.read).
func (ix *index) remove(uri protocol.DocumentURI, stamp int64) {
	ix.mu.Lock()
	old := ix.files[uri]
	if old != nil && old.stamp > stamp {
		ix.mu.Unlock()
		return
	}
	ix.gone[uri] = stamp
	delete(ix.files, uri)
	ix.mu.Unlock()
	ix.trees.drop(old)
}

// all returns the indexed files, sorted by URI.
func (ix *index) all() []indexed {
	ix.mu.Lock()
	out := make([]indexed, 0, len(ix.files))
	for u, e := range ix.files {
		out = append(out, indexed{u, e})
	}
	ix.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].uri < out[j].uri })
	return out
}

type indexed struct {
	uri   protocol.DocumentURI
	entry *indexEntry
}

// Parsing thousands of files makes garbage fast while little of it stays
// alive: the collector would run every few megabytes and take a third of
// the indexing's time. While a server indexes, the heap may grow
// gcPercentIndexing percent between collections instead of GOGC's; the
// setting is the process's, so the first indexing to start saves it and
// the last to end restores it.
const gcPercentIndexing = 400

var lazyGCState struct {
	sync.Mutex
	n   int
	old int
}

// lazyGC raises the collector's percentage and returns the function that
// puts it back.
func lazyGC() func() {
	lazyGCState.Lock()
	if lazyGCState.n++; lazyGCState.n == 1 {
		lazyGCState.old = debug.SetGCPercent(gcPercentIndexing)
		if lazyGCState.old < 0 || lazyGCState.old > gcPercentIndexing { // GOGC=off or already lazier
			debug.SetGCPercent(lazyGCState.old)
		}
	}
	lazyGCState.Unlock()
	return func() {
		lazyGCState.Lock()
		if lazyGCState.n--; lazyGCState.n == 0 {
			debug.SetGCPercent(lazyGCState.old)
		}
		lazyGCState.Unlock()
	}
}

// isFortranFile reports whether a file name has a Fortran extension.
func isFortranFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".f", ".for", ".f77", ".ftn", ".fcm", ".f90", ".f95", ".f03", ".f08", ".hpf":
		return true
	}
	return false
}

// fortranFiles lists the Fortran files under the roots, skipping hidden
// folders and node_modules, at most maxIndexedFiles. Symlinked folders
// are not entered (WalkDir does not follow them); files are checked when
// they are read (indexFile).
func fortranFiles(roots []string) []string {
	var out []string
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || len(out) >= maxIndexedFiles {
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if isFortranFile(path) && (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) {
				out = append(out, path)
			}
			return nil
		})
	}
	return out
}

// indexWorkspace parses the workspace's files in the background.
func (s *Server) indexWorkspace(roots []string, progress bool) {
	defer s.indexDone()
	files := fortranFiles(roots)
	if len(files) > 100 {
		defer debug.FreeOSMemory() // the parses' garbage, at once
		defer lazyGC()()
	}
	token := "pfls-index"
	if progress && len(files) > 0 {
		if err := s.callClient("window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
			progress = false
		}
	}
	report := func(kind string, n int, msg string) {
		if !progress {
			return
		}
		v := map[string]any{"kind": kind}
		switch kind {
		case "begin":
			v["title"] = "pfls: indexing Fortran files"
			v["percentage"] = 0
		case "report":
			v["percentage"] = 100 * n / len(files)
			v["message"] = msg
		case "end":
			v["message"] = msg
		}
		s.notify("$/progress", map[string]any{"token": token, "value": v})
	}
	report("begin", 0, "")
	// One parser per core: files are independent, and the summaries are
	// small, so the trees alive at once are as many as the workers.
	var (
		next    atomic.Int64
		mu      sync.Mutex // orders the progress reports
		indexed int
		wg      sync.WaitGroup
	)
	for range max(1, min(runtime.GOMAXPROCS(0), 8)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) || s.shutDown() {
					return
				}
				s.indexFile(pathToURI(files[i]), files[i])
				mu.Lock()
				if indexed++; indexed%50 == 0 {
					report("report", indexed, fmt.Sprintf("%d of %d files", indexed, len(files)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	report("end", len(files), fmt.Sprintf("%d files indexed", indexed))
	s.log.Printf("indexed %d Fortran files", indexed)
}

// shutDown reports whether the client asked the server to shut down or
// the connection ended: the indexing stops there (and gives the
// collector's setting back).
func (s *Server) shutDown() bool {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state == stateShutdown {
		return true
	}
	if s.conn == nil {
		return false
	}
	select {
	case <-s.conn.Done():
		return true
	default:
		return false
	}
}

// reindexClosed indexes again from disk the document at uri, just closed:
// the disk holds its text now (saved or not), and a client that does not
// watch files says nothing of a save. A file that cannot be read any
// more, or lies outside the workspace folders, is not in the index.
func (s *Server) reindexClosed(uri protocol.DocumentURI) {
	path, ok := uriToPath(uri)
	if !ok || !isFortranFile(path) {
		return
	}
	stamp := s.index.read()
	if f := s.parseFromDisk(path); f == nil || !s.addToIndex(uri, path, f, stamp) {
		s.index.remove(uri, stamp)
	}
}

// closed returns the indexed files that are not open, sorted by URI.
func (s *Server) closed() []indexed {
	open := map[protocol.DocumentURI]bool{}
	for _, d := range s.store.all() {
		open[d.URI] = true
	}
	var out []indexed
	for _, x := range s.index.all() {
		if !open[x.uri] {
			out = append(out, x)
		}
	}
	return out
}

// fileEvent is one change of workspace/didChangeWatchedFiles.
type fileEvent struct {
	URI  protocol.DocumentURI `json:"uri"`
	Type int                  `json:"type"` // 1 created, 2 changed, 3 deleted
}

// didChangeWatchedFiles keeps the index up to date with the disk: a
// created or changed Fortran file is parsed again, a deleted one dropped.
func (s *Server) didChangeWatchedFiles(ctx context.Context, r *request) (any, error) {
	var p struct {
		Changes []fileEvent `json:"changes"`
	}
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	for _, ch := range p.Changes {
		path, ok := uriToPath(ch.URI)
		if !ok || !isFortranFile(path) {
			continue
		}
		if ch.Type == 3 {
			s.index.remove(ch.URI, s.index.read())
			continue
		}
		s.indexFile(ch.URI, path)
	}
	return nil, nil
}

// watchFiles asks a client that can register watchers dynamically to send
// didChangeWatchedFiles for Fortran files.
func (s *Server) watchFiles() {
	params := map[string]any{"registrations": []any{map[string]any{
		"id": "pfls-fortran-files", "method": "workspace/didChangeWatchedFiles",
		"registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": "**/*.{f,F,for,FOR,f77,ftn,fcm,f90,F90,f95,f03,f08,hpf}"},
		}},
	}}}
	if err := s.callClient("client/registerCapability", params, nil); err != nil {
		s.log.Printf("client/registerCapability: %v", err)
	}
}

// indexFile parses the file at path from disk and stores its summary in
// the index under uri.
func (s *Server) indexFile(uri protocol.DocumentURI, path string) {
	stamp := s.index.read()
	if f := s.parseFromDisk(path); f != nil {
		s.addToIndex(uri, path, f, stamp)
	}
}

// addToIndex summarizes f into the index (index.add), and reports
// whether it could: the summary runs the analyses of package hints over
// every file of the workspace, in the background, where a panic would
// end the server; it leaves the file out of the index instead.
func (s *Server) addToIndex(uri protocol.DocumentURI, path string, f *parser.File, stamp int64) bool {
	if msg := try(func() { s.index.add(uri, path, f, stamp) }); msg != "" {
		s.log.Printf("indexing %s: internal error: %s", path, msg)
		return false
	}
	return true
}

// parseFromDisk parses the file at path. Only regular files inside the
// workspace folders (after resolving symlinks) of at most maxIndexedSize
// bytes are read; others give nil: it is not an error for a workspace to
// hold such files.
func (s *Server) parseFromDisk(path string) *parser.File {
	s.mu.Lock()
	roots := s.realRoots
	s.mu.Unlock()
	real, ok := within(path, roots)
	if !ok {
		return nil
	}
	src, err := ReadRegularFile(real, maxIndexedSize)
	if err != nil {
		return nil
	}
	var f *parser.File
	if msg := try(func() { f = parser.Parse(path, src, &parser.Config{Include: parser.IncludeFromDisk, Roots: roots}) }); msg != "" {
		s.log.Printf("indexing %s: internal error: %s", path, msg)
		return nil
	}
	return f
}

// indexDone marks the index complete and publishes the open documents'
// diagnostics again: "module not found" waits for the index.
func (s *Server) indexDone() {
	close(s.index.done)
	for _, d := range s.store.all() {
		s.diags.schedule(d.URI)
	}
}

// moduleNotFoundCode is the code of the warning on a USE of a module that
// is neither in the workspace nor a known library.
const moduleNotFoundCode = "module-not-found"

// libraryModules are the modules a compiler or a library provides: the
// intrinsic modules of Fortran 2018 (every IEEE_ one counts), MPI, OpenMP,
// OpenACC and the HPF library.
var libraryModules = map[string]bool{
	"ISO_FORTRAN_ENV": true, "ISO_C_BINDING": true, "MPI": true, "MPI_F08": true,
	"OMP_LIB": true, "OMP_LIB_KINDS": true, "OPENACC": true, "HPF_LIBRARY": true, "HPF_LOCAL_LIBRARY": true,
}

// moduleDiagnostics warns of each USE in snap of a module that no open
// document, no indexed file and no known library defines. It says nothing
// until the workspace index is complete, nor when the index stopped at its
// file limit (the module may be in a file it left out).
func (s *Server) moduleDiagnostics(snap *Snapshot) []hints.Diagnostic {
	select {
	case <-s.index.done:
	default:
		return nil
	}
	if snap.File == nil {
		return nil
	}
	s.index.mu.Lock()
	full := len(s.index.files) >= maxIndexedFiles
	s.index.mu.Unlock()
	if full {
		return nil
	}
	type use struct {
		stmt *parser.UseStmt
		top  *parser.Unit // positions are relative to the top-level unit
	}
	var uses []use
	for _, top := range snap.File.Units {
		var visit func(u *parser.Unit)
		visit = func(u *parser.Unit) {
			for _, st := range u.Body {
				parser.Inspect(st, func(n parser.Node) bool {
					if us, ok := n.(*parser.UseStmt); ok && us.Module != nil && !knownModule(us.Module.Name) {
						uses = append(uses, use{us, top})
					}
					return true
				})
			}
			for _, k := range u.Contains {
				visit(k)
			}
		}
		visit(top)
	}
	if len(uses) == 0 {
		return nil
	}
	defined := map[string]bool{}
	for _, d := range s.store.all() {
		if d.File == nil {
			continue
		}
		for _, u := range d.File.Units {
			if u.Kind == parser.UnitModule {
				defined[strings.ToUpper(u.Name)] = true
			}
		}
	}
	for _, x := range s.closed() {
		for _, m := range x.entry.sum.Modules {
			defined[m] = true
		}
	}
	var out []hints.Diagnostic
	for _, x := range uses {
		us, top := x.stmt, x.top
		if defined[strings.ToUpper(us.Module.Name)] {
			continue
		}
		start, end := top.Abs(us.Module.Pos()), top.Abs(us.Module.End())
		name := us.Module.Name
		if start >= 0 && start < end && end <= len(snap.File.Src) {
			name = string(snap.File.Src[start:end]) // as written
		}
		out = append(out, hints.Diagnostic{
			Start: start, End: end, Severity: parser.SevWarning, Code: moduleNotFoundCode,
			Message: fmt.Sprintf("module %s not found: it is in no file of the workspace and not a known library", name),
		})
	}
	return out
}

// knownModule reports whether name is a library module.
func knownModule(name string) bool {
	up := strings.ToUpper(name)
	return libraryModules[up] || strings.HasPrefix(up, "IEEE_")
}
