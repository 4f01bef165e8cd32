package parser

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// SymKind says what a name denotes.
type SymKind uint8

// The symbol kinds.
const (
	SymVariable SymKind = iota
	SymProcedure
	SymTemplate // HPF TEMPLATE or Fortran D DECOMPOSITION
	SymProcessors
	SymCommon // a COMMON block, under the key "/NAME/" ("//" for blank common)
	SymNamelist
	SymDerivedType
	SymConstruct
)

var symKindNames = [...]string{"variable", "procedure", "template", "processors", "common block", "namelist", "derived type", "construct"}

func (k SymKind) String() string { return symKindNames[k] }

// Symbol is what a unit knows of a name. Positions are relative to the
// top-level unit's Base.
type Symbol struct {
	// (The small fields are side by side, so that a Symbol takes 192
	// bytes, not 208: a unit of LAPACK has dozens.)
	Name      string
	Kind      SymKind
	Implicit  bool   // typed by the IMPLICIT rules, not declared
	Declared  bool   // named in a declaration (not only used)
	Decl      Pos    // first declaration or, for implicit variables, first use
	Type      string // INTEGER, REAL, DOUBLEPRECISION, COMPLEX, LOGICAL, CHARACTER, TYPE(T)...; "" if unknown
	TypeSpec  *TypeSpec
	Dims      []*DimSpec
	Param     Expr // the value of a PARAMETER
	Common    string
	InCommon  bool
	Dummy     bool
	External  bool
	Intrinsic bool
	Used      bool // referenced outside its declarations
	// byConstruct: a construct of the unit (BLOCK, ASSOCIATE, SELECT TYPE,
	// SELECT RANK) declares the name again, so Dims need not be the shape
	// in effect at a given reference (scopes are per unit).
	byConstruct bool
	Attrs       []string // ALLOCATABLE, POINTER, TARGET, SAVE, INTENT(IN), ...
	Align       *AlignSpec
	Dist        *DistributeSpec
	Layout      *LayoutSpec
	Included    string // the INCLUDE file the declaration came from
	Selector    Expr   // what an associate name stands for (ASSOCIATE (NAME => Selector))
}

// Rank is the number of dimensions.
func (s *Symbol) Rank() int { return len(s.Dims) }

// Scope is the symbol table of a program unit.
type Scope struct {
	Unit         *Unit
	Parent       *Scope // the host of a contained procedure
	Syms         map[string]*Symbol
	ImplicitNone bool
	implicit     [26]string
	Uses         []string
}

// Lookup finds a name in the scope or its hosts.
func (s *Scope) Lookup(name string) *Symbol {
	for ; s != nil; s = s.Parent {
		if sym, ok := s.Syms[name]; ok {
			return sym
		}
	}
	return nil
}

// ImplicitType returns the type the IMPLICIT rules give a name, or "" under
// IMPLICIT NONE.
func (s *Scope) ImplicitType(name string) string {
	if name == "" {
		return ""
	}
	c := name[0]
	if c < 'A' || c > 'Z' {
		return ""
	}
	for sc := s; sc != nil; sc = sc.Parent {
		if t := sc.implicit[c-'A']; t != "" {
			if t == "NONE" {
				return ""
			}
			return t
		}
	}
	if 'I' <= c && c <= 'N' {
		return "INTEGER"
	}
	return "REAL"
}

// TypeOf returns the type of a name: declared, or given by the IMPLICIT
// rules when the scope does not know it ("" under IMPLICIT NONE).
func (s *Scope) TypeOf(name string) string {
	if sym := s.Lookup(name); sym != nil {
		return sym.Type
	}
	return s.ImplicitType(name)
}

// Names returns the scope's own symbol names, sorted.
func (s *Scope) Names() []string {
	out := make([]string, 0, len(s.Syms))
	for k := range s.Syms {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func typeName(t *TypeSpec) string {
	if t == nil {
		return ""
	}
	switch t.Name {
	case "TYPE", "CLASS":
		return t.Name + "(" + t.Derived + ")"
	case "REAL":
		if l, ok := t.Kind.(*Lit); ok && (l.Value == "8" || l.Value == "16") {
			return "REAL*" + l.Value
		}
	}
	return t.Name
}

// resolve builds the symbol tables of a top-level unit and its contained
// procedures, and checks declarations.
func (p *parser) resolve(u *Unit) {
	p.resolveUnit(u, nil)
}

func (p *parser) resolveUnit(u *Unit, host *Scope) {
	// Room for the names of a typical routine, so that the table grows
	// seldom while it is filled.
	sc := &Scope{Unit: u, Parent: host, Syms: make(map[string]*Symbol, 16)}
	u.Scope = sc
	r := resolver{p: p, sc: sc, u: u}
	defer func() {
		// The failure boundary of a unit: a bug met while resolving it
		// leaves its scope partly filled and one diagnostic on it; the
		// other units and the contained procedures keep theirs.
		if e := recover(); e != nil {
			if strictPanics {
				panic(e)
			}
			p.internalError(u, "resolving the names of", e)
			for _, k := range u.Contains {
				if k.Scope == nil {
					p.resolveUnit(k, sc)
				}
			}
		}
	}()
	if testHook != nil {
		testHook("resolve", u)
	}
	r.header(u.Header)
	for _, s := range u.Body {
		r.decls(s)
	}
	for _, k := range u.Contains {
		// Contained procedures are names of the host.
		if k.Name != "" {
			sym := r.declare(k.Name, k.Header.Pos())
			sym.Kind = SymProcedure
		}
	}
	// Declared names without a type statement take the implicit type.
	for _, sym := range sc.Syms {
		if sym.Kind == SymVariable && sym.Type == "" {
			if t := sc.ImplicitType(sym.Name); t != "" {
				sym.Type, sym.Implicit = t, true
			}
		}
	}
	r.caching = true
	for _, s := range u.Body {
		r.refs(s)
	}
	r.caching = false
	r.checkDirectives()
	r.checkShapes()
	r.checkParamCycles(u.Body)
	r.checkSteps(u.Body)
	r.checkMappings()
	for _, k := range u.Contains {
		p.resolveUnit(k, sc)
	}
}

type resolver struct {
	p          *parser
	sc         *Scope
	u          *Unit
	directives []*Directive
	included   string   // the INCLUDE file being read, "" in the unit's own text
	incAt      Stmt     // the statement of the unit that began the INCLUDE chain
	chain      []string // the files of the INCLUDE chain, from the unit's own

	// While refs runs, a name is declared only where no symbol was found
	// (and remember records it), so lookups go through a small cache of
	// what they found, nil included (refs looks up every name an
	// expression uses).
	caching bool
	found   [64]struct {
		name string
		sym  *Symbol
		ok   bool
	}
}

// lookup is r.sc.Lookup, through the cache while refs runs.
func (r *resolver) lookup(name string) *Symbol {
	if !r.caching || name == "" {
		return r.sc.Lookup(name)
	}
	c := &r.found[r.slot(name)]
	if c.ok && c.name == name {
		return c.sym
	}
	sym := r.sc.Lookup(name)
	c.name, c.sym, c.ok = name, sym, true
	return sym
}

// remember adds sym, which refs has just put in the scope, to the cache.
func (r *resolver) remember(sym *Symbol) {
	if r.caching && sym.Name != "" {
		c := &r.found[r.slot(sym.Name)]
		c.name, c.sym, c.ok = sym.Name, sym, true
	}
}

// slot is the place of name in the cache. A one-letter name c lands at
// 5c + 11: the factor is odd, so the 26 letters (the commonest names: I,
// J, A, N) take 26 different slots. (The factor 8 of an earlier formula,
// 7 + 1, put A with I and B with J, which then kept evicting each other.)
func (r *resolver) slot(name string) uint {
	return (uint(name[0]) + uint(name[len(name)-1])*4 + uint(len(name))*11) & uint(len(r.found)-1)
}

func (r *resolver) declare(name string, at Pos) *Symbol {
	if s, ok := r.sc.Syms[name]; ok {
		if !s.Declared && r.included == "" {
			s.Decl = at
		}
		s.Declared = true
		return s
	}
	s := r.p.nodes.symbols.new()
	s.Name, s.Decl, s.Declared, s.Included = name, at, true, r.included // (a new slot is zero)
	r.sc.Syms[name] = s
	return s
}

func (r *resolver) header(h Stmt) {
	switch hs := h.(type) {
	case *ModuleStmt:
		// A submodule has access to its parent module's entities by host
		// association (Fortran 2018 14.2.3): names it does not declare
		// may be the parent's, as they may be a used module's.
		if hs.Parent != nil {
			r.sc.Uses = append(r.sc.Uses, hs.Parent.Name)
		}
	case *SubprogramStmt:
		for _, prm := range hs.Params {
			if id, ok := prm.(*Ident); ok {
				s := r.declare(id.Name, id.Pos())
				s.Dummy = true
				s.Declared = false
			}
		}
		if hs.Function {
			res := hs.Name
			if hs.Result != nil {
				res = hs.Result
			}
			s := r.declare(res.Name, res.Pos())
			s.Declared = hs.Type != nil
			if hs.Type != nil {
				s.Type, s.TypeSpec = typeName(hs.Type), hs.Type
			}
		}
	}
}

// decls records what a statement declares.
func (r *resolver) decls(st Stmt) {
	switch s := st.(type) {
	case *ImplicitStmt:
		if s.None {
			r.sc.ImplicitNone = true
			for i := range r.sc.implicit {
				r.sc.implicit[i] = "NONE"
			}
			return
		}
		for _, rule := range s.Rules {
			for _, rg := range rule.Ranges {
				a, b := upper(rg[0]), upper(rg[1])
				for c := a; c <= b && c >= 'A' && c <= 'Z'; c++ {
					r.sc.implicit[c-'A'] = typeName(rule.Type)
				}
			}
		}
	case *TypeDecl:
		var dims []*DimSpec
		var attrs []string
		param := false
		for _, a := range s.Attrs {
			switch a.Name {
			case "DIMENSION":
				dims = a.Dims
			case "PARAMETER":
				param = true
			}
			attrs = append(attrs, attrString(a))
		}
		for _, e := range s.Entities {
			sym := r.declare(e.Name.Name, e.Name.Pos())
			sym.Type, sym.TypeSpec = typeName(s.Type), s.Type
			if e.Dims != nil {
				sym.Dims = e.Dims
			} else if dims != nil {
				sym.Dims = dims
			}
			sym.Attrs = append(sym.Attrs, attrs...)
			if param {
				sym.Param = e.Init
			}
			for _, a := range attrs {
				if a == "EXTERNAL" {
					sym.External = true
					sym.Kind = SymProcedure
				}
				if a == "INTRINSIC" {
					sym.Intrinsic = true
					sym.Kind = SymProcedure
				}
			}
		}
	case *DimensionStmt:
		for _, e := range s.Entities {
			sym := r.declare(e.Name.Name, e.Name.Pos())
			sym.Dims = e.Dims
		}
	case *ParameterStmt:
		for _, d := range s.Defs {
			sym := r.declare(d.Name.Name, d.Name.Pos())
			sym.Param = d.Value
		}
	case *CommonStmt:
		for _, b := range s.Blocks {
			name := ""
			at := s.KeyPos
			if b.Name != nil {
				name, at = b.Name.Name, b.Name.Pos()
			}
			cb := r.declare("/"+name+"/", at)
			cb.Kind = SymCommon
			for _, e := range b.Entities {
				sym := r.declare(e.Name.Name, e.Name.Pos())
				sym.Common, sym.InCommon = name, true
				if e.Dims != nil {
					sym.Dims = e.Dims
				}
			}
		}
	case *NameListStmt:
		for _, n := range s.Names {
			id := baseIdent(n)
			if id == nil || id.Name == "/" {
				continue
			}
			sym := r.declare(id.Name, id.Pos())
			switch s.Keyword {
			case "EXTERNAL":
				sym.External, sym.Kind = true, SymProcedure
			case "INTRINSIC":
				sym.Intrinsic, sym.Kind = true, SymProcedure
			case "NAMELIST":
				sym.Declared = false
			default:
				attr := s.Keyword
				if len(s.Args) > 0 {
					attr += "(" + exprString(s.Args[0]) + ")"
				}
				sym.Attrs = append(sym.Attrs, attr)
				if c, ok := n.(*Call); ok && sym.Dims == nil {
					sym.Dims = SubscriptDims(c.Args)
				}
				// SAVE, PUBLIC, INTENT... do not declare a type.
				sym.Declared = sym.Type != "" || sym.Dims != nil
			}
		}
		if s.Keyword == "NAMELIST" {
			for _, a := range s.Args {
				if id, ok := a.(*Ident); ok {
					r.declare(id.Name, id.Pos()).Kind = SymNamelist
				}
			}
		}
	case *UseStmt:
		r.sc.Uses = append(r.sc.Uses, s.Module.Name)
	case *DerivedTypeStmt:
		r.declare(s.Name.Name, s.Name.Pos()).Kind = SymDerivedType
	case *ProcedureStmt:
		for _, e := range s.Names {
			r.declare(e.Name.Name, e.Name.Pos()).Kind = SymProcedure
		}
	case *EntryStmt:
		r.declare(s.Name.Name, s.Name.Pos()).Kind = SymProcedure
		for _, prm := range s.Params {
			if id, ok := prm.(*Ident); ok {
				sym := r.declare(id.Name, id.Pos())
				sym.Dummy = true
				sym.Declared = false
			}
		}
	case *Directive:
		r.directives = append(r.directives, s)
		switch spec := s.Spec.(type) {
		case *EntitiesSpec:
			kind := SymVariable
			switch s.Name {
			case "TEMPLATE", "DECOMPOSITION":
				kind = SymTemplate
			case "PROCESSORS":
				kind = SymProcessors
			default:
				return
			}
			for _, e := range spec.Entities {
				sym := r.declare(e.Name.Name, e.Name.Pos())
				sym.Kind, sym.Dims = kind, e.Dims
			}
		}
	case *IncludeStmt:
		r.include(s, s.Path)
	case *CppStmt:
		if s.Directive == "include" {
			if name, ok := cppIncludeName(s.Text); ok {
				r.include(s, name)
			}
		}
	case *Block:
		if _, ok := s.Head.(*InterfaceStmt); ok {
			// Interface bodies name external procedures.
			for _, b := range s.Body {
				if h, ok := b.(*SubprogramStmt); ok {
					sym := r.declare(h.Name.Name, h.Name.Pos())
					sym.Kind, sym.External = SymProcedure, true
				}
			}
			return
		}
		if _, ok := s.Head.(*DerivedTypeStmt); ok {
			r.decls(s.Head)
			return // components are not names of the unit
		}
		r.associateNames(s.Head)
		for _, b := range s.Body {
			r.decls(b)
			r.markConstructDecls(b)
		}
		for _, a := range s.Arms {
			for _, b := range a.Body {
				r.decls(b)
				r.markConstructDecls(b)
			}
		}
	case *DoConstruct:
		// Directives such as REDISTRIBUTE may sit inside constructs.
		r.directives = append(r.directives, s.Directives...)
		r.nestedDirectives(s.Body)
		r.constructDecls(s.Body)
	case *IfConstruct:
		for _, a := range s.Arms {
			r.nestedDirectives(a.Body)
			r.constructDecls(a.Body)
		}
	}
}

// constructDecls declares the names of the BLOCK, ASSOCIATE and SELECT
// TYPE constructs nested in DO and IF constructs (their directives are
// collected by nestedDirectives).
func (r *resolver) constructDecls(body []Stmt) {
	for _, st := range body {
		switch x := st.(type) {
		case *DoConstruct:
			r.constructDecls(x.Body)
		case *IfConstruct:
			for _, a := range x.Arms {
				r.constructDecls(a.Body)
			}
		case *Block:
			switch x.Head.(type) {
			case *InterfaceStmt, *DerivedTypeStmt:
				continue
			}
			r.associateNames(x.Head)
			for _, list := range append([][]Stmt{x.Body}, armBodies(x.Arms)...) {
				for _, b := range list {
					switch b.(type) {
					case *Directive, *DoConstruct, *IfConstruct, *Block:
					default:
						r.decls(b)
						r.markConstructDecls(b)
					}
				}
				r.constructDecls(list)
			}
		}
	}
}

func armBodies(arms []*IfArm) [][]Stmt {
	out := make([][]Stmt, len(arms))
	for i, a := range arms {
		out[i] = a.Body
	}
	return out
}

// associateNames declares the associate names of an ASSOCIATE, SELECT
// TYPE or SELECT RANK construct (Fortran 2018 11.1.3.3, 11.1.11.2): local
// entities that take the type, and for a whole array its shape, of their
// selector. Scopes are per unit here, so a name the unit already knows
// is left as it is (an associate name may shadow a variable of the same
// name, as ASSOCIATE (X => X(1:N)) does).
func (r *resolver) associateNames(head Stmt) {
	add := func(name *Ident, sel Expr) {
		if name == nil {
			return
		}
		if sym := r.sc.Syms[name.Name]; sym != nil {
			sym.byConstruct = true
			return
		}
		sym := r.declare(name.Name, name.Pos())
		sym.Kind, sym.Selector, sym.byConstruct = SymVariable, sel, true
		switch x := sel.(type) {
		case *Ident:
			if from := r.lookup(x.Name); from != nil && from.Kind == SymVariable {
				sym.Type, sym.TypeSpec, sym.Dims = from.Type, from.TypeSpec, from.Dims
			}
		case *Call:
			// An element or a section of an array has the array's type
			// (its shape is the section's: Selector keeps it).
			if id, ok := x.Fun.(*Ident); ok {
				if from := r.lookup(id.Name); from != nil && from.Kind == SymVariable && from.Rank() > 0 {
					sym.Type, sym.TypeSpec = from.Type, from.TypeSpec
				}
			}
		}
	}
	switch h := head.(type) {
	case *SimpleStmt:
		if h.Keyword != "ASSOCIATE" {
			return
		}
		for _, a := range h.Args {
			if k, ok := a.(*KeywordArg); ok {
				add(k.Name, k.Value)
			}
		}
	case *SelectStmt:
		add(h.Assoc, h.X)
	}
}

// markConstructDecls marks the names a BLOCK construct's declaration
// declares: the unit's symbol of the name now mixes two entities.
func (r *resolver) markConstructDecls(st Stmt) {
	var ents []*Entity
	switch x := st.(type) {
	case *TypeDecl:
		ents = x.Entities
	case *DimensionStmt:
		ents = x.Entities
	}
	for _, e := range ents {
		if e.Name != nil {
			if sym := r.sc.Syms[e.Name.Name]; sym != nil {
				sym.byConstruct = true
			}
		}
	}
}

// nestedDirectives collects the directives inside constructs.
func (r *resolver) nestedDirectives(body []Stmt) {
	for _, s := range body {
		switch x := s.(type) {
		case *Directive:
			r.directives = append(r.directives, x)
		case *DoConstruct:
			r.directives = append(r.directives, x.Directives...)
			r.nestedDirectives(x.Body)
		case *IfConstruct:
			for _, a := range x.Arms {
				r.nestedDirectives(a.Body)
			}
		case *Block:
			r.nestedDirectives(x.Body)
			for _, a := range x.Arms {
				r.nestedDirectives(a.Body)
			}
		}
	}
}

// include processes the declarations of an INCLUDE'd (or #include'd)
// file named name by the statement s. INCLUDEs inside it are followed in
// turn, along a chain of files that may not meet itself (a cycle gets a
// diagnostic naming it) nor grow past MaxIncludeDepth. Diagnostics go on
// the statement of this unit that began the chain.
func (r *resolver) include(s Stmt, name string) {
	cfg := r.p.f.Config
	if cfg == nil || cfg.Include == nil {
		return
	}
	at := r.incAt
	if at == nil {
		at = s
	}
	if len(r.chain) == 0 {
		r.chain = []string{r.p.f.Name}
	}
	complain := func(sev Severity, msg string) {
		r.p.errs = append(r.p.errs, Error{Pos: at.Pos(), End: at.End(), Severity: sev, Code: "include", Msg: msg})
	}
	from := r.chain[len(r.chain)-1]
	if len(r.chain) > MaxIncludeDepth {
		complain(SevError, fmt.Sprintf("INCLUDE '%s' is nested %d deep (%s); the limit is %d", name, len(r.chain), strings.Join(r.chain, " → "), MaxIncludeDepth))
		return
	}
	if r.p.includes >= MaxIncludes {
		if r.p.includes == MaxIncludes {
			complain(SevError, fmt.Sprintf("too large to analyse (more than %d INCLUDEs in one unit); INCLUDE '%s' and the rest are not read", MaxIncludes, name))
		}
		r.p.includes++
		return
	}
	r.p.includes++
	text, path, err := cfg.Include(name, from, cfg)
	if err != nil {
		sev := SevError
		if errors.Is(err, fs.ErrNotExist) {
			sev = SevWarning
		}
		msg := fmt.Sprintf("INCLUDE '%s': %v", name, err)
		if len(r.chain) > 1 {
			msg += " (in " + strings.Join(r.chain[1:], " → ") + ")"
		}
		complain(sev, msg)
		return
	}
	for i, c := range r.chain {
		if samePath(c, path) {
			cycle := append(append([]string{}, r.chain[i:]...), path)
			for k := range cycle {
				cycle[k] = filepath.Base(cycle[k])
			}
			complain(SevError, "INCLUDE cycle: "+strings.Join(cycle, " → "))
			return
		}
	}
	inc := r.p.included[path]
	if inc == nil {
		inc = &File{Name: path, Src: normalizeCR(text), Form: r.p.f.Form, Config: cfg}
		inc.Lines = NewMapper(inc.Src)
		ip := newFileParser(inc)
		ip.fragment, ip.noResolve = true, true
		inc.Units = ip.parseUnits(0, nil, nil)
		if r.p.included == nil {
			r.p.included = map[string]*File{}
		}
		r.p.included[path] = inc
	}
	if is, ok := s.(*IncludeStmt); ok {
		is.Found, is.File = true, inc
	}
	savedIncluded, savedAt, savedChain := r.included, r.incAt, r.chain
	r.included, r.incAt, r.chain = path, at, append(r.chain[:len(r.chain):len(r.chain)], path)
	for _, u := range inc.Units {
		for _, b := range u.Body {
			r.decls(b)
		}
	}
	r.included, r.incAt, r.chain = savedIncluded, savedAt, savedChain
}

// samePath reports whether two file names name one file, as far as their
// absolute forms tell (the parser does no I/O; IncludeFromDisk returns
// paths with symbolic links resolved).
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ab
}

// cppIncludeName returns the file named by #include "x" or #include <x>.
func cppIncludeName(rest string) (string, bool) {
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && (rest[0] == '"' && strings.IndexByte(rest[1:], '"') >= 0 || rest[0] == '<' && strings.IndexByte(rest, '>') > 0) {
		closeCh := byte('"')
		if rest[0] == '<' {
			closeCh = '>'
		}
		end := strings.IndexByte(rest[1:], closeCh)
		if end > 0 {
			return rest[1 : 1+end], true
		}
	}
	return "", false
}

func attrString(a *Attr) string {
	if len(a.Args) > 0 {
		parts := make([]string, len(a.Args))
		for i, x := range a.Args {
			parts[i] = exprString(x)
		}
		return a.Name + "(" + strings.Join(parts, ",") + ")"
	}
	return a.Name
}

// SubscriptDims are the bounds that a declarator's or an ALLOCATE item's
// subscripts give: LO:HI, or HI with the lower bound left out (1).
func SubscriptDims(args []Expr) []*DimSpec {
	out := make([]*DimSpec, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case *Triplet:
			out[i] = &DimSpec{Lower: x.Lo, Upper: x.Hi, Colon: true}
		default:
			out[i] = &DimSpec{Upper: a}
		}
	}
	return out
}

// baseIdent returns the name at the root of a designator.
func baseIdent(x Expr) *Ident {
	for {
		switch e := x.(type) {
		case *Ident:
			return e
		case *Call:
			x = e.Fun
		case *Component:
			x = e.X
		case *ImageSelector:
			x = e.X
		default:
			return nil
		}
	}
}

// refs records and checks the names a statement uses. The constructs and
// the most frequent statements are walked here directly, in the order
// Inspect would visit them; the others go through refsInspect.
func (r *resolver) refs(st Stmt) {
	if refsByInspect {
		r.refsInspect(st)
		return
	}
	switch x := st.(type) {
	case *AssignStmt:
		r.useSome(x.LHS)
		r.useSome(x.RHS)
	case *DoStmt:
		if x.Var != nil {
			r.use(x.Var)
		}
		r.useSome(x.Lo)
		r.useSome(x.Hi)
		r.useSome(x.Step)
		r.useSome(x.While)
		if h := x.Concurrent; h != nil {
			for _, s := range h.Specs {
				if s.Var != nil {
					r.use(s.Var)
				}
				r.useSome(s.Lo)
				r.useSome(s.Hi)
				r.useSome(s.Stride)
			}
			r.useSome(h.Mask)
		}
	case *IfThenStmt:
		r.useSome(x.Cond)
	case *IfStmt:
		r.useSome(x.Cond)
		if x.Then != nil {
			r.refs(x.Then)
		}
	case *CallStmt:
		r.callRefs(x)
	case *IOStmt:
		r.ioRefs(x)
	case *TypeDecl, *DimensionStmt, *CommonStmt:
		// Declared names are not uses; their bounds and values are.
		r.declExprs(x)
	case *EndStmt:
	case *SimpleStmt:
		if x.Keyword != "EXIT" && x.Keyword != "CYCLE" {
			for _, a := range x.Args {
				r.useSome(a)
			}
		}
	case *DoConstruct:
		// (Its directives are not uses.)
		r.refs(x.Do)
		r.refsList(x.Body)
		if x.EndStmt != nil {
			r.refs(x.EndStmt)
		}
	case *IfConstruct:
		for _, a := range x.Arms {
			if a.Head != nil {
				r.refs(a.Head)
			}
			r.refsList(a.Body)
		}
		if x.EndStmt != nil {
			r.refs(x.EndStmt)
		}
	case *Block:
		switch x.Head.(type) {
		case *InterfaceStmt, *DerivedTypeStmt:
			return // declarations, not uses
		}
		if x.Head != nil {
			r.refs(x.Head)
		}
		r.refsList(x.Body)
		for _, a := range x.Arms {
			if a.Head != nil {
				r.refs(a.Head)
			}
			r.refsList(a.Body)
		}
		if x.EndStmt != nil {
			r.refs(x.EndStmt)
		}
	default:
		r.refsInspect(st)
	}
}

// refsByInspect makes refs walk every statement through Inspect; a test
// sets it to compare the direct walk with Inspect's.
var refsByInspect bool

func (r *resolver) refsList(body []Stmt) {
	for _, s := range body {
		if s != nil {
			r.refs(s)
		}
	}
}

// useSome is use for an expression that may be missing, as Inspect
// skips it: nil, or a nil pointer.
func (r *resolver) useSome(x Expr) {
	if x != nil && !isNilNode(x) {
		r.use(x)
	}
}

// refsInspect is refs for any statement, through Inspect.
func (r *resolver) refsInspect(st Stmt) {
	Inspect(st, func(n Node) bool {
		switch x := n.(type) {
		case *TypeDecl, *DimensionStmt, *CommonStmt:
			// Declared names are not uses; their bounds and values are.
			r.declExprs(x)
			return false
		case *ParameterStmt:
			for _, d := range x.Defs {
				r.use(d.Value)
			}
			return false
		case *NameListStmt, *UseStmt, *ImplicitStmt, *EndStmt, *ProgramStmt, *SubprogramStmt, *ModuleStmt,
			*DerivedTypeStmt, *ProcedureStmt, *EntryStmt, *Directive, *FormatStmt, *InterfaceStmt, *EquivalenceStmt:
			return false
		case *Block:
			if _, ok := x.Head.(*InterfaceStmt); ok {
				return false
			}
			if _, ok := x.Head.(*DerivedTypeStmt); ok {
				return false
			}
		case *SimpleStmt:
			if x.Keyword == "EXIT" || x.Keyword == "CYCLE" {
				return false
			}
		case *CallStmt:
			r.callRefs(x)
			return false
		case *IOStmt:
			r.ioRefs(x)
			return false
		case *AllocateStmt:
			for _, it := range x.Items {
				if kw, ok := it.(*KeywordArg); ok {
					r.use(kw.Value)
					continue
				}
				r.use(it)
			}
			return false
		case Expr:
			r.use(x)
			return false
		}
		return true
	})
}

// callRefs is refs of a CALL: a procedure not declared becomes an
// external one; the arguments are uses.
func (r *resolver) callRefs(x *CallStmt) {
	if sym := r.lookup(x.Name.Name); sym == nil && !strings.Contains(x.Name.Name, "%") {
		s := &Symbol{Name: x.Name.Name, Kind: SymProcedure, Decl: x.Name.Pos(), External: true}
		r.sc.Syms[x.Name.Name] = s
		r.remember(s)
	}
	for _, a := range x.Args {
		r.use(a)
	}
}

// ioRefs is refs of an I/O statement: the values of its control list
// and its items are uses.
func (r *resolver) ioRefs(x *IOStmt) {
	for _, c := range x.Control {
		if kw, ok := c.(*KeywordArg); ok {
			r.use(kw.Value)
			continue
		}
		r.use(c)
	}
	for _, it := range x.Items {
		r.use(it)
	}
}

func (r *resolver) declExprs(n Node) {
	var ents []*Entity
	switch x := n.(type) {
	case *TypeDecl:
		ents = x.Entities
		if x.Type != nil {
			r.use(x.Type.Kind)
			r.use(x.Type.Len)
		}
		for _, a := range x.Attrs {
			for _, d := range a.Dims {
				r.use(d.Lower)
				r.use(d.Upper)
			}
		}
	case *DimensionStmt:
		ents = x.Entities
	case *CommonStmt:
		for _, b := range x.Blocks {
			ents = append(ents, b.Entities...)
		}
	}
	for _, e := range ents {
		for _, d := range e.Dims {
			r.use(d.Lower)
			r.use(d.Upper)
		}
		r.use(e.CharLen)
		r.use(e.Init)
	}
}

// use records the names an expression references: a name that is not
// declared becomes an implicitly typed variable, or an "undeclared" error
// under IMPLICIT NONE. The parts are visited in the order of Inspect; the
// last part of a node is taken by the loop, not by a call (the right
// operand of a chain of binary operations, the last argument).
func (r *resolver) use(x Expr) {
	for {
		switch e := x.(type) {
		case nil:
		case *Ident:
			r.name(e, false)
		case *Lit, *Star, *BadExpr:
		case *KeywordArg:
			x = e.Value
			continue
		case *Component:
			x = e.X
			continue
		case *Call:
			if id, ok := e.Fun.(*Ident); ok {
				// One lookup serves the name and the check of its subscripts.
				sym := r.lookup(id.Name)
				if sym != nil && id.Name != "" {
					r.usedName(id, sym)
				} else if sym != nil || !isIntrinsic(id.Name) {
					r.name(id, true)
					sym = r.lookup(id.Name)
				}
				r.checkSubscripts(e, id, sym)
			} else {
				r.use(e.Fun)
			}
			if n := len(e.Args); n > 0 {
				for _, a := range e.Args[:n-1] {
					r.use(a)
				}
				x = e.Args[n-1]
				continue
			}
		case *Unary:
			x = e.X
			continue
		case *Binary:
			r.use(e.X)
			x = e.Y
			continue
		case *Paren:
			x = e.X
			continue
		case *Triplet:
			r.use(e.Lo)
			r.use(e.Hi)
			x = e.Stride
			continue
		default:
			// Constructors, implied DOs, image selectors: the generic walk.
			walkChildren(x, func(n Node) bool {
				if y, ok := n.(Expr); ok {
					r.use(y)
				}
				return false
			})
		}
		return
	}
}

// checkSubscripts reports an array element or section written with more
// or fewer subscripts than the array has dimensions (Fortran 2018 9.5.3.1:
// "the number of subscripts shall equal the rank"): A(K) of a rank-2 A
// is a slip compilers reject. A reference still being typed (no closing
// parenthesis, a part missing) is left to the syntax errors, and so are
// names a construct declares again (their Dims may be another entity's)
// and assumed-rank dummies.
// sym is id's symbol (nil for none).
func (r *resolver) checkSubscripts(c *Call, id *Ident, sym *Symbol) {
	if sym == nil || sym.Kind != SymVariable || len(sym.Dims) == 0 || len(c.Args) == len(sym.Dims) || c.Rparen <= c.Lparen || sym.byConstruct {
		return
	}
	if d := sym.Dims[0]; len(sym.Dims) == 1 && !d.Colon && d.Lower == nil && d.Upper == nil {
		return // assumed rank (..): SELECT RANK gives it a rank
	}
	for _, a := range c.Args {
		switch a.(type) {
		case *KeywordArg, *BadExpr:
			return
		}
	}
	plural := func(n int, word string) string {
		if n == 1 {
			return "1 " + word
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	r.p.errs = append(r.p.errs, Error{Pos: c.Pos(), End: c.End(), Severity: SevError, Code: "invalid",
		Msg: fmt.Sprintf("%s has %s but is referenced with %s: the number of subscripts must equal the rank", id.Name, plural(len(sym.Dims), "dimension"), plural(len(c.Args), "subscript"))})
}

// hasUses reports whether the scope or a host has USE statements, whose
// modules may declare any name.
func (r *resolver) hasUses() bool {
	for sc := r.sc; sc != nil; sc = sc.Parent {
		if len(sc.Uses) > 0 {
			return true
		}
	}
	return false
}

func (r *resolver) name(id *Ident, call bool) {
	if id.Name == "" {
		return
	}
	if sym := r.lookup(id.Name); sym != nil {
		r.usedName(id, sym)
		return
	}
	if call && isIntrinsic(id.Name) {
		return
	}
	if !call && isIntrinsic(id.Name) && r.sc.ImplicitType(id.Name) == "" {
		return // an intrinsic passed as an actual argument
	}
	sym := r.p.nodes.symbols.new()
	sym.Name, sym.Decl, sym.Used = id.Name, id.Pos(), true // (a new slot is zero)
	if call {
		sym.Kind = SymProcedure
		sym.External = true
	}
	r.sc.Syms[id.Name] = sym
	r.remember(sym)
	if t := r.sc.ImplicitType(id.Name); t != "" {
		sym.Type, sym.Implicit = t, true
		return
	}
	r.undeclared(id, sym)
}

// usedName records a use of the name id, whose symbol is sym: it types a
// variable that has no type yet, or reports it undeclared.
func (r *resolver) usedName(id *Ident, sym *Symbol) {
	sym.Used = true
	if !sym.Declared && sym.Type == "" && sym.Kind == SymVariable {
		if t := r.sc.ImplicitType(id.Name); t != "" {
			sym.Type, sym.Implicit = t, true
		} else {
			r.undeclared(id, sym)
		}
	}
}

func (r *resolver) undeclared(id *Ident, sym *Symbol) {
	if r.hasUses() {
		return // the name may come from a module
	}
	if sym.Kind == SymProcedure {
		r.p.errs = append(r.p.errs, Error{Pos: id.Pos(), End: id.End(), Severity: SevError, Code: "undeclared",
			Msg: fmt.Sprintf("function %s has no type under IMPLICIT NONE", id.Name)})
		return
	}
	r.p.errs = append(r.p.errs, Error{Pos: id.Pos(), End: id.End(), Severity: SevError, Code: "undeclared",
		Msg: fmt.Sprintf("%s is not declared (IMPLICIT NONE)", id.Name)})
	sym.Declared = true // one error per name
}

// checkDirectives attaches alignments and distributions to symbols and
// reports directives that name unknown arrays, templates or processors.
func (r *resolver) checkDirectives() {
	for _, d := range r.directives {
		switch spec := d.Spec.(type) {
		case *AlignSpec:
			for _, a := range spec.Alignees {
				sym := r.known(a, "ALIGN", "array", false)
				if sym != nil {
					sym.Align = spec
				}
			}
			if spec.Target != nil {
				if t := r.known(spec.Target, "ALIGN ... WITH", "template, decomposition or array", false); t != nil {
					t.Used = true
				}
			}
		case *DistributeSpec:
			for _, t := range spec.Targets {
				what := "template or array"
				if d.Sentinel == "" {
					what = "decomposition"
				}
				if sym := r.known(t, "DISTRIBUTE", what, d.Sentinel == ""); sym != nil {
					sym.Dist = spec
				}
			}
			if spec.Onto != nil {
				if sym := r.sc.Lookup(spec.Onto.Name); sym == nil || sym.Kind != SymProcessors {
					r.p.errs = append(r.p.errs, Error{Pos: spec.Onto.Pos(), End: spec.Onto.End(), Severity: SevError,
						Code: "undeclared", Msg: fmt.Sprintf("ONTO %s names no PROCESSORS arrangement", spec.Onto.Name)})
				}
			}
		case *LayoutSpec:
			for _, one := range append([]*LayoutSpec{spec}, spec.More...) {
				if sym := r.known(one.Target, "LAYOUT", "array", false); sym != nil {
					sym.Layout = one
					if sym.Rank() > 0 && len(one.Dims) != sym.Rank() {
						r.p.errs = append(r.p.errs, Error{Pos: d.Pos(), End: d.End(), Severity: SevError, Code: "syntax",
							Msg: fmt.Sprintf("LAYOUT gives %d dimensions for %s, which has %d", len(one.Dims), sym.Name, sym.Rank())})
					}
				}
			}
		}
	}
}

// known looks up a name a directive uses; it must be declared (an array,
// a template or decomposition). With template set, only a DECOMPOSITION
// will do (Fortran D distributes decompositions).
func (r *resolver) known(id *Ident, dir, what string, template bool) *Symbol {
	sym := r.sc.Lookup(id.Name)
	ok := sym != nil && (sym.Declared || sym.Dummy || sym.InCommon) && sym.Kind != SymProcedure
	if ok && template && sym.Kind != SymTemplate {
		ok = false
	}
	if !ok && r.hasUses() && sym == nil {
		return nil // may come from a module
	}
	if !ok {
		r.p.errs = append(r.p.errs, Error{Pos: id.Pos(), End: id.End(), Severity: SevError, Code: "undeclared",
			Msg: fmt.Sprintf("%s names %s, which is not a declared %s", dir, id.Name, what)})
		return nil
	}
	return sym
}

// exprString prints an expression compactly, for attributes and messages.
func exprString(x Expr) string {
	// A name or a literal is its own spelling, with no builder to fill
	// (the bounds of most DO loops, which document symbols show).
	switch e := x.(type) {
	case *Ident:
		return e.Name
	case *Lit:
		return e.Value
	}
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func writeExpr(b *strings.Builder, x Expr) {
	switch e := x.(type) {
	case nil:
	case *Ident:
		b.WriteString(e.Name)
	case *Lit:
		b.WriteString(e.Value)
	case *Unary:
		b.WriteString(e.Op)
		writeExpr(b, e.X)
	case *Binary:
		writeExpr(b, e.X)
		b.WriteString(e.Op)
		writeExpr(b, e.Y)
	case *Paren:
		b.WriteByte('(')
		writeExpr(b, e.X)
		b.WriteByte(')')
	case *Call:
		writeExpr(b, e.Fun)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *Triplet:
		writeExpr(b, e.Lo)
		b.WriteByte(':')
		writeExpr(b, e.Hi)
		if e.Stride != nil {
			b.WriteByte(':')
			writeExpr(b, e.Stride)
		}
	case *KeywordArg:
		b.WriteString(e.Name.Name + "=")
		writeExpr(b, e.Value)
	case *Component:
		writeExpr(b, e.X)
		b.WriteString("%" + e.Name.Name)
	case *Star:
		b.WriteByte('*')
	case *AltReturn:
		b.WriteString("*" + e.Label.Value)
	case *ComplexLit:
		b.WriteByte('(')
		writeExpr(b, e.Re)
		b.WriteByte(',')
		writeExpr(b, e.Im)
		b.WriteByte(')')
	case *ArrayCons:
		b.WriteString("[")
		for i, a := range e.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeExpr(b, a)
		}
		b.WriteString("]")
	case *ImpliedDo:
		b.WriteByte('(')
		for _, a := range e.Items {
			writeExpr(b, a)
			b.WriteByte(',')
		}
		b.WriteString(e.Var.Name + "=")
		writeExpr(b, e.Lo)
		b.WriteByte(',')
		writeExpr(b, e.Hi)
		if e.Step != nil {
			b.WriteByte(',')
			writeExpr(b, e.Step)
		}
		b.WriteByte(')')
	default:
		b.WriteString("?")
	}
}

// ExprString prints an expression in a compact Fortran-like form.
func ExprString(x Expr) string { return exprString(x) }

// EvalInt evaluates an integer constant expression: literals, PARAMETERs
// of the scope, + - * / ** and parentheses. ok is false otherwise.
// PARAMETERs defined in terms of each other give up (ok false); each
// PARAMETER is evaluated once per call, so chains whose every link uses
// the one before twice stay linear; and the work is bounded.
func EvalInt(x Expr, sc *Scope) (int64, bool) {
	ev := evaluator{sc: sc, steps: maxEvalSteps}
	return ev.eval(x, 0)
}

// maxEvalSteps bounds the nodes EvalInt visits for one expression.
const maxEvalSteps = 10000

// evaluator is the state of one EvalInt: the PARAMETERs done (or, with
// busy set, being done) and the work left.
type evaluator struct {
	sc    *Scope
	steps int
	memo  map[*Symbol]evalResult
}

type evalResult struct {
	v        int64
	ok, busy bool
}

func (ev *evaluator) eval(x Expr, depth int) (int64, bool) {
	ev.steps--
	if depth > 1000 || ev.steps < 0 {
		return 0, false
	}
	sc := ev.sc
	switch e := x.(type) {
	case *Lit:
		if e.Kind != IntLit {
			return 0, false
		}
		v := e.Value
		if i := strings.IndexByte(v, '_'); i >= 0 {
			v = v[:i]
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	case *Ident:
		if sc == nil {
			return 0, false
		}
		sym := sc.Lookup(e.Name)
		if sym == nil || sym.Param == nil {
			return 0, false
		}
		if r, ok := ev.memo[sym]; ok {
			return r.v, r.ok && !r.busy // busy: a PARAMETER defined through itself
		}
		if ev.memo == nil {
			ev.memo = map[*Symbol]evalResult{}
		}
		ev.memo[sym] = evalResult{busy: true}
		v, ok := ev.eval(sym.Param, depth+1)
		ev.memo[sym] = evalResult{v: v, ok: ok}
		return v, ok
	case *Paren:
		return ev.eval(e.X, depth+1)
	case *Unary:
		v, ok := ev.eval(e.X, depth+1)
		switch e.Op {
		case "-":
			return -v, ok
		case "+":
			return v, ok
		}
	case *Binary:
		a, ok1 := ev.eval(e.X, depth+1)
		b, ok2 := ev.eval(e.Y, depth+1)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		case "*":
			return a * b, true
		case "/":
			if b == 0 {
				return 0, false
			}
			return a / b, true
		case "**":
			if b < 0 || b > 62 {
				return 0, false
			}
			r := int64(1)
			for i := int64(0); i < b; i++ {
				r *= a
			}
			return r, true
		}
	}
	return 0, false
}
