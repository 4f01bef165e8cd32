package lsp

import (
	"context"
	"strings"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Each handler here decodes its parameters, takes the snapshot captured
// when the request arrived, calls a producer of package hints and converts
// the plain result. A request on a document that is not open gets an
// empty answer.

type positionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Position     protocol.Position               `json:"position"`
}

// at decodes position parameters and returns the snapshot and offset.
func at(r *request) (*Snapshot, int, error) {
	var p positionParams
	if err := decode(r, &p); err != nil {
		return nil, 0, err
	}
	if r.snap == nil {
		return nil, 0, nil
	}
	off, _ := offsetOf(r.snap.File, p.Position)
	return r.snap, off, nil
}

// others returns the workspace a request at off of snap sees and the
// files in it other than snap's: the open documents and the closed files
// that define the name at off (index_query.go).
func (s *Server) others(ctx context.Context, snap *Snapshot, off int) (*workspace, []*parser.File) {
	w := s.workspaceFor(ctx, origin{snap.URI, snap.File}, need{names: namesAt(snap.File, off)})
	return w, w.others(snap.File)
}

// eachRenameOthers calls fn with the files other than snap's that rename
// at off sees, in batches (index_query.go), until fn returns false;
// newName is the new name ("" to prepare). The files naming the name are
// needed only for the bindings other files can see (hints.RenameAcross).
func (s *Server) eachRenameOthers(ctx context.Context, snap *Snapshot, off int, newName string, fn func(w *workspace, others []*parser.File) bool) {
	names := namesAt(snap.File, off)
	if newName != "" {
		names = append(names, strings.ToUpper(newName))
	}
	// The definitions of what the file names: a keyword argument is bound
	// to the dummy of the procedure called.
	o := origin{snap.URI, snap.File}
	w := s.workspaceFor(ctx, o, need{names: names, callees: hints.FileNames(snap.File)})
	across := hints.RenameAcross(snap.File, off, w.others(snap.File))
	if across == nil {
		fn(w, w.others(snap.File))
		return
	}
	if newName != "" {
		across = append(across, strings.ToUpper(newName))
	}
	s.batches(ctx, o, need{names: across, uses: true}, func(w *workspace) bool {
		return fn(w, w.others(snap.File))
	})
}

func locations(w *workspace, locs []hints.Location) []protocol.Location {
	out := make([]protocol.Location, 0, len(locs))
	for _, l := range locs {
		out = append(out, protocol.Location{URI: w.uri(l.File), Range: rangeOf(l.File, l.Start, l.End)})
	}
	return out
}

var symbolKinds = map[string]protocol.SymbolKind{
	"program":          protocol.SymbolKindModule,
	"module":           protocol.SymbolKindModule,
	"submodule":        protocol.SymbolKindModule,
	"block data":       protocol.SymbolKindModule,
	"subroutine":       protocol.SymbolKindFunction,
	"function":         protocol.SymbolKindFunction,
	"module procedure": protocol.SymbolKindFunction,
	"loop":             protocol.SymbolKindNamespace,
	"common block":     protocol.SymbolKindStruct,
	"template":         protocol.SymbolKindArray,
	"processors":       protocol.SymbolKindArray,
}

func kindOf(k string) protocol.SymbolKind {
	if sk, ok := symbolKinds[k]; ok {
		return sk
	}
	return protocol.SymbolKindVariable
}

func toDocumentSymbols(f *parser.File, syms []hints.Symbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, 0, len(syms))
	for _, sy := range syms {
		out = append(out, protocol.DocumentSymbol{
			Name:           sy.Name,
			Detail:         sy.Detail,
			Kind:           kindOf(sy.Kind),
			Range:          rangeOf(f, sy.Start, sy.End),
			SelectionRange: rangeOf(f, sy.SelStart, sy.SelEnd),
			Children:       toDocumentSymbols(f, sy.Children),
		})
	}
	return out
}

func (s *Server) documentSymbol(ctx context.Context, r *request) (any, error) {
	var p protocol.DocumentSymbolParams
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	if r.snap == nil {
		return []protocol.DocumentSymbol{}, nil
	}
	f := r.snap.File
	syms := hints.DocumentSymbols(f)
	s.mu.Lock()
	hier := s.client.hierarchical
	s.mu.Unlock()
	if hier {
		return toDocumentSymbols(f, syms), nil
	}
	// Flat SymbolInformation for clients without hierarchical support.
	var flat []protocol.SymbolInformation
	var walk func(list []hints.Symbol, container string)
	walk = func(list []hints.Symbol, container string) {
		for _, sy := range list {
			flat = append(flat, protocol.SymbolInformation{Name: sy.Name, Kind: kindOf(sy.Kind), ContainerName: container,
				Location: protocol.Location{URI: r.snap.URI, Range: rangeOf(f, sy.Start, sy.End)}})
			walk(sy.Children, sy.Name)
		}
	}
	walk(syms, "")
	if flat == nil {
		flat = []protocol.SymbolInformation{}
	}
	return flat, nil
}

func (s *Server) workspaceSymbol(ctx context.Context, r *request) (any, error) {
	var p protocol.WorkspaceSymbolParams
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	out := []protocol.SymbolInformation{}
	for _, d := range s.store.all() {
		if ctx.Err() != nil {
			return out, nil
		}
		if d.File == nil {
			continue
		}
		for _, sy := range hints.WorkspaceSymbols(d.File, p.Query) {
			out = append(out, protocol.SymbolInformation{Name: sy.Name, Kind: kindOf(sy.Kind), ContainerName: sy.Container,
				Location: protocol.Location{URI: d.URI, Range: rangeOf(d.File, sy.SelStart, sy.SelEnd)}})
		}
	}
	match := hints.QueryMatcher(p.Query)
	for _, x := range s.closed() {
		if ctx.Err() != nil {
			break
		}
		for i, sy := range x.entry.sum.Symbols {
			if match(sy.Name) {
				out = append(out, protocol.SymbolInformation{Name: sy.Name, Kind: kindOf(sy.Kind), ContainerName: sy.Container,
					Location: protocol.Location{URI: x.uri, Range: x.entry.sel[i]}})
			}
		}
	}
	return out, nil
}

func (s *Server) definition(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return []protocol.Location{}, err
	}
	w, others := s.others(ctx, snap, off)
	return locations(w, hints.Definition(snap.File, off, others)), nil
}

func (s *Server) hover(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return nil, err
	}
	f := snap.File
	_, others := s.others(ctx, snap, off)
	if h := hints.Hover(f, off, others); h != nil {
		h.Markdown = s.profileNameHover(f, off, h.Markdown) // a routine's measured time (profile.go)
		rg := rangeOf(f, h.Start, h.End)
		return &protocol.Hover{Contents: s.hoverContent(h.Markdown), Range: &rg}, nil
	}
	// Not on a name: what the statement costs, once a producer exists.
	if s.opts.StatementHover != nil && snap.analysable() {
		var text string
		o := s.measuredOptions(f) // the profile's branch frequencies too (profile.go)
		if err := s.analyse(ctx, "hover", func(ctx context.Context) {
			text = s.opts.StatementHover(ctx, f, off, o)
			if m := s.profileHover(ctx, f, off); m != "" { // measured beside predicted (lsp/profile.go)
				text = strings.TrimSpace(text + "\n\n" + m)
			}
		}); err != nil {
			return nil, err
		}
		if text != "" {
			return &protocol.Hover{Contents: s.hoverContent(text)}, nil
		}
	}
	return nil, nil
}

// hoverContent is a hover's text in the format the client takes: the
// Markdown as it is, or plain text (plainText) for a client whose hover
// content formats do not include Markdown.
func (s *Server) hoverContent(md string) protocol.MarkupContent {
	s.mu.Lock()
	asMarkdown := s.client.markdown
	s.mu.Unlock()
	if asMarkdown {
		return *markdown(md)
	}
	return protocol.MarkupContent{Kind: protocol.PlainText, Value: plainText(md)}
}

// plainText is Markdown as a client that shows it verbatim should read
// it: no code fences, no backquotes, no bold or heading marks.
func plainText(md string) string {
	var b strings.Builder
	marks := strings.NewReplacer("**", "", "`", "", "\\*", "*", "\\_", "_")
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		if h := strings.TrimLeft(line, "#"); h != line && strings.HasPrefix(h, " ") {
			line = strings.TrimSpace(h) // a heading
		}
		line = marks.Replace(line)
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

func (s *Server) references(ctx context.Context, r *request) (any, error) {
	var p struct {
		Context protocol.ReferenceContext `json:"context"`
	}
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return []protocol.Location{}, err
	}
	_ = decode(r, &p)
	// The open documents from their trees, the closed files from the
	// global names their summaries list.
	open := s.openWorkspace(origin{snap.URI, snap.File})
	out := locations(open, hints.References(snap.File, off, p.Context.IncludeDeclaration, open.others(snap.File)))
	if t, ok := hints.ReferencesTarget(snap.File, off); ok {
		for _, x := range s.closed() {
			for i := range x.entry.sum.Globals {
				if t.Matches(&x.entry.sum.Globals[i], p.Context.IncludeDeclaration) {
					out = append(out, protocol.Location{URI: x.uri, Range: x.entry.globals[i]})
				}
			}
		}
	}
	return out, nil
}

// requestFailed is LSP 3.17's code for a request that was well formed but
// could not be done; its message says why (rename refusals use it).
const requestFailed jsonrpc2.Code = -32803

func (s *Server) prepareRename(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return nil, err
	}
	var start, end int
	s.eachRenameOthers(ctx, snap, off, "", func(w *workspace, others []*parser.File) bool {
		start, end, err = hints.PrepareRename(snap.File, off, others)
		return err == nil
	})
	if err != nil {
		return nil, jsonrpc2.NewError(requestFailed, err.Error())
	}
	rg := rangeOf(snap.File, start, end)
	return &rg, nil
}

func (s *Server) rename(ctx context.Context, r *request) (any, error) {
	var p struct {
		NewName string `json:"newName"`
	}
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return nil, err
	}
	_ = decode(r, &p)
	// In batches of the files that name the old or the new name: every
	// batch holds the definitions, so each checks and renames its files
	// as the whole workspace would; the edits of snap's file repeat.
	changes := map[protocol.DocumentURI][]protocol.TextEdit{}
	seen := map[protocol.DocumentURI]map[protocol.Range]bool{}
	s.eachRenameOthers(ctx, snap, off, p.NewName, func(w *workspace, others []*parser.File) bool {
		var edits []hints.TextEdit
		edits, err = hints.Rename(snap.File, off, p.NewName, others)
		for _, e := range edits {
			uri, rg := w.uri(e.File), rangeOf(e.File, e.Start, e.End)
			if seen[uri] == nil {
				seen[uri] = map[protocol.Range]bool{}
			}
			if !seen[uri][rg] {
				seen[uri][rg] = true
				changes[uri] = append(changes[uri], protocol.TextEdit{Range: rg, NewText: e.Text})
			}
		}
		return err == nil && ctx.Err() == nil
	})
	if err != nil {
		return nil, jsonrpc2.NewError(requestFailed, err.Error())
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

var completionKinds = map[string]protocol.CompletionItemKind{
	"variable":   protocol.CompletionItemKindVariable,
	"array":      protocol.CompletionItemKindVariable,
	"constant":   protocol.CompletionItemKindConstant,
	"procedure":  protocol.CompletionItemKindFunction,
	"intrinsic":  protocol.CompletionItemKindFunction,
	"keyword":    protocol.CompletionItemKindKeyword,
	"directive":  protocol.CompletionItemKindKeyword,
	"clause":     protocol.CompletionItemKindProperty,
	"template":   protocol.CompletionItemKindStruct,
	"processors": protocol.CompletionItemKindStruct,
}

func (s *Server) completion(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return &protocol.CompletionList{Items: []protocol.CompletionItem{}}, err
	}
	f := snap.File
	// Program units: of the open documents from their trees, of the
	// closed files from their summaries.
	open := s.openWorkspace(origin{snap.URI, f})
	var units []hints.Completion
	for _, x := range s.closed() {
		units = append(units, x.entry.sum.Units...)
	}
	items, start := hints.CompleteWith(f, off, open.others(f), units)
	rg := rangeOf(f, start, off)
	out := make([]protocol.CompletionItem, 0, len(items))
	for _, it := range items {
		out = append(out, protocol.CompletionItem{Label: it.Label, Kind: completionKinds[it.Kind], Detail: it.Detail,
			TextEdit: &protocol.TextEdit{Range: rg, NewText: it.Label}})
	}
	return &protocol.CompletionList{Items: out}, nil
}

// signatureHelpResult is LSP's SignatureHelp with parameter labels as
// offsets into the signature's label (go.lsp.dev/protocol v0.12.0 has
// string labels only) and a per-signature active parameter (LSP 3.16).
type signatureHelpResult struct {
	Signatures      []signatureInfo `json:"signatures"`
	ActiveSignature uint32          `json:"activeSignature"`
	ActiveParameter uint32          `json:"activeParameter"`
}

type signatureInfo struct {
	Label           string                  `json:"label"`
	Documentation   *protocol.MarkupContent `json:"documentation,omitempty"`
	Parameters      []parameterInfo         `json:"parameters"`
	ActiveParameter *uint32                 `json:"activeParameter,omitempty"`
}

type parameterInfo struct {
	Label         [2]uint32               `json:"label"`
	Documentation *protocol.MarkupContent `json:"documentation,omitempty"`
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) uint32 {
	n := uint32(0)
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func (s *Server) signatureHelp(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return nil, err
	}
	// The call around off names its procedure in the statement holding
	// off: the closed files defining a procedure named there.
	w := s.workspaceFor(ctx, origin{snap.URI, snap.File}, need{names: hints.SignatureCallees(snap.File, off)})
	sig := hints.SignatureHelp(snap.File, off, w.others(snap.File))
	if sig == nil {
		return nil, nil
	}
	out := &signatureHelpResult{ActiveSignature: uint32(sig.ActiveForm)}
	for _, fm := range sig.Forms {
		info := signatureInfo{Label: fm.Label, Parameters: []parameterInfo{}}
		if fm.Doc != "" {
			info.Documentation = markdown(fm.Doc)
		}
		for i, sp := range fm.Spans {
			p := parameterInfo{Label: [2]uint32{utf16Len(fm.Label[:sp[0]]), utf16Len(fm.Label[:sp[1]])}}
			if i < len(fm.Params) {
				p.Documentation = markdown(fm.Params[i])
			}
			info.Parameters = append(info.Parameters, p)
		}
		// An argument that fits no parameter (a keyword the form lacks)
		// points past the list, which clients show as none active.
		active := uint32(len(fm.Spans))
		if fm.Active >= 0 {
			active = uint32(fm.Active)
		}
		info.ActiveParameter = &active
		out.Signatures = append(out.Signatures, info)
	}
	out.ActiveParameter = *out.Signatures[sig.ActiveForm].ActiveParameter
	return out, nil
}
