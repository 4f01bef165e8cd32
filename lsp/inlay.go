package lsp

import (
	"context"
	"github.com/pfls/pfls/hints"

	"go.lsp.dev/protocol"
)

// The LSP 3.17 inlay hint types, which go.lsp.dev/protocol v0.12.0 lacks.

// inlayHintOptions is the server capability inlayHintProvider.
type inlayHintOptions struct {
	ResolveProvider bool `json:"resolveProvider,omitempty"`
}

// InlayHintParams are the parameters of textDocument/inlayHint.
type InlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// InlayHintKind is 1 for type hints and 2 for parameter hints; pfls's
// complexity hints are neither and leave it out.
type InlayHintKind int

// InlayHint is one hint: a label at a position, with an optional tooltip
// that inlayHint/resolve fills in lazily.
type InlayHint struct {
	Position     protocol.Position       `json:"position"`
	Label        string                  `json:"label"`
	Kind         InlayHintKind           `json:"kind,omitempty"`
	Tooltip      *protocol.MarkupContent `json:"tooltip,omitempty"`
	PaddingLeft  bool                    `json:"paddingLeft,omitempty"`
	PaddingRight bool                    `json:"paddingRight,omitempty"`
	Data         *inlayData              `json:"data,omitempty"`
}

// inlayData lets inlayHint/resolve find the hint again.
type inlayData struct {
	URI     protocol.DocumentURI `json:"uri"`
	Version int32                `json:"version"`
	Offset  int                  `json:"offset"`
	Kind    string               `json:"kind"`
}

func (s *Server) inlayHint(ctx context.Context, r *request) (any, error) {
	var p InlayHintParams
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	snap := r.snap
	st := s.currentSettings()
	if !snap.analysable() || s.opts.Inlay == nil || !st.InlayHints.Enable {
		return []InlayHint{}, nil
	}
	s.mu.Lock()
	lazy := s.client.resolveTooltip
	s.mu.Unlock()
	f := snap.File
	start, end := offsetsOf(f, p.Range)
	if end >= len(f.Src) {
		end = len(f.Src) + 1 // a range reaching the end includes a hint there
	}
	var hs []hints.InlayHint
	if err := s.analyse(ctx, "inlay hints", func(ctx context.Context) {
		hs = s.measuredInlay(ctx, f, start, end, st) // with the profile's measurements (profile.go)
	}); err != nil {
		return nil, err
	}
	out := make([]InlayHint, 0, len(hs))
	for _, h := range hs {
		if h.Offset < start || h.Offset >= end || ctx.Err() != nil {
			continue
		}
		ih := InlayHint{Position: positionOf(f, h.Offset), Label: h.Label, PaddingLeft: true}
		if h.Tooltip != "" {
			if lazy {
				ih.Data = &inlayData{URI: snap.URI, Version: snap.Version, Offset: h.Offset, Kind: h.Kind}
			} else {
				ih.Tooltip = markdown(h.Tooltip)
			}
		}
		out = append(out, ih)
	}
	return out, nil
}

func (s *Server) inlayHintResolve(ctx context.Context, r *request) (any, error) {
	var h InlayHint
	if err := decode(r, &h); err != nil {
		return nil, err
	}
	snap := r.snap
	if h.Data == nil || !snap.analysable() || snap.Version != h.Data.Version || s.opts.Inlay == nil {
		return h, nil // stale or foreign: answer the hint unchanged
	}
	st := s.currentSettings()
	var hs []hints.InlayHint
	if err := s.analyse(ctx, "inlay hint tooltip", func(ctx context.Context) {
		hs = s.measuredInlay(ctx, snap.File, h.Data.Offset, h.Data.Offset+1, st)
	}); err != nil {
		return nil, err
	}
	for _, x := range hs {
		if x.Offset == h.Data.Offset && x.Kind == h.Data.Kind {
			h.Tooltip = markdown(x.Tooltip)
			break
		}
	}
	h.Data = nil
	return h, nil
}

func markdown(text string) *protocol.MarkupContent {
	return &protocol.MarkupContent{Kind: protocol.Markdown, Value: text}
}
