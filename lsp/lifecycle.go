package lsp

import (
	"context"
	"encoding/json"

	"github.com/pfls/pfls/hints"
	"go.lsp.dev/protocol"
)

// handlers maps each method to its handler. Text synchronisation and the
// lifecycle run in message order; everything else runs concurrently.
var handlers = map[string]handler{
	"initialize":                       {fn: (*Server).initialize, sync: true},
	"initialized":                      {fn: (*Server).initialized, sync: true},
	"shutdown":                         {fn: (*Server).shutdown, sync: true},
	"textDocument/didOpen":             {fn: (*Server).didOpen, sync: true},
	"textDocument/didChange":           {fn: (*Server).didChange, sync: true},
	"textDocument/didClose":            {fn: (*Server).didClose, sync: true},
	"textDocument/didSave":             {fn: ignore, sync: true},
	"workspace/didChangeConfiguration": {fn: (*Server).didChangeConfiguration, sync: true},
	"$/setTrace":                       {fn: ignore, sync: true},
	"textDocument/documentSymbol":      {fn: (*Server).documentSymbol},
	"workspace/symbol":                 {fn: (*Server).workspaceSymbol},
	"textDocument/definition":          {fn: (*Server).definition},
	"textDocument/hover":               {fn: (*Server).hover},
	"textDocument/references":          {fn: (*Server).references},
	"textDocument/prepareRename":       {fn: (*Server).prepareRename},
	"textDocument/rename":              {fn: (*Server).rename},
	"textDocument/completion":          {fn: (*Server).completion},
	"textDocument/signatureHelp":       {fn: (*Server).signatureHelp},
	"textDocument/inlayHint":           {fn: (*Server).inlayHint},
	"inlayHint/resolve":                {fn: (*Server).inlayHintResolve},
	"textDocument/codeAction":          {fn: (*Server).codeAction},
	"workspace/didChangeWatchedFiles":  {fn: (*Server).didChangeWatchedFiles, sync: true},
	"workspace/executeCommand":         {fn: (*Server).executeCommand},
	"window/workDoneProgress/cancel":   {fn: (*Server).cancelProgress, sync: true},
}

func ignore(*Server, context.Context, *request) (any, error) { return nil, nil }

// initializeParams is the part of LSP's InitializeParams pfls reads. It is
// declared here, not taken from go.lsp.dev/protocol, because that LSP
// 3.15 type fails to decode some capabilities 3.16+ clients send.
type initializeParams struct {
	InitializationOptions json.RawMessage      `json:"initializationOptions"`
	RootURI               protocol.DocumentURI `json:"rootUri"`
	WorkspaceFolders      []struct {
		URI protocol.DocumentURI `json:"uri"`
	} `json:"workspaceFolders"`
	Capabilities struct {
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
		} `json:"window"`
		Workspace struct {
			DidChangeWatchedFiles struct {
				DynamicRegistration bool `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
			Configuration bool `json:"configuration"`
			InlayHint     struct {
				RefreshSupport bool `json:"refreshSupport"`
			} `json:"inlayHint"`
		} `json:"workspace"`
		TextDocument struct {
			DocumentSymbol struct {
				HierarchicalDocumentSymbolSupport bool `json:"hierarchicalDocumentSymbolSupport"`
			} `json:"documentSymbol"`
			Hover struct {
				ContentFormat []string `json:"contentFormat"`
			} `json:"hover"`
			InlayHint *struct {
				ResolveSupport struct {
					Properties []string `json:"properties"`
				} `json:"resolveSupport"`
			} `json:"inlayHint"`
			CodeAction struct {
				ResolveSupport struct {
					Properties []string `json:"properties"`
				} `json:"resolveSupport"`
			} `json:"codeAction"`
		} `json:"textDocument"`
	} `json:"capabilities"`
}

// serverCapabilities is the initialize result's capabilities, with the
// LSP 3.17 inlayHintProvider.
type serverCapabilities struct {
	TextDocumentSync        protocol.TextDocumentSyncOptions `json:"textDocumentSync"`
	HoverProvider           bool                             `json:"hoverProvider"`
	DocumentSymbolProvider  bool                             `json:"documentSymbolProvider"`
	WorkspaceSymbolProvider bool                             `json:"workspaceSymbolProvider"`
	DefinitionProvider      bool                             `json:"definitionProvider"`
	ReferencesProvider      bool                             `json:"referencesProvider"`
	RenameProvider          protocol.RenameOptions           `json:"renameProvider"`
	CompletionProvider      protocol.CompletionOptions       `json:"completionProvider"`
	SignatureHelpProvider   protocol.SignatureHelpOptions    `json:"signatureHelpProvider"`
	InlayHintProvider       inlayHintOptions                 `json:"inlayHintProvider"`
	CodeActionProvider      any                              `json:"codeActionProvider"` // true, or codeActionOptions with resolveProvider
	ExecuteCommandProvider  protocol.ExecuteCommandOptions   `json:"executeCommandProvider"`
	features2Capabilities
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	} `json:"serverInfo"`
}

// Version is reported to clients in the initialize result.
var Version = "0.1.0-dev"

func (s *Server) initialize(ctx context.Context, r *request) (any, error) {
	var p initializeParams
	if len(r.params) > 0 {
		if err := decode(r, &p); err != nil {
			return nil, err
		}
	}
	c := p.Capabilities
	info := clientInfo{
		configuration: c.Workspace.Configuration,
		inlayRefresh:  c.Workspace.InlayHint.RefreshSupport,
		hierarchical:  c.TextDocument.DocumentSymbol.HierarchicalDocumentSymbolSupport,
		progress:      c.Window.WorkDoneProgress,
		watch:         c.Workspace.DidChangeWatchedFiles.DynamicRegistration,
	}
	var roots []string
	for _, w := range p.WorkspaceFolders {
		if path, ok := uriToPath(w.URI); ok {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootURI != "" {
		if path, ok := uriToPath(p.RootURI); ok {
			roots = append(roots, path)
		}
	}
	// Markdown unless the client lists the formats it takes without it
	// (a client that says nothing gets Markdown, as most render it).
	info.markdown = len(c.TextDocument.Hover.ContentFormat) == 0
	for _, f := range c.TextDocument.Hover.ContentFormat {
		if f == "markdown" {
			info.markdown = true
		}
	}
	for _, prop := range c.TextDocument.CodeAction.ResolveSupport.Properties {
		info.resolveActionEdit = info.resolveActionEdit || prop == "edit"
	}
	if ih := c.TextDocument.InlayHint; ih != nil {
		for _, prop := range ih.ResolveSupport.Properties {
			if prop == "tooltip" {
				info.resolveTooltip = true
			}
		}
	}
	settings := DefaultSettings()
	if len(p.InitializationOptions) > 0 {
		settings = parseSettings(p.InitializationOptions, settings)
	}
	s.mu.Lock()
	s.client = info
	s.settings = settings
	s.roots = roots
	s.realRoots = resolveRoots(roots)
	s.state = stateRunning
	s.mu.Unlock()
	s.store.setRoots(roots)

	var res initializeResult
	res.ServerInfo.Name, res.ServerInfo.Version = "pfls", Version
	caps := &res.Capabilities
	caps.TextDocumentSync = protocol.TextDocumentSyncOptions{OpenClose: true, Change: protocol.TextDocumentSyncKindIncremental}
	caps.HoverProvider = true
	caps.DocumentSymbolProvider = true
	caps.WorkspaceSymbolProvider = true
	caps.DefinitionProvider = true
	caps.ReferencesProvider = true
	caps.RenameProvider = protocol.RenameOptions{PrepareProvider: true}
	caps.CompletionProvider = protocol.CompletionOptions{TriggerCharacters: []string{"$"}}
	caps.SignatureHelpProvider = protocol.SignatureHelpOptions{TriggerCharacters: []string{"(", ","}}
	caps.InlayHintProvider = inlayHintOptions{ResolveProvider: true}
	caps.CodeActionProvider = codeActionProvider(info.resolveActionEdit)
	caps.ExecuteCommandProvider = protocol.ExecuteCommandOptions{Commands: []string{hints.EstimateCommand, hints.ProfileCommand}}
	caps.features2Capabilities = advertise2()
	return res, nil
}

func (s *Server) initialized(ctx context.Context, r *request) (any, error) {
	go s.fetchSettings()
	s.mu.Lock()
	roots, progress, watch := s.roots, s.client.progress, s.client.watch
	s.mu.Unlock()
	if watch {
		go s.watchFiles()
	}
	s.index.start.Do(func() {
		if len(roots) > 0 {
			go s.indexWorkspace(roots, progress)
		} else {
			close(s.index.done)
		}
	})
	return nil, nil
}

func (s *Server) shutdown(ctx context.Context, r *request) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	s.diags.stop()
	return nil, nil
}

type didOpenParams struct {
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version int32                `json:"version"`
		Text    string               `json:"text"`
	} `json:"textDocument"`
	// src is the text instead of TextDocument.Text when the decoding
	// unescaped it into bytes of its own (jsontext.go).
	src []byte
}

func (s *Server) didOpen(ctx context.Context, r *request) (any, error) {
	var p didOpenParams
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	if p.TextDocument.URI == "" {
		return nil, nil
	}
	if p.src != nil {
		s.store.openSrc(p.TextDocument.URI, p.TextDocument.Version, p.src)
	} else {
		s.store.open(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
	}
	s.diags.schedule(p.TextDocument.URI)
	return nil, nil
}

type didChangeParams struct {
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version int32                `json:"version"`
	} `json:"textDocument"`
	ContentChanges []contentChange `json:"contentChanges"`
}

func (s *Server) didChange(ctx context.Context, r *request) (any, error) {
	var p didChangeParams
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	if s.store.change(p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges) != nil {
		s.diags.schedule(p.TextDocument.URI)
	}
	return nil, nil
}

func (s *Server) didClose(ctx context.Context, r *request) (any, error) {
	var p struct {
		TextDocument struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"textDocument"`
	}
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	if s.store.get(p.TextDocument.URI) == nil {
		return nil, nil
	}
	name := s.store.get(p.TextDocument.URI).File.Name
	s.pubMu.Lock()
	s.store.remove(p.TextDocument.URI)
	s.diags.forget(p.TextDocument.URI)
	s.notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
	s.pubMu.Unlock()
	s.reindexClosed(p.TextDocument.URI)
	if s.opts.Release != nil && !s.openName(name) {
		s.opts.Release(name)
	}
	return nil, nil
}

// openName reports whether an open document has the file name name (two
// URIs, such as untitled ones, may share a name).
func (s *Server) openName(name string) bool {
	for _, d := range s.store.all() {
		if d.File.Name == name {
			return true
		}
	}
	return false
}
