package parser

// Node is any piece of the syntax tree. Pos and End are offsets relative to
// the Base of the top-level Unit holding the node; End is exclusive.
type Node interface {
	Pos() Pos
	End() Pos
}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression, a designator or a piece of an argument list.
type Expr interface {
	Node
	exprNode()
}

// Ident is a name; Name is upper case (Fortran names ignore case).
type Ident struct {
	NamePos Pos
	Name    string
}

// LitKind tells what a literal constant is.
type LitKind uint8

// The literal kinds.
const (
	IntLit LitKind = iota
	RealLit
	StringLit
	LogicalLit
	BOZLit
	HollerithLit
)

// Lit is a literal constant. Value is its source spelling (upper case for
// numbers and logicals, with quotes for strings), Kind suffixes included.
type Lit struct {
	Kind     LitKind
	ValuePos Pos
	ValueEnd Pos
	Value    string
}

// Unary is a prefix operator: "-", "+", ".NOT." or a defined operator.
type Unary struct {
	OpPos Pos
	Op    string
	X     Expr
}

// Binary is an infix operator. Op is normalised: relational operators keep
// their spelling (".EQ." or "=="), logical ones are dotted (".AND.").
type Binary struct {
	X     Expr
	OpPos Pos
	Op    string
	Y     Expr
}

// Paren is a parenthesised expression.
type Paren struct {
	Lparen Pos
	X      Expr
	Rparen Pos
}

// Call is NAME(args): a function call, an array element, an array section
// or a substring; which one is settled with the symbol table, not here.
// Chained parentheses (A(I)(1:2)) nest: the outer Call's Fun is a Call.
type Call struct {
	Fun    Expr
	Args   []Expr
	Lparen Pos
	Rparen Pos
}

// Triplet is a section subscript lo:hi:stride; each part may be nil.
type Triplet struct {
	From   Pos // position of the first part or of the first colon
	Lo     Expr
	Hi     Expr
	Stride Expr
	To     Pos
}

// KeywordArg is NAME=value in an argument or control list.
type KeywordArg struct {
	Name  *Ident
	Value Expr
}

// Component is X%NAME.
type Component struct {
	X    Expr
	Name *Ident
}

// Star is "*" where an expression may stand: assumed size, list-directed
// I/O, CHARACTER*(*), an alternate return label marker.
type Star struct{ StarPos Pos }

// AltReturn is *label as an actual argument.
type AltReturn struct {
	StarPos Pos
	Label   *Lit
}

// ArrayCons is (/ ... /) or [ ... ].
type ArrayCons struct {
	Lpos  Pos
	Items []Expr
	Rend  Pos
}

// ImpliedDo is (items, I = lo, hi [, step]) in I/O lists, DATA and array
// constructors.
type ImpliedDo struct {
	Lparen Pos
	Items  []Expr
	Var    *Ident
	Lo     Expr
	Hi     Expr
	Step   Expr
	Rparen Pos
}

// ImageSelector is X[cosubscripts] on a coarray.
type ImageSelector struct {
	X      Expr
	Lbrack Pos
	Args   []Expr
	Rbrack Pos
}

// ComplexLit is a complex constant (re, im).
type ComplexLit struct {
	Lparen Pos
	Re, Im Expr
	Rparen Pos
}

// BadExpr stands where an expression could not be parsed.
type BadExpr struct{ From, To Pos }

func (x *Ident) Pos() Pos         { return x.NamePos }
func (x *Ident) End() Pos         { return x.NamePos + Pos(len(x.Name)) }
func (x *Lit) Pos() Pos           { return x.ValuePos }
func (x *Lit) End() Pos           { return x.ValueEnd }
func (x *Unary) Pos() Pos         { return x.OpPos }
func (x *Unary) End() Pos         { return x.X.End() }
func (x *Binary) Pos() Pos        { return x.X.Pos() }
func (x *Binary) End() Pos        { return x.Y.End() }
func (x *Paren) Pos() Pos         { return x.Lparen }
func (x *Paren) End() Pos         { return x.Rparen + 1 }
func (x *Call) Pos() Pos          { return x.Fun.Pos() }
func (x *Call) End() Pos          { return x.Rparen + 1 }
func (x *Triplet) Pos() Pos       { return x.From }
func (x *Triplet) End() Pos       { return x.To }
func (x *KeywordArg) Pos() Pos    { return x.Name.Pos() }
func (x *KeywordArg) End() Pos    { return x.Value.End() }
func (x *Component) Pos() Pos     { return x.X.Pos() }
func (x *Component) End() Pos     { return x.Name.End() }
func (x *Star) Pos() Pos          { return x.StarPos }
func (x *Star) End() Pos          { return x.StarPos + 1 }
func (x *AltReturn) Pos() Pos     { return x.StarPos }
func (x *AltReturn) End() Pos     { return x.Label.End() }
func (x *ArrayCons) Pos() Pos     { return x.Lpos }
func (x *ArrayCons) End() Pos     { return x.Rend }
func (x *ImpliedDo) Pos() Pos     { return x.Lparen }
func (x *ImpliedDo) End() Pos     { return x.Rparen + 1 }
func (x *ImageSelector) Pos() Pos { return x.X.Pos() }
func (x *ImageSelector) End() Pos { return x.Rbrack + 1 }
func (x *ComplexLit) Pos() Pos    { return x.Lparen }
func (x *ComplexLit) End() Pos    { return x.Rparen + 1 }
func (x *BadExpr) Pos() Pos       { return x.From }
func (x *BadExpr) End() Pos       { return x.To }

func (*Ident) exprNode()         {}
func (*Lit) exprNode()           {}
func (*Unary) exprNode()         {}
func (*Binary) exprNode()        {}
func (*Paren) exprNode()         {}
func (*Call) exprNode()          {}
func (*Triplet) exprNode()       {}
func (*KeywordArg) exprNode()    {}
func (*Component) exprNode()     {}
func (*Star) exprNode()          {}
func (*AltReturn) exprNode()     {}
func (*ArrayCons) exprNode()     {}
func (*ImpliedDo) exprNode()     {}
func (*ComplexLit) exprNode()    {}
func (*ImageSelector) exprNode() {}
func (*BadExpr) exprNode()       {}

// ---------------------------------------------------------------------------
// Statements

// Stmt is a statement, a directive, a preprocessor line or a construct
// (a DO loop with its body, an IF block, ...).
type Stmt interface {
	Node
	Base() *StmtBase
}

// StmtBase holds what every simple statement has: its label, an optional
// construct name, and its extent from the label (or first keyword) to the
// end of its last continuation line's text. Keyword is the statement's
// leading keyword as written, normalised ("ENDDO" for END DO).
//
// The fields are in the order that packs them into six words (the four
// positions together); Dump writes them in the order of stmtBaseDump.
type StmtBase struct {
	From      Pos
	To        Pos
	LabelPos  Pos
	KeyPos    Pos
	Label     int    // 0 when absent
	Construct *Ident // construct name (OUTER: DO ...), or nil
	Keyword   string
}

func (s *StmtBase) Pos() Pos        { return s.From }
func (s *StmtBase) End() Pos        { return s.To }
func (s *StmtBase) Base() *StmtBase { return s }

// Entity is a declared name with optional array bounds, character length
// and initial value: A(N,0:M)*8 = 1.
type Entity struct {
	Name    *Ident
	Dims    []*DimSpec
	CharLen Expr
	Codims  []*DimSpec // coarray codimensions [..]
	Init    Expr       // after "=" or "=>", or the DATA-style /value/
	Pointer bool       // Init came after "=>"
}

// DimSpec is one dimension lower:upper; Lower nil means 1, Upper may be a
// *Star (assumed size) or nil (deferred or assumed shape, written ":").
type DimSpec struct {
	Lower Expr
	Upper Expr
	Colon bool
}

// TypeSpec is INTEGER, REAL*8, CHARACTER(LEN=*), TYPE(T), ... Name is the
// normalised intrinsic type (DOUBLEPRECISION, DOUBLECOMPLEX) or TYPE/CLASS.
type TypeSpec struct {
	NamePos Pos
	Name    string
	Kind    Expr   // KIND= value or *n length of numeric types
	Len     Expr   // CHARACTER length
	Derived string // type name of TYPE(T) and CLASS(T)
}

// Attr is an attribute in a type declaration: DIMENSION(...), INTENT(IN),
// PARAMETER, ALLOCATABLE, ...
type Attr struct {
	NamePos Pos
	Name    string
	Dims    []*DimSpec // DIMENSION
	Args    []Expr     // other arguments (INTENT(IN) gives an Ident IN)
}

// ProgramStmt is PROGRAM NAME.
type ProgramStmt struct {
	StmtBase
	Name *Ident
}

// SubprogramStmt is a SUBROUTINE or FUNCTION header.
type SubprogramStmt struct {
	StmtBase
	Function bool
	Prefix   []string // RECURSIVE, PURE, ELEMENTAL, MODULE, ...
	Type     *TypeSpec
	Name     *Ident
	Params   []Expr // *Ident, or *Star for an alternate return
	Result   *Ident
}

// ModuleStmt is MODULE, SUBMODULE (Parent) or BLOCK DATA.
type ModuleStmt struct {
	StmtBase
	Name   *Ident
	Parent *Ident
}

// EndStmt is END, END DO, END SUBROUTINE NAME, ... What is "" for a bare END.
type EndStmt struct {
	StmtBase
	What string
	Name *Ident
}

// SimpleStmt is a statement with no more than a keyword and an optional
// list: CONTAINS, CONTINUE, RETURN [e], STOP [code], EXIT [name], CYCLE,
// PAUSE, ELSE, SEQUENCE, IMPORT, ...
type SimpleStmt struct {
	StmtBase
	Args []Expr
}

// NameListStmt is a keyword followed by names: SAVE, EXTERNAL, INTRINSIC,
// PUBLIC, PRIVATE, ALLOCATABLE, POINTER, TARGET, OPTIONAL, INTENT(...) ::,
// VALUE, VOLATILE, PROTECTED, ASYNCHRONOUS, NAMELIST.
type NameListStmt struct {
	StmtBase
	Args  []Expr // INTENT(IN) argument, NAMELIST group name, BIND(C) ...
	Names []Expr // *Ident, or a *Call for POINTER A(:) / TARGET A(10)
}

// UseStmt is USE [, intrinsic ::] M [, ONLY: ...] [, A => B].
type UseStmt struct {
	StmtBase
	Module *Ident
	Only   bool
	Names  []*Rename
}

// Rename is LOCAL => REMOTE in a USE list, or a plain name.
type Rename struct {
	Local  *Ident
	Remote *Ident // nil when not renamed
}

// ImplicitStmt is IMPLICIT NONE or IMPLICIT type (A-H, O-Z), ...
type ImplicitStmt struct {
	StmtBase
	None  bool
	Rules []*ImplicitRule
}

// ImplicitRule gives the type of the names whose first letter is in a range.
type ImplicitRule struct {
	Type   *TypeSpec
	Ranges [][2]byte
}

// TypeDecl is a type declaration: REAL, DIMENSION(N) :: A, B(M).
type TypeDecl struct {
	StmtBase
	Type     *TypeSpec
	Attrs    []*Attr
	Entities []*Entity
}

// DimensionStmt is DIMENSION A(N), B(M); also used for the bodies of
// Fortran D DECOMPOSITION, HPF TEMPLATE and PROCESSORS (see Directive).
type DimensionStmt struct {
	StmtBase
	Entities []*Entity
}

// ParameterStmt is PARAMETER (N = 10, M = N*2).
type ParameterStmt struct {
	StmtBase
	Defs []*KeywordArg
}

// CommonStmt is COMMON /B1/ X, Y /B2/ Z.
type CommonStmt struct {
	StmtBase
	Blocks []*CommonBlock
}

// CommonBlock is one named (or blank, Name nil) block of a COMMON statement.
type CommonBlock struct {
	Name     *Ident
	Entities []*Entity
}

// EquivalenceStmt is EQUIVALENCE (A, B(1)), (C, D).
type EquivalenceStmt struct {
	StmtBase
	Sets [][]Expr
}

// DataStmt is DATA objects /values/, objects /values/.
type DataStmt struct {
	StmtBase
	Sets []*DataSet
}

// DataSet is one objects/values/ pair of a DATA statement.
type DataSet struct {
	Objects []Expr
	Values  []Expr // repeat factors appear as Binary "*"
}

// DerivedTypeStmt is TYPE [, attrs ::] NAME.
type DerivedTypeStmt struct {
	StmtBase
	Attrs []*Attr
	Name  *Ident
}

// InterfaceStmt is INTERFACE [generic-spec] or ABSTRACT INTERFACE.
type InterfaceStmt struct {
	StmtBase
	Name *Ident
}

// ProcedureStmt is [MODULE] PROCEDURE names, or a PROCEDURE(...) declaration.
type ProcedureStmt struct {
	StmtBase
	Module bool // MODULE PROCEDURE: a list in an interface, or a separate module procedure after CONTAINS
	Iface  Expr
	Attrs  []*Attr
	Names  []*Entity
}

// AssignStmt is LHS = RHS or LHS => RHS (Pointer). A statement function
// definition has the same shape and is told apart with the symbol table.
type AssignStmt struct {
	StmtBase
	LHS     Expr
	Pointer bool
	RHS     Expr
}

// DoStmt is the head of a DO loop: DO [label] [,] I = lo, hi [, step],
// DO WHILE (cond), DO CONCURRENT (...), or a bare DO.
type DoStmt struct {
	StmtBase
	EndLabel   int // terminal statement label, 0 for a block DO
	EndLabelAt Pos
	Var        *Ident
	Lo, Hi     Expr
	Step       Expr
	While      Expr
	Concurrent *ForallHeader
}

// ForallHeader is the (I = 1:N, J = 1:M, mask) part of FORALL and DO CONCURRENT.
type ForallHeader struct {
	Lparen Pos
	Specs  []*ForallSpec
	Mask   Expr
	Rparen Pos
}

// ForallSpec is I = lo:hi[:stride].
type ForallSpec struct {
	Var            *Ident
	Lo, Hi, Stride Expr
}

// ForallStmt is FORALL (header) assignment, or the head of a FORALL
// construct when Body is nil.
type ForallStmt struct {
	StmtBase
	Header *ForallHeader
	Body   Stmt
}

// IfStmt is a logical IF: IF (cond) statement.
type IfStmt struct {
	StmtBase
	Cond Expr
	Then Stmt
}

// IfThenStmt is IF (cond) THEN, or ELSE IF (cond) THEN when Else is set.
type IfThenStmt struct {
	StmtBase
	Else bool
	Cond Expr
}

// ArithIfStmt is IF (e) l1, l2, l3.
type ArithIfStmt struct {
	StmtBase
	Cond   Expr
	Labels [3]*Lit
}

// WhereStmt is WHERE (mask) assignment, the head of a WHERE construct
// (Body nil), or ELSEWHERE [(mask)] when Else is set.
type WhereStmt struct {
	StmtBase
	Else bool
	Mask Expr
	Body Stmt
}

// SelectStmt is SELECT CASE (x) or SELECT TYPE (x).
type SelectStmt struct {
	StmtBase
	Assoc *Ident // SELECT TYPE (NAME => X), SELECT RANK (NAME => X)
	X     Expr
}

// CaseStmt is CASE (values) or CASE DEFAULT (Default set).
type CaseStmt struct {
	StmtBase
	Default bool
	Values  []Expr
}

// GotoStmt is GO TO label, GO TO (l1, l2) e (computed), or GO TO v (assigned).
type GotoStmt struct {
	StmtBase
	Assigned bool // GO TO var [, (labels)]
	Labels   []*Lit
	X        Expr // the index of a computed GOTO or the variable of an assigned one
}

// CallStmt is CALL name [(args)].
type CallStmt struct {
	StmtBase
	Name   *Ident // the procedure, or the base object of a type-bound call
	Proc   Expr   // for a type-bound call, the procedure designator (A(I)%P)
	Lparen Pos
	Args   []Expr
	Rparen Pos
}

// IOStmt is READ, WRITE, PRINT, OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE,
// ENDFILE, FLUSH, WAIT; Control is the parenthesised list (or the format of
// PRINT and short READ), Items the input/output list.
type IOStmt struct {
	StmtBase
	Control []Expr
	Items   []Expr
}

// FormatStmt is FORMAT (...); the specification is kept as text.
type FormatStmt struct {
	StmtBase
	Spec string
}

// AllocateStmt is ALLOCATE, DEALLOCATE or NULLIFY with its list.
type AllocateStmt struct {
	StmtBase
	Type  *TypeSpec
	Items []Expr
}

// AssignLabelStmt is ASSIGN label TO var.
type AssignLabelStmt struct {
	StmtBase
	Target *Lit
	Var    *Ident
}

// EntryStmt is ENTRY NAME (args).
type EntryStmt struct {
	StmtBase
	Name   *Ident
	Params []Expr
}

// IncludeStmt is INCLUDE 'file'. File is the parsed text of the included
// file when the Config's Include function found it.
type IncludeStmt struct {
	StmtBase
	Path  string
	File  *File
	Found bool
}

// CppStmt is a C-preprocessor line (#if, #define, ...). Inactive regions
// are recorded in the unit's Inactive list, not as statements.
type CppStmt struct {
	StmtBase
	Directive string // "if", "ifdef", "define", "include", ...
	Text      string // the rest of the line
}

// BadStmt stands where a statement could not be parsed.
type BadStmt struct {
	StmtBase
}

// ---------------------------------------------------------------------------
// Directives

// Directive is an HPF, CM Fortran or OpenMP directive line, or a Fortran D
// statement (Sentinel ""). Name is the normalised directive keyword
// ("ALIGN", "DISTRIBUTE", "PARALLEL DO", "END PARALLEL DO", ...).
type Directive struct {
	StmtBase
	Sentinel string // "HPF", "CMF", "OMP", "" for Fortran D statements
	Name     string
	Spec     DirSpec
}

// DirSpec is the parsed body of a directive.
type DirSpec interface{ dirSpec() }

// EntitiesSpec is the body of PROCESSORS, TEMPLATE, DECOMPOSITION, DYNAMIC
// and INHERIT: a list of names with optional shapes.
type EntitiesSpec struct {
	Entities []*Entity
}

// AlignSpec is ALIGN alignees WITH target, in all three dialects:
// ALIGN A, B WITH D (Fortran D); ALIGN A(I,J) WITH T(J,I+1) and
// ALIGN (I,J) WITH T(I,J) :: A, B (HPF); ALIGN B(I,J) WITH A(I,J) (CMF).
// Subscripts are dummies (*Ident), "*" (*Star), ":" (*Triplet) or
// expressions of dummies (offsets and strides).
type AlignSpec struct {
	Alignees []*Ident
	Subs     []Expr // the (first) alignee's subscripts; nil when none are written
	HasSubs  bool
	// AligneeSubs are the subscripts of each alignee named before WITH,
	// as in Fortran D's ALIGN X(I,J), A(I,J) WITH D(I,J) (nil for one
	// written without); nil in the form (I) WITH T(I) :: A, B.
	AligneeSubs [][]Expr
	Target      *Ident
	TargetSubs  []Expr
	HasTarget   bool // target subscripts written
}

// DistFormat is one dimension of a distribution.
type DistFormat struct {
	Pos  Pos
	Kind string // "BLOCK", "CYCLIC", "*", ":"
	Arg  Expr   // CYCLIC(k), BLOCK(k)
}

// DistributeSpec is DISTRIBUTE T(BLOCK, *) ONTO P, DISTRIBUTE (BLOCK) :: A,
// or Fortran D's DISTRIBUTE D(:, CYCLIC).
type DistributeSpec struct {
	Targets []*Ident
	Formats []*DistFormat
	Onto    *Ident
}

// LayoutSpec is CM Fortran's LAYOUT A(:NEWS, :SERIAL).
type LayoutSpec struct {
	Target *Ident
	Dims   []string      // "NEWS", "SERIAL", "SEND"
	More   []*LayoutSpec // the further arrays of LAYOUT T(:NEWS), U(:NEWS)
}

// ClauseSpec is a directive body made of clauses: INDEPENDENT, NEW(I),
// REDUCTION(S) and every OpenMP directive.
type ClauseSpec struct {
	Clauses []*Clause
}

// Clause is NAME or NAME(args) in a directive.
type Clause struct {
	NamePos Pos
	Name    string
	Args    []Expr
	Op      string // REDUCTION(+:S) operator
}

func (*EntitiesSpec) dirSpec()   {}
func (*AlignSpec) dirSpec()      {}
func (*DistributeSpec) dirSpec() {}
func (*LayoutSpec) dirSpec()     {}
func (*ClauseSpec) dirSpec()     {}

// ---------------------------------------------------------------------------
// Constructs

// DoConstruct is a DO loop with its body. For a labelled DO the terminal
// statement is the last statement of Body and EndStmt is nil unless it is
// an END DO; loops that share a terminal statement nest, and only the
// innermost holds it. Directives that govern the loop (INDEPENDENT,
// !$OMP DO) are in Directives.
type DoConstruct struct {
	Directives []*Directive
	Do         *DoStmt
	Body       []Stmt
	EndStmt    Stmt
}

// IfConstruct is IF ... THEN / ELSE IF / ELSE / END IF.
type IfConstruct struct {
	Arms    []*IfArm
	EndStmt Stmt
}

// IfArm is one branch: its head (IF THEN, ELSE IF, or ELSE as SimpleStmt).
type IfArm struct {
	Head Stmt
	Body []Stmt
}

// Block is any other construct with a head, arms and an end: SELECT CASE
// (arms are CASEs), WHERE / ELSEWHERE, FORALL, ASSOCIATE, BLOCK, CRITICAL,
// derived TYPE definitions and INTERFACE blocks.
type Block struct {
	Head    Stmt
	Body    []Stmt
	Arms    []*IfArm
	EndStmt Stmt
}

func (c *DoConstruct) Pos() Pos {
	if len(c.Directives) > 0 {
		return c.Directives[0].Pos()
	}
	return c.Do.Pos()
}
func (c *DoConstruct) End() Pos {
	if c.EndStmt != nil {
		return c.EndStmt.End()
	}
	if n := len(c.Body); n > 0 {
		return c.Body[n-1].End()
	}
	return c.Do.End()
}
func (c *DoConstruct) Base() *StmtBase { return &c.Do.StmtBase }

func (c *IfConstruct) Pos() Pos { return c.Arms[0].Head.Pos() }
func (c *IfConstruct) End() Pos {
	if c.EndStmt != nil {
		return c.EndStmt.End()
	}
	last := c.Arms[len(c.Arms)-1]
	if n := len(last.Body); n > 0 {
		return last.Body[n-1].End()
	}
	return last.Head.End()
}
func (c *IfConstruct) Base() *StmtBase { return c.Arms[0].Head.Base() }

func (c *Block) Pos() Pos { return c.Head.Pos() }
func (c *Block) End() Pos {
	if c.EndStmt != nil {
		return c.EndStmt.End()
	}
	if n := len(c.Arms); n > 0 {
		last := c.Arms[n-1]
		if m := len(last.Body); m > 0 {
			return last.Body[m-1].End()
		}
		return last.Head.End()
	}
	if n := len(c.Body); n > 0 {
		return c.Body[n-1].End()
	}
	return c.Head.End()
}
func (c *Block) Base() *StmtBase { return c.Head.Base() }
