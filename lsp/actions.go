package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// ActionsFunc produces the code actions on the lines [start, end] of f.
type ActionsFunc func(ctx context.Context, f *parser.File, start, end int, est hints.EstimateSettings) []hints.CodeAction

// EstimateFunc runs the "Estimate this loop" command for the loop on a
// 1-based line.
type EstimateFunc func(ctx context.Context, f *parser.File, line int, est hints.EstimateSettings) (string, error)

type codeActionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
	Context      struct {
		Only []string `json:"only"`
	} `json:"context"`
}

// kindWanted reports whether a code action kind is among those the client
// asked for (context.only; none: all). Kinds are hierarchical: "refactor"
// asks for "refactor.rewrite" too. An action without a kind (a command)
// is wanted only when the client did not restrict the kinds.
func kindWanted(kind string, only []string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind != "" && (kind == o || strings.HasPrefix(kind, o+".")) {
			return true
		}
	}
	return false
}

// codeAction is a protocol code action with its data, which the protocol
// package's type lacks: the detail the short title leaves out (the times
// compared), for clients that show it.
type codeAction struct {
	protocol.CodeAction
	Data *actionData `json:"data,omitempty"`
}

type actionData struct {
	Detail string `json:"detail"`
	// Set when the edit is left to codeAction/resolve (resolve.go).
	Resolve *resolveData `json:"resolve,omitempty"`
}

// codeAction answers textDocument/codeAction with the producer's actions:
// edits as workspace edits of the document, commands as commands.
func (s *Server) codeAction(ctx context.Context, r *request) (any, error) {
	var p codeActionParams
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	snap := r.snap
	if !snap.analysable() || s.opts.Actions == nil {
		return []protocol.CodeAction{}, nil
	}
	only := p.Context.Only
	if !kindWanted("quickfix", only) && !kindWanted("refactor.rewrite", only) && !kindWanted("source", only) {
		return []protocol.CodeAction{}, nil // none of ours: do not run the analyses
	}
	f := snap.File
	start, end := offsetsOf(f, p.Range)
	var acts []hints.CodeAction
	est := s.estimateSettings(ctx, snap)
	if err := s.analyse(ctx, "code actions", func(ctx context.Context) { acts = s.opts.Actions(ctx, f, start, end, est) }); err != nil {
		return nil, err
	}
	s.mu.Lock()
	lazy := s.client.resolveActionEdit
	s.mu.Unlock()
	out := make([]codeAction, 0, len(acts))
	for _, a := range acts {
		if !kindWanted(a.Kind, only) {
			continue
		}
		ca := codeAction{CodeAction: protocol.CodeAction{Title: a.Title, Kind: protocol.CodeActionKind(a.Kind), IsPreferred: a.Preferred}}
		if a.Detail != "" {
			ca.Data = &actionData{Detail: a.Detail}
		}
		if len(a.Edits) > 0 && lazy {
			ca.Data = lazyData(ca.Data, snap, p.Range, a)
		} else if len(a.Edits) > 0 {
			edits := make([]protocol.TextEdit, len(a.Edits))
			for i, e := range a.Edits {
				edits[i] = protocol.TextEdit{Range: rangeOf(f, e.Start, e.End), NewText: e.Text}
			}
			ca.Edit = &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{snap.URI: edits}}
		}
		if a.Command != "" {
			args := append([]any{string(snap.URI)}, a.Args...)
			ca.Command = &protocol.Command{Title: a.Title, Command: a.Command, Arguments: args}
		}
		out = append(out, ca)
	}
	return out, nil
}

// executeCommand runs pfls.estimateLoop [uri, line]: it answers the report
// as a string, shows it to the user, and keeps it for hovers on the loop.
// pfls.profile [uri] starts a profile in the background (profile.go).
func (s *Server) executeCommand(ctx context.Context, r *request) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	if p.Command == hints.ProfileCommand {
		return s.profileCommand(p.Arguments)
	}
	if p.Command != hints.EstimateCommand {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown command %q", p.Command))
	}
	var uri string
	var line int
	if len(p.Arguments) != 2 || json.Unmarshal(p.Arguments[0], &uri) != nil || json.Unmarshal(p.Arguments[1], &line) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, hints.EstimateCommand+" takes [uri, line]")
	}
	doc := s.store.get(protocol.DocumentURI(uri))
	if doc == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "document not open: "+uri)
	}
	if !doc.analysable() {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "document not analysed: "+uri)
	}
	if s.opts.Estimate == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "no estimator")
	}
	var text string
	var err error
	est := s.estimateSettings(ctx, doc)
	if aerr := s.analyse(ctx, "estimate", func(ctx context.Context) { text, err = s.opts.Estimate(ctx, doc.File, line, est) }); aerr != nil {
		return nil, aerr
	}
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: text})
	return text, nil
}

// estimateSettings are the current estimate settings with the program's
// other files that the server sees: the open documents and the closed
// files defining the names snap's file uses (a module's subroutines in a
// file of their own), whose procedures the estimator follows calls into.
func (s *Server) estimateSettings(ctx context.Context, snap *Snapshot) hints.EstimateSettings {
	est := s.currentSettings().Estimate
	w := s.workspaceFor(ctx, origin{snap.URI, snap.File}, need{callees: hints.FileNames(snap.File)})
	est.Others = w.others(snap.File)
	return est
}
