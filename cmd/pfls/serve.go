package main

import (
	"context"
	"fmt"
	"io"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/lsp"
	"github.com/pfls/pfls/parser"
)

// runServe runs the language server over stdin and stdout until the
// client sends exit; logs go to stderr. It returns 0 after a shutdown
// and exit, 1 when the client went away without them, 2 on bad usage.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a != "--stdio" { // editors often pass --stdio
			fmt.Fprintf(stderr, "pfls serve: unexpected argument %q (the server speaks LSP over stdin and stdout)\n", a)
			return 2
		}
	}
	eng := complexity.NewEngine(complexity.Options{})
	lsp.Version = version
	opts := lsp.Options{
		Log: stderr,
		Inlay: func(f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
			return hints.InlayHints(f, eng, start, end, o)
		},
		StatementHover: func(f *parser.File, off int) string {
			return hints.StatementHover(f, eng, off)
		},
	}
	return lsp.Serve(context.Background(), stdin, stdout, nil, opts)
}
