package lsp

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"unique"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// A request that needs files that are not open in full parses them again
// from disk, and only those its answer can depend on (a workspace holds
// thousands): the files that define the program units it names, the
// modules these files and the request's own file USE (followed to the
// end), and, for requests that find uses (references, rename, incoming
// calls), the files that name it, taken batchSize at a time so that the
// trees alive at once stay few.

// treeCacheSize is how many parsed closed files are kept between
// requests (hovering a call then its neighbour parses nothing).
const treeCacheSize = 32

// batchSize is how many files naming a name are parsed at once (a
// variable for the tests).
var batchSize = 64

// treeCache keeps the trees of the closed files parsed last, by the
// index's entry of the file: an entry is replaced when its file is
// indexed again, so that a tree parsed for the old one (by a request that
// read the file before it changed and ends after) is never served for
// the new one.
type treeCache struct {
	mu    sync.Mutex
	max   int
	trees map[*indexEntry]*parser.File
	order []*indexEntry // least recently used first
}

func (c *treeCache) get(e *indexEntry) *parser.File {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.trees[e]
	if f != nil {
		c.touch(e)
	}
	return f
}

func (c *treeCache) put(e *indexEntry, f *parser.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.trees == nil {
		c.trees = map[*indexEntry]*parser.File{}
	}
	if _, ok := c.trees[e]; !ok && len(c.trees) >= c.max && len(c.order) > 0 {
		delete(c.trees, c.order[0])
		c.order = c.order[1:]
	}
	c.trees[e] = f
	c.touch(e)
}

// touch moves e to the end of the order (c.mu held).
func (c *treeCache) touch(e *indexEntry) {
	for i, x := range c.order {
		if x == e {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.order = append(c.order, e)
}

// drop forgets the tree of e (nil: nothing).
func (c *treeCache) drop(e *indexEntry) {
	if e == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.trees[e]; ok {
		delete(c.trees, e)
		for i, x := range c.order {
			if x == e {
				c.order = append(c.order[:i], c.order[i+1:]...)
				break
			}
		}
	}
}

// tree returns the tree of the closed file x, from the cache or parsed
// again from disk; nil when the file cannot be read any more.
func (s *Server) tree(x indexed) *parser.File {
	if f := s.index.trees.get(x.entry); f != nil {
		return f
	}
	f := s.parseFromDisk(x.entry.path)
	s.index.reparsed.Add(1)
	if f != nil {
		s.index.trees.put(x.entry, f)
	}
	return f
}

// need says which closed files a request depends on.
type need struct {
	names   []string        // the request's names (upper case)
	callees map[string]bool // names of program units the request may look up (upper case)
	uses    bool            // the request finds the uses of names: the files naming them count
}

// selection is the closed files a request needs: defs (defining its
// names and their modules) always, users in batches.
type selection struct {
	defs, users []indexed
}

// selectClosed finds the closed files that req needs, origin being the
// request's own file (left out).
func (s *Server) selectClosed(o origin, req need) selection {
	var closed []indexed
	for _, x := range s.closed() {
		if x.uri != o.uri {
			closed = append(closed, x)
		}
	}
	var handles []unique.Handle[string]
	wanted := map[string]bool{}
	for _, n := range req.names {
		n = strings.ToUpper(strings.Trim(n, "/"))
		if n != "" && !wanted[n] {
			wanted[n] = true
			handles = append(handles, unique.Make(n))
		}
	}
	for n := range req.callees {
		wanted[n] = true
	}
	var sel selection
	in := map[protocol.DocumentURI]bool{}
	// The modules the request's file and the open documents use (an open
	// module may use a closed one).
	var uses []string
	if o.file != nil {
		uses = hints.FileUses(o.file)
	}
	for _, d := range s.store.all() {
		if d.File != nil && d.URI != o.uri {
			uses = append(uses, hints.FileUses(d.File)...)
		}
	}
	for _, x := range closed {
		switch {
		case x.entry.sum.Defines(wanted):
			sel.defs = append(sel.defs, x)
			in[x.uri] = true
			uses = append(uses, x.entry.sum.Uses...)
		case req.uses && x.entry.sum.Mentions(handles):
			sel.users = append(sel.users, x)
			uses = append(uses, x.entry.sum.Uses...)
		}
	}
	// Those the definitions and the users use, and those these modules
	// use, to the end of the chain.
	modules := map[string][]indexed{}
	for _, x := range closed {
		for _, m := range x.entry.sum.Modules {
			modules[m] = append(modules[m], x)
		}
	}
	seen := map[string]bool{}
	for len(uses) > 0 {
		m := uses[len(uses)-1]
		uses = uses[:len(uses)-1]
		if seen[m] {
			continue
		}
		seen[m] = true
		for _, x := range modules[m] {
			if !in[x.uri] {
				in[x.uri] = true
				sel.defs = append(sel.defs, x)
				uses = append(uses, x.entry.sum.Uses...)
			}
		}
	}
	if len(sel.users) > 0 {
		users := sel.users[:0]
		for _, x := range sel.users {
			if !in[x.uri] {
				users = append(users, x)
			}
		}
		sel.users = users
	}
	return sel
}

// workspace is the files one call of a feature sees, with their URIs.
type workspace struct {
	files []*parser.File
	uris  map[*parser.File]protocol.DocumentURI
	byURI map[protocol.DocumentURI]*parser.File
}

func (w *workspace) add(uri protocol.DocumentURI, f *parser.File) {
	if f == nil || w.byURI[uri] != nil {
		return
	}
	w.files = append(w.files, f)
	w.uris[f], w.byURI[uri] = uri, f
}

// others returns the files other than f.
func (w *workspace) others(f *parser.File) []*parser.File {
	out := make([]*parser.File, 0, len(w.files))
	for _, g := range w.files {
		if g != f {
			out = append(out, g)
		}
	}
	return out
}

func (w *workspace) uri(f *parser.File) protocol.DocumentURI {
	if u, ok := w.uris[f]; ok {
		return u
	}
	return pathToURI(f.Name)
}

// origin is the file a request is about, open or parsed again.
type origin struct {
	uri  protocol.DocumentURI
	file *parser.File
}

// openWorkspace is the origin's file and the open documents.
func (s *Server) openWorkspace(o origin) *workspace {
	w := &workspace{uris: map[*parser.File]protocol.DocumentURI{}, byURI: map[protocol.DocumentURI]*parser.File{}}
	w.add(o.uri, o.file)
	for _, d := range s.store.all() {
		w.add(d.URI, d.File)
	}
	return w
}

// workspaceFor returns the open documents and the closed files that
// define what req names (the features that find uses call batches).
func (s *Server) workspaceFor(ctx context.Context, o origin, req need) *workspace {
	var all *workspace
	req.uses = false
	s.batches(ctx, o, req, func(w *workspace) bool {
		all = w
		return false
	})
	return all
}

// batches calls fn with the open documents and the closed files req
// needs: once with the definitions, or, when req finds uses, once per
// batchSize of the files naming its names, beside the definitions, as
// long as fn returns true. The definitions are parsed once for all the
// batches. Once ctx is cancelled no file is parsed any more: fn sees
// what was parsed before (its answer is not sent).
func (s *Server) batches(ctx context.Context, o origin, req need, fn func(*workspace) bool) {
	sel := s.selectClosed(o, req)
	defs := s.parseBatch(ctx, sel.defs)
	for k, f := range defs {
		if f != nil {
			s.index.trees.put(sel.defs[k].entry, f)
		}
	}
	base := func() *workspace {
		w := s.openWorkspace(o)
		for k, f := range defs {
			w.add(sel.defs[k].uri, f)
		}
		return w
	}
	if !req.uses || len(sel.users) == 0 {
		fn(base())
		return
	}
	if len(sel.users) > batchSize {
		// Several batches of trees are garbage now: give the memory back
		// at once rather than over minutes.
		defer debug.FreeOSMemory()
	}
	for i := 0; i < len(sel.users); i += batchSize {
		w := base()
		batch := sel.users[i:min(i+batchSize, len(sel.users))]
		for k, f := range s.parseBatch(ctx, batch) {
			w.add(batch[k].uri, f)
		}
		if !fn(w) || ctx.Err() != nil {
			return
		}
	}
}

// parseBatch returns the trees of xs, from the cache or parsed again
// (one parser per core), without caching them: a batch would evict the
// definitions. Once ctx is cancelled the files not parsed yet give nil.
func (s *Server) parseBatch(ctx context.Context, xs []indexed) []*parser.File {
	out := make([]*parser.File, len(xs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), 8, len(xs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				k := int(next.Add(1)) - 1
				if k >= len(xs) {
					return
				}
				if out[k] = s.index.trees.get(xs[k].entry); out[k] == nil {
					out[k] = s.parseFromDisk(xs[k].entry.path)
					s.index.reparsed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// namesAt returns the name at off of f, as the resolver reads it and as
// the word around off is spelled: the name a request at off is about.
func namesAt(f *parser.File, off int) []string {
	var out []string
	if r := hints.NameAt(f, off); r != nil {
		out = append(out, r.Name)
	}
	if f == nil || off < 0 || off > len(f.Src) {
		return out
	}
	start, end := off, off
	for start > 0 && isWordByte(f.Src[start-1]) {
		start--
	}
	for end < len(f.Src) && isWordByte(f.Src[end]) {
		end++
	}
	if start < end {
		out = append(out, strings.ToUpper(string(f.Src[start:end])))
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
