package lsp

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// The handlers of documentHighlight, foldingRange, semantic tokens and
// call hierarchy: each converts the plain results of a producer in hints.

func init() {
	for method, fn := range map[string]func(*Server, context.Context, *request) (any, error){
		"textDocument/documentHighlight":         (*Server).documentHighlight,
		"textDocument/foldingRange":              (*Server).foldingRange,
		"textDocument/semanticTokens/full":       (*Server).semanticTokensFull,
		"textDocument/semanticTokens/full/delta": (*Server).semanticTokensDelta,
		"textDocument/prepareCallHierarchy":      (*Server).prepareCallHierarchy,
		"callHierarchy/incomingCalls":            (*Server).incomingCalls,
		"callHierarchy/outgoingCalls":            (*Server).outgoingCalls,
	} {
		handlers[method] = handler{fn: fn}
	}
}

func (s *Server) documentHighlight(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	out := []protocol.DocumentHighlight{}
	if err != nil || snap == nil {
		return out, err
	}
	for _, h := range hints.Highlights(snap.File, off) {
		kind := protocol.DocumentHighlightKindRead
		if h.Write {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: rangeOf(snap.File, h.Start, h.End), Kind: kind})
	}
	return out, nil
}

func (s *Server) foldingRange(ctx context.Context, r *request) (any, error) {
	var p protocol.FoldingRangeParams
	out := []protocol.FoldingRange{}
	if err := decode(r, &p); err != nil || r.snap == nil {
		return out, err
	}
	f := r.snap.File
	for _, fo := range hints.Folds(f) {
		fr := protocol.FoldingRange{StartLine: uint32(f.Lines.Line(fo.Start)), EndLine: uint32(f.Lines.Line(fo.End))}
		switch fo.Kind {
		case "comment":
			fr.Kind = protocol.CommentFoldingRange
		case "directive":
			fr.Kind = protocol.RegionFoldingRange
		}
		out = append(out, fr)
	}
	return out, nil
}

// semanticTokensOptions is LSP 3.16's semanticTokensProvider, declared
// here with plain string lists.
type semanticTokensOptions struct {
	Legend struct {
		TokenTypes     []string `json:"tokenTypes"`
		TokenModifiers []string `json:"tokenModifiers"`
	} `json:"legend"`
	Full struct {
		Delta bool `json:"delta"`
	} `json:"full"`
}

type semanticTokens struct {
	ResultID string   `json:"resultId,omitempty"`
	Data     []uint32 `json:"data"`
}

type semanticTokensEdit struct {
	Start       uint32   `json:"start"`
	DeleteCount uint32   `json:"deleteCount"`
	Data        []uint32 `json:"data,omitempty"`
}

type semanticTokensDelta struct {
	ResultID string               `json:"resultId,omitempty"`
	Edits    []semanticTokensEdit `json:"edits"`
}

// semCache keeps the last semantic tokens sent for each document, for
// full/delta requests.
type semCache struct {
	mu   sync.Mutex
	next int
	last map[protocol.DocumentURI]semanticTokens
}

// maxSemCache bounds the documents semCache remembers.
const maxSemCache = 256

func (c *semCache) put(uri protocol.DocumentURI, data []uint32) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil || len(c.last) >= maxSemCache {
		c.last = map[protocol.DocumentURI]semanticTokens{}
	}
	c.next++
	id := strconv.Itoa(c.next)
	c.last[uri] = semanticTokens{ResultID: id, Data: data}
	return id
}

func (c *semCache) get(uri protocol.DocumentURI, id string) ([]uint32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.last[uri]
	return t.Data, ok && t.ResultID == id
}

// encodeTokens converts tokens to LSP's relative encoding, in UTF-16
// columns.
func encodeTokens(f *parser.File, toks []hints.SemToken) []uint32 {
	types := map[string]uint32{}
	for i, t := range hints.SemTokenTypes {
		types[t] = uint32(i)
	}
	mods := map[string]uint32{}
	for i, m := range hints.SemTokenModifiers {
		mods[m] = 1 << i
	}
	data := make([]uint32, 0, 5*len(toks))
	var line, col uint32
	for _, t := range toks {
		start, end := positionOf(f, t.Start), positionOf(f, t.End)
		typ, ok := types[t.Type]
		if !ok || start.Line != end.Line || end.Character <= start.Character {
			continue
		}
		var m uint32
		for _, name := range t.Mods {
			m |= mods[name]
		}
		dl, dc := start.Line-line, start.Character
		if dl == 0 {
			dc = start.Character - col
		}
		data = append(data, dl, dc, end.Character-start.Character, typ, m)
		line, col = start.Line, start.Character
	}
	return data
}

func (s *Server) semanticTokensFull(ctx context.Context, r *request) (any, error) {
	var p protocol.SemanticTokensParams
	if err := decode(r, &p); err != nil || r.snap == nil {
		return semanticTokens{Data: []uint32{}}, err
	}
	data := encodeTokens(r.snap.File, hints.SemTokens(r.snap.File))
	return semanticTokens{ResultID: s.sem.put(r.snap.URI, data), Data: data}, nil
}

// semanticTokensDelta answers with one edit from the previous result
// when the client names the last result sent, else with all tokens.
func (s *Server) semanticTokensDelta(ctx context.Context, r *request) (any, error) {
	var p struct {
		TextDocument     protocol.TextDocumentIdentifier `json:"textDocument"`
		PreviousResultID string                          `json:"previousResultId"`
	}
	if err := decode(r, &p); err != nil || r.snap == nil {
		return semanticTokens{Data: []uint32{}}, err
	}
	data := encodeTokens(r.snap.File, hints.SemTokens(r.snap.File))
	old, ok := s.sem.get(r.snap.URI, p.PreviousResultID)
	id := s.sem.put(r.snap.URI, data)
	if !ok {
		return semanticTokens{ResultID: id, Data: data}, nil
	}
	pre := 0
	for pre < len(old) && pre < len(data) && old[pre] == data[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(data)-pre && old[len(old)-1-suf] == data[len(data)-1-suf] {
		suf++
	}
	edits := []semanticTokensEdit{}
	if pre < len(old)-suf || pre < len(data)-suf {
		edits = append(edits, semanticTokensEdit{Start: uint32(pre), DeleteCount: uint32(len(old) - suf - pre), Data: data[pre : len(data)-suf]})
	}
	return semanticTokensDelta{ResultID: id, Edits: edits}, nil
}

// callItem converts an item of the call hierarchy, its file among w's.
func callItem(w *workspace, it hints.CallItem) protocol.CallHierarchyItem {
	return protocol.CallHierarchyItem{Name: it.Name, Kind: kindOf(it.Kind), Detail: it.Detail, URI: w.uri(it.File),
		Range: rangeOf(it.File, it.Start, it.End), SelectionRange: rangeOf(it.File, it.SelStart, it.SelEnd)}
}

func (s *Server) prepareCallHierarchy(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	out := []protocol.CallHierarchyItem{}
	if err != nil || snap == nil {
		return out, err
	}
	w, others := s.others(ctx, snap, off)
	for _, it := range hints.PrepareCalls(snap.File, off, others) {
		out = append(out, callItem(w, it))
	}
	return out, nil
}

// callOrigin decodes an item of the call hierarchy and finds its file:
// an open document, or a closed file parsed again.
func (s *Server) callOrigin(r *request) (origin, protocol.CallHierarchyItem, error) {
	var p struct {
		Item protocol.CallHierarchyItem `json:"item"`
	}
	if err := decode(r, &p); err != nil {
		return origin{}, p.Item, err
	}
	if d := s.store.get(p.Item.URI); d != nil {
		return origin{d.URI, d.File}, p.Item, nil
	}
	for _, x := range s.index.all() {
		if x.uri == p.Item.URI {
			return origin{x.uri, s.tree(x)}, p.Item, nil
		}
	}
	return origin{}, p.Item, nil
}

// incomingCalls looks for the callers among the files that name the
// item, in batches (index_query.go).
func (s *Server) incomingCalls(ctx context.Context, r *request) (any, error) {
	o, item, err := s.callOrigin(r)
	out := []protocol.CallHierarchyIncomingCall{}
	if err != nil || o.file == nil {
		return out, err
	}
	off, _ := offsetOf(o.file, item.SelectionRange.Start)
	type key struct {
		uri protocol.DocumentURI
		sel protocol.Range
	}
	byCaller := map[key]int{}
	names := append(namesAt(o.file, off), strings.ToUpper(item.Name))
	s.batches(ctx, o, need{names: names, uses: true}, func(w *workspace) bool {
		for _, e := range hints.IncomingCalls(o.file, off, w.others(o.file)) {
			from := callItem(w, e.Item)
			k := key{from.URI, from.SelectionRange}
			i, ok := byCaller[k]
			if !ok {
				i = len(out)
				byCaller[k] = i
				out = append(out, protocol.CallHierarchyIncomingCall{From: from, FromRanges: []protocol.Range{}})
			} else if len(out[i].FromRanges) > 0 {
				continue // the origin's own callers, in every batch
			}
			for _, site := range e.Sites {
				out[i].FromRanges = append(out[i].FromRanges, rangeOf(site.File, site.Start, site.End))
			}
		}
		return ctx.Err() == nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].From, out[j].From
		if a.URI != b.URI {
			return a.URI < b.URI
		}
		return comparePos(a.Range.Start, b.Range.Start) < 0
	})
	return out, nil
}

// outgoingCalls looks for the callees among the files that define a
// unit the item's unit names.
func (s *Server) outgoingCalls(ctx context.Context, r *request) (any, error) {
	o, item, err := s.callOrigin(r)
	out := []protocol.CallHierarchyOutgoingCall{}
	if err != nil || o.file == nil {
		return out, err
	}
	off, _ := offsetOf(o.file, item.SelectionRange.Start)
	w := s.workspaceFor(ctx, o, need{names: namesAt(o.file, off), callees: hints.UnitNames(o.file, off)})
	for _, e := range hints.OutgoingCalls(o.file, off, w.others(o.file)) {
		call := protocol.CallHierarchyOutgoingCall{To: callItem(w, e.Item), FromRanges: []protocol.Range{}}
		for _, site := range e.Sites {
			call.FromRanges = append(call.FromRanges, rangeOf(site.File, site.Start, site.End))
		}
		out = append(out, call)
	}
	return out, nil
}

func comparePos(a, b protocol.Position) int {
	switch {
	case a.Line != b.Line:
		return int(a.Line) - int(b.Line)
	default:
		return int(a.Character) - int(b.Character)
	}
}

// features2Capabilities are the capabilities of this file's features,
// embedded in serverCapabilities.
type features2Capabilities struct {
	DocumentHighlightProvider bool                   `json:"documentHighlightProvider,omitempty"`
	FoldingRangeProvider      bool                   `json:"foldingRangeProvider,omitempty"`
	SemanticTokensProvider    *semanticTokensOptions `json:"semanticTokensProvider,omitempty"`
	CallHierarchyProvider     bool                   `json:"callHierarchyProvider,omitempty"`
	// Formatting (features3.go).
	DocumentFormattingProvider      bool `json:"documentFormattingProvider,omitempty"`
	DocumentRangeFormattingProvider bool `json:"documentRangeFormattingProvider,omitempty"`
}

func advertise2() features2Capabilities {
	sem := &semanticTokensOptions{}
	sem.Legend.TokenTypes, sem.Legend.TokenModifiers = hints.SemTokenTypes, hints.SemTokenModifiers
	sem.Full.Delta = true
	return features2Capabilities{DocumentHighlightProvider: true, FoldingRangeProvider: true, SemanticTokensProvider: sem, CallHierarchyProvider: true,
		DocumentFormattingProvider: true, DocumentRangeFormattingProvider: true}
}
