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

// others returns the files of the other open documents.
// others returns the files of the workspace other than snap's: the open
// documents and the indexed files.
func (s *Server) others(snap *Snapshot) []*parser.File {
	var out []*parser.File
	for _, d := range s.workspaceFiles() {
		if d.uri != snap.URI {
			out = append(out, d.file)
		}
	}
	return out
}

// uriOf returns the URI of a file a location points into.
func (s *Server) uriOf(snap *Snapshot, f *parser.File) protocol.DocumentURI {
	if f == snap.File {
		return snap.URI
	}
	for _, d := range s.store.all() {
		if d.File == f {
			return d.URI
		}
	}
	return pathToURI(f.Name)
}

func (s *Server) locations(snap *Snapshot, locs []hints.Location) []protocol.Location {
	out := make([]protocol.Location, 0, len(locs))
	for _, l := range locs {
		out = append(out, protocol.Location{URI: s.uriOf(snap, l.File), Range: rangeOf(l.File, l.Start, l.End)})
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
	for _, d := range s.workspaceFiles() {
		if ctx.Err() != nil {
			break
		}
		for _, sy := range hints.WorkspaceSymbols(d.file, p.Query) {
			out = append(out, protocol.SymbolInformation{Name: sy.Name, Kind: kindOf(sy.Kind), ContainerName: sy.Container,
				Location: protocol.Location{URI: d.uri, Range: rangeOf(d.file, sy.SelStart, sy.SelEnd)}})
		}
	}
	return out, nil
}

func (s *Server) definition(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return []protocol.Location{}, err
	}
	return s.locations(snap, hints.Definition(snap.File, off, s.others(snap))), nil
}

func (s *Server) hover(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return nil, err
	}
	f := snap.File
	if h := hints.Hover(f, off, s.others(snap)); h != nil {
		h.Markdown = s.profileNameHover(f, off, h.Markdown) // a routine's measured time (profile.go)
		rg := rangeOf(f, h.Start, h.End)
		return &protocol.Hover{Contents: *markdown(h.Markdown), Range: &rg}, nil
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
			return &protocol.Hover{Contents: *markdown(text)}, nil
		}
	}
	return nil, nil
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
	return s.locations(snap, hints.References(snap.File, off, p.Context.IncludeDeclaration, s.others(snap))), nil
}

// requestFailed is LSP 3.17's code for a request that was well formed but
// could not be done; its message says why (rename refusals use it).
const requestFailed jsonrpc2.Code = -32803

func (s *Server) prepareRename(ctx context.Context, r *request) (any, error) {
	snap, off, err := at(r)
	if err != nil || snap == nil {
		return nil, err
	}
	start, end, err := hints.PrepareRename(snap.File, off, s.others(snap))
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
	edits, err := hints.Rename(snap.File, off, p.NewName, s.others(snap))
	if err != nil {
		return nil, jsonrpc2.NewError(requestFailed, err.Error())
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{}
	for _, e := range edits {
		uri := s.uriOf(snap, e.File)
		changes[uri] = append(changes[uri], protocol.TextEdit{Range: rangeOf(e.File, e.Start, e.End), NewText: e.Text})
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
	items, start := hints.Complete(f, off, s.others(snap))
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
	sig := hints.SignatureHelp(snap.File, off, s.others(snap))
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
