package parser

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Form is the source form of a file.
type Form uint8

// The source forms. FormAuto picks one from the file name.
const (
	FormAuto Form = iota
	Fixed
	Free
)

func (f Form) String() string {
	switch f {
	case Fixed:
		return "fixed"
	case Free:
		return "free"
	}
	return "auto"
}

// FormFor returns the source form DESIGN.md §3 gives a file name:
// .f90 .f95 .f03 .f08 .hpf (any case) are free form, everything else fixed.
func FormFor(name string) Form {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".f90", ".f95", ".f03", ".f08", ".f18", ".hpf":
		return Free
	}
	return Fixed
}

// Config holds the options of a parse. The zero value is usable.
type Config struct {
	// Form overrides the source form chosen from the file name.
	Form Form
	// LineLength is the last significant column of fixed-form lines:
	// 0 means 72; a negative value means no limit.
	LineLength int
	// Defines are the preprocessor macros defined before the file starts.
	Defines map[string]string
	// Include returns the text of an INCLUDE'd or #include'd file name,
	// looked up for the file from (the including file, or the last file
	// of a chain of INCLUDEs), and the path it was read from, which names
	// the file in messages and cycle checks. An error whose chain holds
	// fs.ErrNotExist means "not found" (a warning); any other is a refusal
	// (an error). The parser does no I/O of its own: IncludeFromDisk is
	// the Include of a caller that reads the file system.
	Include func(name, from string, c *Config) (text []byte, path string, err error)
	// IncludePath lists folders searched for INCLUDE'd files after the
	// including file's own folder.
	IncludePath []string
	// Roots are the workspace folders. IncludeFromDisk reads only inside
	// the including file's folder, the IncludePath and the Roots.
	Roots []string
	// IncludeAnywhere lets IncludeFromDisk read any file: absolute names
	// and ".." escapes outside the folders above.
	IncludeAnywhere bool

	// recoverInternal keeps a statement's internal errors recovered in a
	// test binary, where they panic otherwise (strictPanics).
	recoverInternal bool
}

// IncludeFromDisk is the Include of a caller that reads the file system.
// A relative name is looked up next to the including file, then in each
// folder of c.IncludePath; an absolute name is taken as it is. The file is
// read only when it lies (symbolic links resolved) inside the including
// file's folder, the include path or a workspace root, unless
// c.IncludeAnywhere; only when it is a regular file (no device, FIFO or
// folder); and only up to MaxIncludeBytes, counted while reading.
func IncludeFromDisk(name, from string, c *Config) ([]byte, string, error) {
	if c == nil {
		c = &Config{}
	}
	fromDir := filepath.Dir(from)
	var candidates []string
	if filepath.IsAbs(name) {
		candidates = []string{name}
	} else {
		candidates = append(candidates, filepath.Join(fromDir, name))
		for _, d := range c.IncludePath {
			candidates = append(candidates, filepath.Join(d, name))
		}
	}
	allowed := append(append([]string{fromDir}, c.IncludePath...), c.Roots...)
	var refusal error
	for _, cand := range candidates {
		real, err := filepath.EvalSymlinks(cand)
		if err != nil {
			continue
		}
		if abs, err := filepath.Abs(real); err == nil {
			real = abs
		}
		if !c.IncludeAnywhere && !insideAny(real, allowed) {
			if refusal == nil {
				refusal = fmt.Errorf("%s is outside the including file's folder, the include path and the workspace (set the include path, or allow includes from anywhere)", cand)
			}
			continue
		}
		b, err := readRegular(real, MaxIncludeBytes)
		if err != nil {
			return nil, "", err
		}
		return b, real, nil
	}
	if refusal != nil {
		return nil, "", refusal
	}
	dirs := make([]string, len(candidates))
	for i, c := range candidates {
		dirs[i] = filepath.Dir(c)
	}
	return nil, "", notFound{dirs}
}

// notFound is the error of an INCLUDE'd file that is nowhere.
type notFound struct{ dirs []string }

func (e notFound) Error() string { return "not found (looked in " + strings.Join(e.dirs, ", ") + ")" }
func (e notFound) Unwrap() error { return fs.ErrNotExist }

// insideAny reports whether path lies inside one of the folders.
func insideAny(path string, dirs []string) bool {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		rel, err := filepath.Rel(d, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// readRegular reads the regular file path, up to limit bytes: a device,
// FIFO or folder is refused before it is opened (so that a FIFO cannot
// block and /dev/zero cannot fill memory), the opened file is checked
// again, and the reading stops past the limit however large the file
// claims or grows to be.
func readRegular(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, describeMode(info.Mode()))
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("too large to analyse (%s has %d bytes; the limit is %d)", path, info.Size(), limit)
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if info, err := fh.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("too large to analyse (%s has more than %d bytes)", path, limit)
	}
	return b, nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

func (c *Config) lineLength() int {
	switch {
	case c == nil || c.LineLength == 0:
		return 72
	case c.LineLength < 0:
		return 1 << 30
	}
	return c.LineLength
}

// Edit describes a change of the text: the bytes [Start, OldEnd) of the old
// text became [Start, NewEnd) of the new one.
type Edit struct {
	Start, OldEnd, NewEnd int
}

// Severity of an Error.
type Severity uint8

// The severities, in the order of LSP's DiagnosticSeverity.
const (
	SevError Severity = iota + 1
	SevWarning
	SevInformation
	SevHint
)

func (s Severity) String() string {
	switch s {
	case SevWarning:
		return "warning"
	case SevInformation:
		return "information"
	case SevHint:
		return "hint"
	}
	return "error"
}

// Error is a syntax or declaration error with its extent. In a Unit the
// offsets are relative to the unit's Base; File.Errors makes them absolute.
type Error struct {
	Pos, End Pos
	Severity Severity
	Code     string // "syntax", "undeclared", ...
	Msg      string
}

// Comment is a comment line or a trailing "!" comment.
type Comment struct {
	Pos, End Pos
}

// Range is a stretch of text, such as a preprocessor branch not taken.
type Range struct {
	Pos, End Pos
}

// UnitKind says what a program unit is.
type UnitKind uint8

// The unit kinds. UnitMain is a main program, with or without PROGRAM.
const (
	UnitNone UnitKind = iota // comments or directives outside any unit
	UnitMain
	UnitSubroutine
	UnitFunction
	UnitModule
	UnitSubmodule
	UnitBlockData
	UnitProcedure // a separate module procedure: MODULE PROCEDURE NAME
)

var unitKindNames = [...]string{"none", "program", "subroutine", "function", "module", "submodule", "block data", "module procedure"}

func (k UnitKind) String() string { return unitKindNames[k] }

// Unit is a program unit. A top-level unit owns the bytes [Base, Base+Len)
// of its file, from the end of the previous unit to the end of its own END
// line (the last unit also owns what follows). All positions inside it,
// including those of its contained procedures, are relative to Base of the
// top-level unit, so an incremental reparse can reuse it anywhere.
type Unit struct {
	Base int
	Len  int

	Kind     UnitKind
	Name     string
	Header   Stmt   // PROGRAM, SUBROUTINE, FUNCTION, MODULE... (nil for a bare main program)
	Body     []Stmt // declarations and executable statements, as constructs
	Contains []*Unit
	EndStmt  Stmt // nil when the END is missing

	Comments []Comment
	Inactive []Range // preprocessor branches not taken
	Errors   []Error // syntax errors, then declaration errors
	Scope    *Scope

	Parent *Unit // host of a contained procedure; nil at top level

	cpp    *cppState // preprocessor state at the start of the unit
	endCPP *cppState // and at its end
	stmts  int       // number of simple statements, for statistics
	lead   int       // offset of the first line of the first statement (Len if none)
}

// Abs converts a position inside the unit to an absolute file offset.
func (u *Unit) Abs(p Pos) int { return u.Base + int(p) }

// Rel converts an absolute offset to a position relative to the unit.
func (u *Unit) Rel(off int) Pos { return Pos(off - u.Base) }

// Top returns the top-level unit holding u.
func (u *Unit) Top() *Unit {
	for u.Parent != nil {
		u = u.Parent
	}
	return u
}

// File is a parsed source file: its text, form, line index and units.
type File struct {
	Name   string
	Src    []byte
	Form   Form
	Lines  *Mapper
	Units  []*Unit
	Config *Config
	// Dialect is DialectCMF for CM Fortran (.fcm) files, else "".
	Dialect string
}

// Parse parses src, which came from the file name (used for the source
// form and for INCLUDE look-ups). It never fails: errors are in the units.
func Parse(name string, src []byte, cfg *Config) *File {
	src = normalizeCR(src)
	f := &File{Name: name, Src: src, Form: formOf(name, cfg), Config: cfg, Dialect: DialectFor(name)}
	f.Lines = NewMapper(src)
	if len(src) > MaxFileBytes {
		// One unit of nothing but the diagnostic, so that the units still
		// cover the text.
		u := &Unit{Len: len(src), lead: len(src), Scope: &Scope{Syms: map[string]*Symbol{}}}
		u.Scope.Unit = u
		u.Errors = []Error{{Pos: 0, End: 0, Severity: SevError, Code: "too-large",
			Msg: fmt.Sprintf("too large to analyse (the file has %d bytes; the limit is %d)", len(src), MaxFileBytes)}}
		f.Units = []*Unit{u}
		return f
	}
	p := newFileParser(f)
	f.Units = p.parseUnits(0, initialCPP(cfg), nil)
	return f
}

// normalizeCR returns src with every lone "\r" (a line end of old Mac
// files, and one of LSP's three) turned into "\n", so that such a file
// reads as lines. Offsets do not move; src itself is returned, unchanged,
// when it has no lone "\r".
func normalizeCR(src []byte) []byte {
	i := loneCR(src, 0)
	if i < 0 {
		return src
	}
	out := bytes.Clone(src)
	for ; i >= 0; i = loneCR(src, i+1) {
		out[i] = '\n'
	}
	return out
}

// loneCR returns the offset of the first "\r" at or after from that no
// "\n" follows, or -1.
func loneCR(src []byte, from int) int {
	for from < len(src) {
		j := bytes.IndexByte(src[from:], '\r')
		if j < 0 {
			return -1
		}
		i := from + j
		if i+1 >= len(src) || src[i+1] != '\n' {
			return i
		}
		from = i + 1
	}
	return -1
}

func formOf(name string, cfg *Config) Form {
	if cfg != nil && cfg.Form != FormAuto {
		return cfg.Form
	}
	return FormFor(name)
}

// Errors returns every error of the file, sorted by position, with
// absolute offsets.
func (f *File) Errors() []Error {
	var out []Error
	walk := func(u *Unit) {
		for _, e := range u.Errors {
			e.Pos += Pos(u.Base)
			e.End += Pos(u.Base)
			out = append(out, e)
		}
	}
	for _, u := range f.Units {
		walk(u)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// UnitAt returns the top-level unit owning the absolute offset off.
func (f *File) UnitAt(off int) *Unit {
	i := sort.Search(len(f.Units), func(i int) bool { return f.Units[i].Base+f.Units[i].Len > off })
	if i == len(f.Units) {
		if i == 0 {
			return nil
		}
		i--
	}
	return f.Units[i]
}

// Reparse returns the tree of newSrc, which is f's text with the edit e
// applied. Top-level units entirely before the edit are reused as they are,
// those after it are reused with a shifted Base, and only the units the
// edit touches are parsed again. The result equals Parse(f.Name, newSrc).
func (f *File) Reparse(newSrc []byte, e Edit) *File {
	if e.Start < 0 || e.Start > e.OldEnd || e.OldEnd > len(f.Src) || e.NewEnd < e.Start || e.NewEnd > len(newSrc) ||
		len(newSrc)-len(f.Src) != e.NewEnd-e.OldEnd || len(f.Units) == 0 || len(newSrc) > MaxFileBytes || len(f.Src) > MaxFileBytes ||
		e.Start > 0 && newSrc[e.Start-1] == '\r' {
		// (A "\r" just before the edit may have stopped or started being
		// a line end of its own.)
		return Parse(f.Name, newSrc, f.Config)
	}
	newSrc = normalizeCR(newSrc)
	nf := &File{Name: f.Name, Src: newSrc, Form: f.Form, Config: f.Config, Dialect: f.Dialect}
	nf.Lines = f.Lines.Update(newSrc, e)
	delta := e.NewEnd - e.OldEnd

	// The edit may turn its line into a continuation of the statement
	// before it, which may sit in the previous unit behind any number of
	// comment lines; so reparsing starts at the unit holding the last
	// statement that begins before the edited line.
	from := f.Lines.LineStart(f.Lines.Line(e.Start))
	first := 0
	for first+1 < len(f.Units) && f.Units[first+1].Base <= from {
		first++
	}
	for first > 0 && from <= f.Units[first].Base+f.Units[first].lead {
		first--
	}
	// Where the previous unit ends can depend on the edited unit's first
	// statement too (a fixed-form line that an edit turns into or out of
	// a continuation, an END that stops being one: found by FuzzReparse),
	// so the unit before is parsed again as well.
	if first > 0 {
		first--
	}
	p := newFileParser(nf)
	// Old units that start after the edited bytes (plus the lookahead a
	// fixed-form statement needs, which never crosses a line start) can be
	// reused once the new parse reaches their shifted start in the same
	// preprocessor state.
	reuse := func(off int, cpp *cppState) []*Unit {
		old := off - delta
		if old <= e.OldEnd {
			return nil
		}
		i := sort.Search(len(f.Units), func(i int) bool { return f.Units[i].Base >= old })
		if i == len(f.Units) || f.Units[i].Base != old || !f.Units[i].cpp.equal(cpp) {
			return nil
		}
		out := make([]*Unit, 0, len(f.Units)-i)
		for _, u := range f.Units[i:] {
			out = append(out, shiftUnit(u, delta, nil))
		}
		return out
	}
	units := p.parseUnits(f.Units[first].Base, f.Units[first].cpp, reuse)
	nf.Units = append(append(make([]*Unit, 0, first+len(units)), f.Units[:first]...), units...)
	return nf
}

// shiftUnit copies u with its Base moved by delta; the tree inside is
// shared, since its positions are relative.
func shiftUnit(u *Unit, delta int, parent *Unit) *Unit {
	c := *u
	c.Base += delta
	c.Parent = parent
	if len(u.Contains) > 0 {
		c.Contains = make([]*Unit, len(u.Contains))
		for i, k := range u.Contains {
			c.Contains[i] = shiftUnit(k, delta, &c)
		}
	}
	return &c
}
