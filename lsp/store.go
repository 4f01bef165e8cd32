package lsp

import (
	"net/url"
	"path/filepath"
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
}

// store holds the current snapshot of each open document. Only the
// goroutine reading messages writes to it, in message order; request
// goroutines read snapshots captured when their request arrived.
type store struct {
	mu   sync.Mutex
	docs map[protocol.DocumentURI]*Snapshot
	seq  uint64
}

func newStore() *store { return &store{docs: map[protocol.DocumentURI]*Snapshot{}} }

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

func (s *store) put(uri protocol.DocumentURI, version int32, f *parser.File) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	snap := &Snapshot{URI: uri, Version: version, Seq: s.seq, File: f}
	s.docs[uri] = snap
	return snap
}

func (s *store) remove(uri protocol.DocumentURI) {
	s.mu.Lock()
	delete(s.docs, uri)
	s.mu.Unlock()
}

// open parses a newly opened document.
func (s *store) open(uri protocol.DocumentURI, version int32, text string) *Snapshot {
	name, _ := uriToPath(uri)
	f := parser.Parse(name, []byte(text), &parser.Config{Include: parser.IncludeFromDisk})
	return s.put(uri, version, f)
}

// change applies content changes in order to the current snapshot; it
// returns nil when the document is not open.
func (s *store) change(uri protocol.DocumentURI, version int32, changes []contentChange) *Snapshot {
	cur := s.get(uri)
	if cur == nil {
		return nil
	}
	f := cur.File
	for _, ch := range changes {
		f = applyChange(f, ch)
	}
	return s.put(uri, version, f)
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
