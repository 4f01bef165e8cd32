// Package lsp is pfls's language server: the only code that knows LSP and
// JSON-RPC. It holds the message framing (stream.go), the dispatch of
// methods to small handlers with lifecycle, cancellation and panic
// recovery (server.go), the document store of immutable versioned
// snapshots (store.go), the one conversion between LSP positions and byte
// offsets (position.go), debounced diagnostics (diagnostics.go), settings
// (settings.go) and their schema for editors (schema.go), the LSP 3.17
// inlay hint types that go.lsp.dev/protocol v0.12.0 lacks (inlay.go), code
// actions and commands (actions.go), the workspace index (index.go) and
// the reading of regular files with bounds (files.go).
// The features themselves are plain producers in package hints; handlers
// only convert.
package lsp
