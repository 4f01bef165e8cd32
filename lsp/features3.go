package lsp

import (
	"context"
	"strings"

	"github.com/pfls/pfls/hints"
	"go.lsp.dev/protocol"
)

// The handlers of textDocument/formatting and rangeFormatting: the
// conservative formatter of package hints, its edits one per changed line.

func init() {
	handlers["textDocument/formatting"] = handler{fn: (*Server).formatting}
	handlers["textDocument/rangeFormatting"] = handler{fn: (*Server).rangeFormatting}
}

// FormatSettings are pfls.format.indent (spaces per level; 0: the
// editor's tab size) and pfls.format.keywordCase ("keep", "upper",
// "lower").
type FormatSettings struct {
	Indent      int    `json:"indent"`
	KeywordCase string `json:"keywordCase"`
}

func defaultFormatSettings() FormatSettings {
	return FormatSettings{Indent: hints.DefaultFormatOptions().Indent, KeywordCase: "keep"}
}

type formattingParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        *protocol.Range                 `json:"range"`
	Options      struct {
		TabSize int `json:"tabSize"`
	} `json:"options"`
}

func (s *Server) formatting(ctx context.Context, r *request) (any, error) {
	return s.format(r)
}

func (s *Server) rangeFormatting(ctx context.Context, r *request) (any, error) {
	return s.format(r)
}

// format answers both requests: the edits of the lines that change (in
// the range, when there is one).
func (s *Server) format(r *request) (any, error) {
	var p formattingParams
	out := []protocol.TextEdit{}
	if err := decode(r, &p); err != nil || r.snap == nil {
		return out, err
	}
	snap := r.snap
	if snap.Broken != "" || snap.TooLarge != "" || snap.File == nil {
		return out, nil
	}
	st := s.currentSettings().Format
	o := hints.FormatOptions{Indent: st.Indent, KeywordCase: st.KeywordCase}
	if o.Indent <= 0 {
		o.Indent = p.Options.TabSize
	}
	if o.Indent <= 0 || o.Indent > 16 {
		o.Indent = hints.DefaultFormatOptions().Indent
	}
	f := snap.File
	formatted := hints.Format(f, o)
	oldLines := strings.SplitAfter(string(f.Src), "\n")
	newLines := strings.SplitAfter(formatted, "\n")
	first, last := 0, len(oldLines)-1
	if p.Range != nil {
		first, last = int(p.Range.Start.Line), int(p.Range.End.Line)
		if p.Range.End.Character == 0 && last > first {
			last--
		}
	}
	if len(oldLines) != len(newLines) {
		// The formatter keeps lines; should it not, replace the text.
		if p.Range != nil {
			return out, nil
		}
		return []protocol.TextEdit{{Range: rangeOf(f, 0, len(f.Src)), NewText: formatted}}, nil
	}
	off := 0
	for i, old := range oldLines {
		if i >= first && i <= last && old != newLines[i] {
			oldBody := strings.TrimRight(old, "\r\n")
			newBody := strings.TrimRight(newLines[i], "\r\n")
			out = append(out, protocol.TextEdit{Range: rangeOf(f, off, off+len(oldBody)), NewText: newBody})
		}
		off += len(old)
	}
	return out, nil
}
