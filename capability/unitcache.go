package capability

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// The findings of a top-level unit are kept by what they depend on, so
// that after an edit only the units whose text (or whose program) changed
// are analysed again: the server analyses the whole file after every
// edit, and a 20,000-line Fortran D file has 1,800 loop nests to
// estimate.

// unitKey is what a unit's findings depend on: its text and the line it
// starts on (messages name lines), the file's source form and dialect,
// the compiler profile, the estimate's options (the machine model by
// identity, the processors, the values) and, for a unit that reaches
// beyond its own text (a call, a reference to a function that is not an
// intrinsic, a USE), the whole file's text and the program's other files
// (by their names and texts: a freed tree's address may be another's). ok is false where no key is made: a unit without its
// text, or one that INCLUDEs a file (whose text may change on its own).
func unitKey(f *parser.File, u *parser.Unit, up *Profile, opt partition.Options) ([32]byte, bool) {
	if u.Base < 0 || u.Len <= 0 || u.Base+u.Len > len(f.Src) {
		return [32]byte{}, false
	}
	h := sha256.New()
	var n [8]byte
	put := func(v int) {
		binary.LittleEndian.PutUint64(n[:], uint64(v))
		h.Write(n[:])
	}
	h.Write(f.Src[u.Base : u.Base+u.Len])
	put(f.Lines.Line(u.Base))
	put(int(f.Form))
	put(len(f.Dialect))
	h.Write([]byte(f.Dialect))
	pj, _ := json.Marshal(up)
	put(len(pj))
	h.Write(pj)
	put(opt.Procs)
	put(opt.PipelineBlock)
	fmt.Fprintf(h, "%p|", opt.Machine)
	names := make([]string, 0, len(opt.Values))
	for k, v := range opt.Values {
		names = append(names, k+"="+v.RatString())
	}
	sort.Strings(names)
	for _, x := range names {
		fmt.Fprintf(h, "%s|", x)
	}
	switch self, include := selfContained(u); {
	case include:
		return [32]byte{}, false // the included file's text is not in f's
	case !self:
		h.Write([]byte{0})
		h.Write(f.Src)
		d := FilesDigest(opt.Others)
		h.Write(d[:])
	}
	var key [32]byte
	h.Sum(key[:0])
	return key, true
}

// selfContained reports whether a unit's findings depend on its own text
// only: it calls nothing, references no function but intrinsics, uses no
// module and includes no file; include, whether it includes a file.
func selfContained(u *parser.Unit) (self, include bool) {
	ok := true
	var walk func(u *parser.Unit)
	walk = func(u *parser.Unit) {
		for _, s := range u.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				switch x := n.(type) {
				case *parser.IncludeStmt:
					ok, include = false, true
				case *parser.CallStmt, *parser.UseStmt:
					ok = false
				case *parser.Call:
					id, isID := x.Fun.(*parser.Ident)
					if !isID || u.Scope == nil {
						ok = false
						break
					}
					sym := u.Scope.Lookup(id.Name)
					switch {
					case sym != nil && sym.Rank() > 0, sym != nil && sym.Kind == parser.SymVariable && sym.Type == "CHARACTER":
						// an array element or a substring
					case (sym == nil || sym.Intrinsic) && parser.IsIntrinsic(id.Name):
					default:
						ok = false
					}
				}
				return ok
			})
			if !ok {
				return
			}
		}
		for _, k := range u.Contains {
			walk(k)
		}
	}
	walk(u)
	return ok, include
}

// moved gives findings kept relative to their unit's start (put) at the
// unit's place now.
func moved(fs []Finding, base int) []Finding {
	out := make([]Finding, len(fs))
	for i, x := range fs {
		x.Start += base
		x.End += base
		if x.Fix != nil {
			fx := *x.Fix
			fx.Offset += base
			fx.Edits = make([]Edit, len(x.Fix.Edits))
			for j, e := range x.Fix.Edits {
				e.Start += base
				e.End += base
				fx.Edits[j] = e
			}
			x.Fix = &fx
		}
		out[i] = x
	}
	return out
}

// maxUnitFindings bounds the units whose findings are kept.
const maxUnitFindings = 4096

// unitFindings keeps the findings of the units analysed last, relative
// to their unit's start, least recently used first out.
var unitFindings = &findingsCache{byKey: map[[32]byte]*list.Element{}, lru: list.New()}

type findingsCache struct {
	mu    sync.Mutex
	byKey map[[32]byte]*list.Element
	lru   *list.List // of *cachedFindings, most recent at the front
	hits  int        // units answered from the cache (for tests)
}

type cachedFindings struct {
	key [32]byte
	fs  []Finding
}

func (c *findingsCache) get(key [32]byte) ([]Finding, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	c.hits++
	return el.Value.(*cachedFindings).fs, true
}

// put keeps a unit's findings relative to its start; findings that reach
// outside the unit are not kept (the unit is analysed again next time).
func (c *findingsCache) put(key [32]byte, fs []Finding, u *parser.Unit) {
	for _, x := range fs {
		if x.Start < u.Base || x.End > u.Base+u.Len || x.Fix != nil && (x.Fix.Offset < u.Base || x.Fix.Offset > u.Base+u.Len) {
			return
		}
		if x.Fix != nil {
			for _, e := range x.Fix.Edits {
				if e.Start < u.Base || e.End > u.Base+u.Len {
					return
				}
			}
		}
	}
	rel := moved(fs, -u.Base)
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.byKey[key] = c.lru.PushFront(&cachedFindings{key, rel})
	for c.lru.Len() > maxUnitFindings {
		old := c.lru.Back()
		c.lru.Remove(old)
		delete(c.byKey, old.Value.(*cachedFindings).key)
	}
}

// FilesDigest is a digest of files' names and texts, in order: what a
// cache keys the program's other files by (their trees' addresses may be
// reused once they are freed).
func FilesDigest(fs []*parser.File) [32]byte {
	h := sha256.New()
	var n [8]byte
	for _, f := range fs {
		if f == nil {
			continue
		}
		binary.LittleEndian.PutUint64(n[:], uint64(len(f.Name)))
		h.Write(n[:])
		h.Write([]byte(f.Name))
		binary.LittleEndian.PutUint64(n[:], uint64(len(f.Src)))
		h.Write(n[:])
		h.Write(f.Src)
	}
	var d [32]byte
	h.Sum(d[:0])
	return d
}
