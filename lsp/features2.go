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

// features2Capabilities are the capabilities of this file's features,
// embedded in serverCapabilities.
type features2Capabilities struct {
	DocumentHighlightProvider bool `json:"documentHighlightProvider,omitempty"`
}

func advertise2() features2Capabilities {
	return features2Capabilities{DocumentHighlightProvider: true}
}
