package parser

// TokenSpan is the source extent of one token, as absolute offsets.
type TokenSpan struct {
	Start, End int
}

// StatementSpan is one logical statement of a file: its extent (from its
// first to its last significant byte, continuation lines included) and
// its tokens in order. Preprocessor lines have no tokens.
type StatementSpan struct {
	Start, End int
	Tokens     []TokenSpan
}

// Statements splits src into logical statements and tokens the way Parse
// reads it (comments dropped, continuation lines joined, fixed-form blanks
// ignored). Tests use it to cut statements at token boundaries; editors
// could use it for lexical highlighting. A token whose bytes are apart in
// the source (fixed form ignores blanks: "CALL FOO" is one name) gives one
// span per stretch; a keyword glued to the name after it ("DO10I") is one
// token, since only the parser knows where it splits.
func Statements(name string, src []byte, cfg *Config) []StatementSpan {
	src = normalizeCR(src)
	f := &File{Name: name, Src: src, Form: formOf(name, cfg), Config: cfg}
	r := reader{src: src, form: f.Form, lineLen: cfg.lineLength(), cfg: cfg, cpp: initialCPP(cfg)}
	var out []StatementSpan
	var sc scanner
	for r.pos < len(src) {
		st := r.next()
		if st == nil {
			break
		}
		ss := StatementSpan{Start: int(st.from), End: int(st.to)}
		if st.kind != rawCpp {
			sc.init(st)
			for {
				t := sc.next()
				if t.kind == tEOS || t.e <= t.s {
					break
				}
				// A token whose bytes are not contiguous in the source
				// (fixed form: "CALL FOO" is the name CALLFOO; or a
				// continuation line) gives one span per stretch.
				from := t.s
				for k := t.s + 1; k <= t.e; k++ {
					if k == t.e || st.off[k] != st.off[k-1]+1 {
						ss.Tokens = append(ss.Tokens, TokenSpan{Start: int(st.off[from]), End: int(st.off[k-1]) + 1})
						from = k
					}
				}
			}
		}
		out = append(out, ss)
	}
	return out
}
