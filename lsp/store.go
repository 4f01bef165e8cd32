package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// Snapshot is one immutable version of an open document. Seq orders all
// snapshots of the server; Version is the client's number, only echoed.
type Snapshot struct {
	URI     protocol.DocumentURI
	Version int32
	Seq     uint64
	File    *parser.File
	// Broken is set when parsing this version panicked: File then holds
	// the text with no units (so positions still convert), and Broken is
	// the message of the internal-error diagnostic published instead.
	Broken string
	// TooLarge is set when the text is over the store's size limit: File
	// then holds the text with no units, and TooLarge is the message of
	// the one diagnostic published.
	TooLarge string
}

// analysable reports whether the analyses behind Options may run on the
// snapshot: not when it was too large or failed to parse.
func (s *Snapshot) analysable() bool { return s != nil && s.TooLarge == "" && s.Broken == "" }

// MaxDocumentSize is the largest open document that is parsed and
// analysed (bytes), the parser's own file budget. A larger one is kept
// as text, so that edits and versions stay in step, but gets one
// diagnostic instead of analyses. The tree costs about 16 bytes of
// memory per byte of text (parser.BenchmarkMemoryPerByte).
const MaxDocumentSize = 16 << 20

// bigDocument is the size from which opening or replacing a document
// gives the memory freed to the system at once: the message, its
// decoding and the parse's scratch leave several times the text's size
// of garbage, which the runtime would otherwise keep resident for
// minutes (see lsp.BenchmarkOpenBigFile).
const bigDocument = 4 << 20

// tooLargeCode is the code of the diagnostic of a document over the limit.
const tooLargeCode = "too-large"

// store holds the current snapshot of each open document. Only the
// goroutine reading messages writes to it, in message order; request
// goroutines read snapshots captured when their request arrived.
type store struct {
	mu   sync.Mutex
	docs map[protocol.DocumentURI]*Snapshot
	seq  uint64

	// parse and reparse are parser.Parse and (*parser.File).Reparse;
	// tests replace them to make them panic.
	parse   func(name string, src []byte, cfg *parser.Config) *parser.File
	reparse func(f *parser.File, src []byte, e parser.Edit) *parser.File
	maxSize int // MaxDocumentSize; tests lower it

	// config is the parser configuration of every document: INCLUDE
	// read from disk inside the workspace folders (set at initialize).
	config *parser.Config
}

func newStore() *store {
	return &store{docs: map[protocol.DocumentURI]*Snapshot{}, parse: parser.Parse, reparse: (*parser.File).Reparse,
		maxSize: MaxDocumentSize, config: &parser.Config{Include: parser.IncludeFromDisk}}
}

// setRoots makes INCLUDE read files inside the workspace folders roots
// (besides the including file's own folder).
func (s *store) setRoots(roots []string) {
	s.mu.Lock()
	s.config = &parser.Config{Include: parser.IncludeFromDisk, Roots: roots}
	s.mu.Unlock()
}

func (s *store) get(uri protocol.DocumentURI) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

// all returns every open snapshot, sorted by URI.
func (s *store) all() []*Snapshot {
	s.mu.Lock()
	out := make([]*Snapshot, 0, len(s.docs))
	for _, d := range s.docs {
		out = append(out, d)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}

func (s *store) put(uri protocol.DocumentURI, version int32, f *parser.File, broken string) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	snap := &Snapshot{URI: uri, Version: version, Seq: s.seq, File: f, Broken: broken}
	if len(f.Units) == 0 && len(f.Src) > s.maxSize {
		snap.Broken = ""
		snap.TooLarge = fmt.Sprintf("file too large to analyse (%.1f MB > %d MB)", float64(len(f.Src))/(1<<20), s.maxSize>>20)
		if s.maxSize < 1<<20 {
			snap.TooLarge = fmt.Sprintf("file too large to analyse (%d bytes > %d bytes)", len(f.Src), s.maxSize)
		}
	}
	s.docs[uri] = snap
	return snap
}

func (s *store) remove(uri protocol.DocumentURI) {
	s.mu.Lock()
	delete(s.docs, uri)
	s.mu.Unlock()
}

// open parses a newly opened document. It always stores the text and
// version, even when the parser panics.
func (s *store) open(uri protocol.DocumentURI, version int32, text string) *Snapshot {
	return s.openSrc(uri, version, []byte(text))
}

// openSrc is open for a text in bytes, which the store keeps.
func (s *store) openSrc(uri protocol.DocumentURI, version int32, src []byte) *Snapshot {
	name, _ := uriToPath(uri)
	s.mu.Lock()
	cfg := s.config
	s.mu.Unlock()
	f, broken := s.safeParse(name, src, cfg)
	snap := s.put(uri, version, f, broken)
	if len(src) >= bigDocument {
		freeMemory()
	}
	return snap
}

// freeing is freeMemory's state: running while its goroutine runs,
// again when it was asked for once more meanwhile (the garbage of what
// came after the collection began is then given back too).
var freeing struct {
	sync.Mutex
	running, again bool
	runs           int // collections forced (tests)
}

// freeMemory gives the memory freed to the system, on a goroutine of its
// own so that the requests after the open do not wait for the
// collection it forces; one at a time, and once more after it when
// asked for while it ran.
func freeMemory() {
	freeing.Lock()
	defer freeing.Unlock()
	if freeing.running {
		freeing.again = true
		return
	}
	freeing.running = true
	go func() {
		for {
			debug.FreeOSMemory()
			freeing.Lock()
			freeing.runs++
			if !freeing.again {
				freeing.running = false
				freeing.Unlock()
				return
			}
			freeing.again = false
			freeing.Unlock()
		}
	}()
}

// change applies content changes in order to the current snapshot; it
// returns nil when the document is not open. The text and version are
// always those the client has after the changes: a panic while reparsing
// falls back to a parse from scratch, and a panic there to a file with
// the text and no units, marked Broken.
func (s *store) change(uri protocol.DocumentURI, version int32, changes []contentChange) *Snapshot {
	cur := s.get(uri)
	if cur == nil {
		return nil
	}
	f, broken := cur.File, cur.Broken
	for _, ch := range changes {
		f, broken = s.apply(f, ch)
	}
	return s.put(uri, version, f, broken)
}

// apply returns the file after one change. The new text is computed
// first, by code that cannot fail; only then is it parsed.
func (s *store) apply(f *parser.File, ch contentChange) (*parser.File, string) {
	if ch.Range == nil {
		nf, broken := s.safeParse(f.Name, []byte(ch.Text), f.Config)
		if len(ch.Text) >= bigDocument {
			defer freeMemory()
		}
		return nf, broken
	}
	src, e := editText(f, ch)
	if len(src) > s.maxSize {
		return textOnly(f.Name, src, f.Config, f.Lines.Update(src, e)), ""
	}
	var nf *parser.File
	if msg := try(func() { nf = s.reparse(f, src, e) }); msg == "" && nf != nil {
		return nf, ""
	}
	return s.safeParse(f.Name, src, f.Config)
}

// safeParse parses src; when the parser panics it returns a file with
// the text and its line index but no units, and the panic's message.
func (s *store) safeParse(name string, src []byte, cfg *parser.Config) (*parser.File, string) {
	if len(src) > s.maxSize {
		return textOnly(name, src, cfg, parser.NewMapper(src)), ""
	}
	var f *parser.File
	msg := try(func() { f = s.parse(name, src, cfg) })
	if msg == "" && f != nil {
		return f, ""
	}
	if msg == "" {
		msg = "the parser returned no tree"
	}
	return textOnly(name, src, cfg, parser.NewMapper(src)),
		"internal error while parsing (pfls shows nothing for this version): " + msg
}

// textOnly is a file with its text and line index but no units: what the
// store keeps of a document it cannot or will not parse.
func textOnly(name string, src []byte, cfg *parser.Config, lines *parser.Mapper) *parser.File {
	form := parser.FormFor(name)
	if cfg != nil && cfg.Form != parser.FormAuto {
		form = cfg.Form
	}
	return &parser.File{Name: name, Src: src, Form: form, Lines: lines, Config: cfg}
}

// try runs f and returns the message of a panic in it, or "".
func try(f func()) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprint(p)
			if msg == "" {
				msg = "panic"
			}
		}
	}()
	f()
	return ""
}

// uriToPath returns the file path of a file: URI; for other schemes it
// returns the URI's path (good enough to choose the source form) and false.
func uriToPath(uri protocol.DocumentURI) (string, bool) {
	u, err := url.Parse(string(uri))
	if err != nil {
		return string(uri), false
	}
	if u.Scheme != "file" {
		if u.Opaque != "" {
			return u.Opaque, false
		}
		return u.Path, false
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' { // file:///C:/...
		p = p[1:]
	}
	return filepath.FromSlash(p), true
}

// pathToURI returns the file: URI of an absolute path.
func pathToURI(path string) protocol.DocumentURI {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}
