package parser

// The budgets of the parser. Every input, however large or odd, is read in
// time and memory about proportional to its size; past one of these
// limits the construct concerned gets a diagnostic "too large to analyse
// (reason)" (code "too-large") instead of being analysed.
const (
	// MaxFileBytes bounds the text Parse analyses: a larger file gets one
	// diagnostic and no tree. A parse holds about 5 (comment-heavy code
	// such as LAPACK) to 20 times the text in memory, and the analyses
	// after it more; the largest LAPACK routine has 140 KB, generated
	// Fortran a few MB.
	MaxFileBytes = 16 << 20

	// MaxStatementBytes bounds one logical statement (continuation lines
	// joined): Fortran 2023 allows a million characters, earlier
	// standards 40,000 or fewer. A longer statement becomes a bad
	// statement with a diagnostic.
	MaxStatementBytes = 1 << 20

	// MaxConstructDepth bounds the nesting of constructs (DO, IF, SELECT,
	// WHERE, FORALL, blocks). Real code nests a dozen deep at most; the
	// analyses walk the tree recursively. Constructs deeper than this
	// stay in the construct around them as plain statements.
	MaxConstructDepth = 256

	// MaxExprOperands bounds the operands of one chain of binary
	// operators (A+B+C+...), whose tree is as deep as the chain is long.
	// Parentheses and prefix operators are bounded by maxDepth.
	MaxExprOperands = 10000

	// MaxCppDepth bounds the nesting of #if, #ifdef and #ifndef, whose
	// state is copied at each preprocessor line (so that a unit can be
	// reused by an incremental reparse when the state before it is the
	// same). The text inside a conditional nested deeper is skipped.
	MaxCppDepth = 256

	// MaxCppDefines bounds the macros defined in a file, for the same
	// reason (the copies cost the number of macros each); further new
	// macros are ignored. Fortran sources define tens.
	MaxCppDefines = 1024

	// The limits of INCLUDE. Past them the INCLUDE statement gets a
	// diagnostic and the file is not read.

	// MaxIncludeBytes bounds an INCLUDE'd file, as the workspace index
	// bounds the files it reads: headers are small, and a device or a
	// growing file must not fill memory.
	MaxIncludeBytes = 4 << 20
	// MaxIncludeDepth bounds a chain of INCLUDEs (a file including a file
	// including...); real code nests two or three deep.
	MaxIncludeDepth = 16
	// MaxIncludes bounds the INCLUDEs followed for one program unit, all
	// chains together, so that files including each other several times
	// (without a cycle) cannot multiply the work.
	MaxIncludes = 256
)
