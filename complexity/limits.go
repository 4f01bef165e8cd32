package complexity

// Budgets. Every analysis of this package is bounded, so that no input,
// however hostile, makes it run away in time or memory. Past a limit the
// construct's cost is the unknown TooLarge, or Unbounded for code that
// never terminates, and the unit gets a note saying which limit was met:
// the answer is explicit, never a silently truncated polynomial.

// TooLarge is the cost of a construct too large to analyse. It absorbs
// what it meets: a sum or product with it is TooLarge again, so no
// result is part exact, part cut off.
const TooLarge = "TOO_LARGE"

// Unbounded is the cost of code that does not terminate: a cycle of the
// control flow that is entered and never left.
const Unbounded = "UNBOUNDED"

const (
	// MaxDegree bounds the total degree of a term and the magnitude of
	// each exponent. Real costs have degree 3 or 4 (a triple loop nest);
	// 64 still allows 64 perfectly nested loops, and keeps a term
	// evaluated at a 100-digit value below 6,400 digits.
	MaxDegree = 64

	// MaxTerms bounds the number of terms of a polynomial. The costs of
	// LAPACK routines have a few dozen terms; a polynomial of 4,096 terms
	// is no longer readable, and adding two of them stays below a
	// millisecond.
	MaxTerms = 4096

	// MaxProducts bounds the term products one multiplication forms
	// before they are added up, len(p)·len(q): 2¹⁸ products take about
	// 50 ms and 30 MB, where two polynomials of MaxTerms terms would form
	// 16 million.
	MaxProducts = 1 << 18

	// MaxCoefBits bounds the bits of a coefficient made by a power (and
	// of a value a variable takes in Eval raised to its exponent):
	// 65,536 bits are 19,700 decimal digits, far past any meaningful
	// cost, and one multiplication of such numbers still takes
	// microseconds.
	MaxCoefBits = 1 << 16

	// MaxLiteralDigits bounds the digits of a numeric literal, and the
	// magnitude of its exponent, that the model takes at its exact value:
	// 300 digits are 1,000 bits (double precision ends at 1E308), so
	// that a product of MaxDegree such values stays near MaxCoefBits.
	// A longer literal stands for TooLarge.
	MaxLiteralDigits = 300

	// MaxNesting bounds how deep constructs (loops, IFs, blocks) nest in
	// the model. Fortran compilers allow a few dozen levels (gfortran
	// does not limit DO nesting, the standard asks for 255 overall);
	// 100 levels is past any real program, and deeper nests would each
	// copy the preconditions and the sets of changed variables of every
	// level above them.
	MaxNesting = 100

	// MaxParamDepth bounds how deep PARAMETERs may be defined in terms
	// of each other (K1 = K0 + K0, K2 = K1 + K1, ...): each level is one
	// short Go call chain, so 1,000 levels stay far from the stack limit.
	MaxParamDepth = 1000

	// MaxUnstructuredNodes bounds the statements of one list with jumps
	// that the unstructured model solves: the model builds an n×n
	// matrix of probabilities, 8 MB at 1,000. The largest such lists of
	// LAPACK have a few hundred statements.
	MaxUnstructuredNodes = 1000

	// MaxSolveWork bounds the rational operations (multiply-adds) of the
	// elimination that solves one list with jumps. Structured GOTO code
	// needs a few per statement: the largest in LAPACK 3.11 (csteqr)
	// needs 74. A knot where every statement can jump to any other
	// needs about n³/3, 120,000 for 200 random jumps, and its exact
	// answer has hundreds of digits; 2¹⁸ operations take about a second
	// on numbers of MaxSolveBits.
	MaxSolveWork = 1 << 18

	// MaxSolveBits bounds the bits of any number during that
	// elimination: LAPACK's need 12, the knot of 200 random jumps 377.
	MaxSolveBits = 1 << 10
)
