package hints

import (
	"bytes"
	"sort"
	"strings"

	"github.com/pfls/pfls/parser"
)

// SemToken is one classified stretch of one line of a file. Type is an
// LSP semantic token type (keyword, macro, comment, string, number,
// function, variable, parameter, property, namespace, struct, type,
// label); Mods are modifiers (declaration, readonly, defaultLibrary and
// pfls's own distributed and directive).
type SemToken struct {
	Start, End int
	Type       string
	Mods       []string
}

// The token types and modifiers SemTokens produces, in the order of the
// LSP legend.
var (
	SemTokenTypes     = []string{"keyword", "macro", "comment", "string", "number", "function", "variable", "parameter", "property", "namespace", "struct", "type", "label"}
	SemTokenModifiers = []string{"declaration", "readonly", "defaultLibrary", "distributed", "directive"}
)

// SemTokens classifies the text of f: comments; directive sentinels
// (macro); statement keywords, directive and Fortran D keywords
// (DECOMPOSITION, ALIGN, DISTRIBUTE, with the directive modifier), their
// clauses and distribution formats; numbers and strings; and every name
// by what it is bound to: procedures and intrinsics (function),
// variables, PARAMETER constants (readonly), dummy arguments
// (parameter), templates, decompositions and processor arrangements
// (type), modules, COMMON blocks, components and construct names. A
// variable or template that is distributed or aligned carries the
// distributed modifier. The tokens are sorted, one line each, and do not
// overlap.
func SemTokens(f *parser.File) []SemToken {
	var out []SemToken
	src := f.Src
	add := func(start, end int, typ string, mods ...string) {
		if start < 0 || end > len(src) || end <= start || bytes.IndexByte(src[start:end], '\n') >= 0 {
			return
		}
		out = append(out, SemToken{start, end, typ, mods})
	}
	// word adds the keyword kw written from off, blanks inside it allowed
	// (fixed form), one token per run of letters; when it is not written
	// there, it is looked for further on the line.
	word := func(off int, kw string, mods ...string) {
		kw = strings.ReplaceAll(kw, " ", "")
		if kw == "" || off < 0 || off >= len(src) {
			return
		}
		if !keywordAt(src, off, kw) {
			le := f.Lines.LineEnd(f.Lines.Line(off))
			i := bytes.Index(bytes.ToUpper(src[off:le]), []byte(kw))
			if i < 0 {
				return
			}
			off += i
		}
		i, k, runStart := off, 0, off
		for k < len(kw) && i < len(src) {
			c := src[i]
			if c == ' ' || c == '\t' {
				if runStart < i {
					add(runStart, i, "keyword", mods...)
				}
				i++
				runStart = i
				continue
			}
			if upperByte(c) != kw[k] {
				return
			}
			i, k = i+1, k+1
		}
		add(runStart, i, "keyword", mods...)
	}
	// between adds the last keyword kw written as a word in [from, to).
	between := func(from, to int, kw string, mods ...string) {
		if from < 0 || to > len(src) || from >= to {
			return
		}
		up := bytes.ToUpper(src[from:to])
		for i := bytes.LastIndex(up, []byte(kw)); i >= 0; i = bytes.LastIndex(up[:i], []byte(kw)) {
			a, b := from+i, from+i+len(kw)
			if (a == 0 || !isNameByte(src[a-1])) && (b >= len(src) || !isNameByte(src[b])) {
				add(a, b, "keyword", mods...)
				return
			}
		}
	}
	// Names, by binding.
	w := newWorkspace(f, nil)
	for _, r := range w.refs {
		if r.file != f || r.split {
			continue
		}
		typ, mods := nameClass(r)
		add(r.start, r.end, typ, mods...)
	}
	allUnits(f, func(u *parser.Unit) {
		for _, c := range u.Comments {
			add(u.Abs(c.Pos), u.Abs(c.End), "comment")
		}
		for _, st := range ownStmts(u) {
			parser.Inspect(st, func(n parser.Node) bool {
				switch x := n.(type) {
				case *parser.Lit:
					if x.Kind == parser.StringLit || x.Kind == parser.HollerithLit {
						add(u.Abs(x.ValuePos), u.Abs(x.ValueEnd), "string")
					} else if x.Kind == parser.LogicalLit {
						add(u.Abs(x.ValuePos), u.Abs(x.ValueEnd), "keyword")
					} else {
						add(u.Abs(x.ValuePos), u.Abs(x.ValueEnd), "number")
					}
				case *parser.Directive:
					if x.Sentinel != "" {
						for l := f.Lines.Line(u.Abs(x.From)); l <= f.Lines.Line(u.Abs(x.To)); l++ {
							ls, le := f.Lines.LineStart(l), f.Lines.LineEnd(l)
							if n := sentinelLen(src[ls:le], f.Form); n > 0 {
								at := ls
								if f.Form != parser.Fixed {
									at += len(src[ls:le]) - len(bytes.TrimLeft(src[ls:le], " \t"))
								}
								add(at, at+n, "macro")
							}
						}
					}
					word(u.Abs(x.KeyPos), x.Name, "directive")
					switch s := x.Spec.(type) {
					case *parser.ClauseSpec:
						for _, c := range s.Clauses {
							word(u.Abs(c.NamePos), c.Name, "directive")
						}
					case *parser.DistributeSpec:
						for _, d := range s.Formats {
							if d.Kind == "BLOCK" || d.Kind == "CYCLIC" {
								word(u.Abs(d.Pos), d.Kind, "directive")
							}
						}
						if s.Onto != nil && len(s.Targets) > 0 {
							between(u.Abs(s.Targets[0].End()), u.Abs(s.Onto.Pos()), "ONTO", "directive")
						}
					case *parser.AlignSpec:
						if s.Target != nil && len(s.Alignees) > 0 {
							between(u.Abs(x.KeyPos), u.Abs(s.Target.Pos()), "WITH", "directive")
						}
					}
				case *parser.TypeDecl:
					word(u.Abs(x.KeyPos), x.Keyword)
					for _, a := range x.Attrs {
						word(u.Abs(a.NamePos), a.Name)
					}
				case *parser.SubprogramStmt:
					if x.Type != nil {
						word(u.Abs(x.Type.NamePos), x.Type.Name)
					}
					word(u.Abs(x.KeyPos), x.Keyword)
				case *parser.IfThenStmt:
					word(u.Abs(x.KeyPos), x.Keyword)
					if x.Cond != nil {
						between(u.Abs(x.Cond.End()), u.Abs(x.To), "THEN")
					}
				case parser.Stmt:
					if b := x.Base(); b != nil && b.Keyword != "" {
						word(u.Abs(b.KeyPos), b.Keyword)
					}
				}
				return true
			})
		}
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	kept := out[:0]
	for _, t := range out {
		if len(kept) > 0 && t.Start < kept[len(kept)-1].End {
			continue
		}
		kept = append(kept, t)
	}
	return kept
}

// keywordAt reports whether the letters of kw are written from off,
// blanks between them allowed.
func keywordAt(src []byte, off int, kw string) bool {
	k := 0
	for i := off; i < len(src) && k < len(kw); i++ {
		c := src[i]
		if c == ' ' || c == '\t' {
			if k == 0 {
				return false
			}
			continue
		}
		if upperByte(c) != kw[k] {
			return false
		}
		k++
	}
	return k == len(kw)
}

// nameClass returns the token type and modifiers of a name reference.
func nameClass(r ref) (string, []string) {
	var mods []string
	switch r.key.kind {
	case bindProc:
		if r.role == roleHeader || r.role == roleEnd {
			mods = append(mods, "declaration")
		}
		return "function", mods
	case bindIntrinsic:
		return "function", []string{"defaultLibrary"}
	case bindModule:
		return "namespace", nil
	case bindCommon:
		return "struct", nil
	case bindOpaque:
		switch r.key.why {
		case "a derived-type component":
			return "property", nil
		case "a construct name":
			return "label", nil
		}
		if strings.HasPrefix(r.key.why, "the keyword") {
			return "parameter", nil
		}
		return "variable", nil
	case bindLocal:
		if r.role == roleKeyword {
			return "parameter", nil
		}
		if r.key.unit == nil || r.key.unit.Scope == nil {
			return "variable", nil
		}
		sym := r.key.unit.Scope.Syms[r.key.name]
		if sym == nil {
			return "variable", nil
		}
		if (sym.Declared || sym.Param != nil) && sym.Included == "" && r.key.unit.Abs(sym.Decl) == r.start && r.file == r.key.file {
			mods = append(mods, "declaration")
		}
		if sym.Dist != nil || sym.Align != nil || sym.Layout != nil {
			mods = append(mods, "distributed")
		}
		switch sym.Kind {
		case parser.SymProcedure:
			return "function", mods
		case parser.SymTemplate, parser.SymProcessors, parser.SymDerivedType:
			return "type", mods
		case parser.SymConstruct:
			return "label", mods
		}
		if sym.Param != nil {
			mods = append(mods, "readonly")
		} else if sym.Dummy {
			return "parameter", mods
		}
		return "variable", mods
	}
	return "variable", nil
}
