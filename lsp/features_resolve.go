package lsp

import (
	"context"

	"github.com/pfls/pfls/hints"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codeAction/resolve: for a client that can resolve edits, the code
// actions carry no edit, only the data to find it again (the document,
// its version, the range asked and the action's title and kind); resolve
// runs the producer on that range again and answers the action with its
// edit. Clients that cannot resolve get the edits inline.

func init() {
	handlers["codeAction/resolve"] = handler{fn: (*Server).codeActionResolve}
}

// contentModified is LSP's code for a request whose document changed.
const contentModified jsonrpc2.Code = -32801

type resolveData struct {
	URI     protocol.DocumentURI `json:"uri"`
	Version int32                `json:"version"`
	Range   protocol.Range       `json:"range"`
	Title   string               `json:"title"`
	Kind    string               `json:"kind"`
}

type codeActionOptions struct {
	ResolveProvider bool `json:"resolveProvider"`
}

// codeActionProvider is the codeActionProvider capability: with
// resolveProvider only for clients that resolve edits.
func codeActionProvider(resolve bool) any {
	if !resolve {
		return true
	}
	return codeActionOptions{ResolveProvider: true}
}

// lazyData adds to an action's data what resolve needs.
func lazyData(d *actionData, snap *Snapshot, rg protocol.Range, a hints.CodeAction) *actionData {
	if d == nil {
		d = &actionData{}
	}
	d.Resolve = &resolveData{URI: snap.URI, Version: snap.Version, Range: rg, Title: a.Title, Kind: a.Kind}
	return d
}

func (s *Server) codeActionResolve(ctx context.Context, r *request) (any, error) {
	var ca codeAction
	if err := decode(r, &ca); err != nil {
		return nil, err
	}
	if ca.Data == nil || ca.Data.Resolve == nil || ca.Edit != nil {
		return ca, nil
	}
	rd := ca.Data.Resolve
	snap := s.store.get(rd.URI)
	if snap == nil || snap.Version != rd.Version {
		return nil, jsonrpc2.NewError(contentModified, "the document changed since the code action was offered")
	}
	if !snap.analysable() || s.opts.Actions == nil {
		return nil, jsonrpc2.NewError(requestFailed, "the document cannot be analysed")
	}
	f := snap.File
	start, end := offsetsOf(f, rd.Range)
	var acts []hints.CodeAction
	est := s.estimateSettings(ctx, snap)
	if err := s.analyse(ctx, "code action edit", func(ctx context.Context) { acts = s.opts.Actions(ctx, f, start, end, est) }); err != nil {
		return nil, err
	}
	for _, a := range acts {
		if a.Title != rd.Title || a.Kind != rd.Kind || len(a.Edits) == 0 {
			continue
		}
		edits := make([]protocol.TextEdit, len(a.Edits))
		for i, e := range a.Edits {
			edits[i] = protocol.TextEdit{Range: rangeOf(f, e.Start, e.End), NewText: e.Text}
		}
		ca.Edit = &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{snap.URI: edits}}
		ca.Data.Resolve = nil
		return ca, nil
	}
	return nil, jsonrpc2.NewError(contentModified, "the code action is no longer offered: "+rd.Title)
}
