// Package hints turns the results of the parser and the analyses into
// plain data for the editor and the command line: diagnostics, inlay hints,
// hovers and code actions with byte offsets and strings. It knows nothing
// of LSP or JSON.
package hints

import "github.com/pfls/pfls/parser"

// Diagnostic is a problem found in a file, with byte offsets into the
// file's text.
type Diagnostic struct {
	Start, End int
	Severity   parser.Severity
	Code       string
	Message    string
}

// Diagnostics returns every diagnostic of a parsed file, sorted by
// position: syntax errors and declaration errors.
func Diagnostics(f *parser.File) []Diagnostic {
	errs := f.Errors()
	out := make([]Diagnostic, 0, len(errs))
	for _, e := range errs {
		start, end := int(e.Pos), int(e.End)
		if end > len(f.Src) {
			end = len(f.Src)
		}
		if start > end {
			start = end
		}
		out = append(out, Diagnostic{Start: start, End: end, Severity: e.Severity, Code: e.Code, Message: e.Msg})
	}
	return out
}
