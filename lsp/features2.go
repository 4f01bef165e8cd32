package lsp

import (
	"context"

	"github.com/pfls/pfls/hints"
	"go.lsp.dev/protocol"
)

// The handlers of documentHighlight, foldingRange, semantic tokens and
// call hierarchy: each converts the plain results of a producer in hints.

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

// features2Capabilities are the capabilities of this file's features,
// embedded in serverCapabilities.
type features2Capabilities struct {
	DocumentHighlightProvider bool `json:"documentHighlightProvider,omitempty"`
	FoldingRangeProvider      bool `json:"foldingRangeProvider,omitempty"`
}

func advertise2() features2Capabilities {
	return features2Capabilities{DocumentHighlightProvider: true, FoldingRangeProvider: true}
}
