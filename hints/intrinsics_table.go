package hints

// intrinsicTable lists the intrinsic procedures of Fortran 2018 (clause 16,
// Table 16.1), one form per line; a procedure with several argument lists
// (ATAN, BESSEL_JN, SUM, THIS_IMAGE, ...) has one line per form. Fields
// are separated by "|":
//
//	NAME | class | arguments | result | description
//
// The class is the standard's: A atomic subroutine, C collective
// subroutine, E elemental function, ES elemental subroutine, I inquiry
// function, PS pure subroutine, S impure subroutine, T transformational
// function. Arguments are separated by ";", each its keyword name and
// its type in words (with the intent of a subroutine's argument when it
// is not IN); an optional argument is in brackets; "A3..." stands for any
// number of further arguments. The descriptions are written here.
//
// The lines after "# HPF" are the HPF intrinsics (HPF 2.0, §7.4) and the
// ISO_C_BINDING module procedures, which pfls also knows.
const intrinsicTable = `
ABS|E|A integer, real or complex|same type and kind as A (real for complex A)|Absolute value; the modulus for a complex number.
ACHAR|E|I integer; [KIND integer constant]|character of length 1|The character at position I of the ASCII collating sequence.
ACOS|E|X real or complex|same type and kind as X|Arccosine, in radians (principal value in 0 to π).
ACOSH|E|X real or complex|same type and kind as X|Inverse hyperbolic cosine.
ADJUSTL|E|STRING character|character of the same length|Moves leading blanks to the end: the text starts in the first position.
ADJUSTR|E|STRING character|character of the same length|Moves trailing blanks to the front: the text ends in the last position.
AIMAG|E|Z complex|real of the kind of Z|Imaginary part of a complex number.
AINT|E|A real; [KIND integer constant]|real|Truncates toward zero to a whole number, kept as a real.
ALL|T|MASK logical array; [DIM integer]|logical (scalar, or an array of rank n−1 with DIM)|True when every element of MASK is true (along DIM if given).
ALLOCATED|I|ARRAY allocatable array|default logical|Whether an allocatable array is allocated.
ALLOCATED|I|SCALAR allocatable scalar|default logical|Whether an allocatable scalar is allocated.
ANINT|E|A real; [KIND integer constant]|real|Rounds to the nearest whole number (halves away from zero), kept as a real.
ANY|T|MASK logical array; [DIM integer]|logical (scalar, or an array of rank n−1 with DIM)|True when at least one element of MASK is true (along DIM if given).
ASIN|E|X real or complex|same type and kind as X|Arcsine, in radians (principal value in −π/2 to π/2).
ASINH|E|X real or complex|same type and kind as X|Inverse hyperbolic sine.
ASSOCIATED|I|POINTER pointer; [TARGET pointer or target]|default logical|Whether a pointer is associated (with TARGET, if given).
ATAN|E|X real or complex|same type and kind as X|Arctangent, in radians (principal value in −π/2 to π/2).
ATAN|E|Y real; X real of the same kind|real of the kind of X|Arctangent of Y/X in radians, in the quadrant of the point (X, Y) (as ATAN2).
ATAN2|E|Y real; X real of the same kind|real of the kind of X|Arctangent of Y/X in radians, in the quadrant of the point (X, Y): −π to π.
ATANH|E|X real or complex|same type and kind as X|Inverse hyperbolic tangent.
ATOMIC_ADD|A|ATOM integer atomic coarray, inout; VALUE integer; [STAT integer, out]|none (subroutine)|Adds VALUE to ATOM atomically.
ATOMIC_AND|A|ATOM integer atomic coarray, inout; VALUE integer; [STAT integer, out]|none (subroutine)|Sets ATOM to the bitwise AND of ATOM and VALUE atomically.
ATOMIC_CAS|A|ATOM integer or logical atomic coarray, inout; OLD same type as ATOM, out; COMPARE same type as ATOM; NEW same type as ATOM; [STAT integer, out]|none (subroutine)|Compare and swap: OLD receives ATOM, and ATOM becomes NEW if it equalled COMPARE, atomically.
ATOMIC_DEFINE|A|ATOM integer or logical atomic coarray, out; VALUE same type as ATOM; [STAT integer, out]|none (subroutine)|Stores VALUE in ATOM atomically.
ATOMIC_FETCH_ADD|A|ATOM integer atomic coarray, inout; VALUE integer; OLD integer, out; [STAT integer, out]|none (subroutine)|Adds VALUE to ATOM atomically and returns the former value in OLD.
ATOMIC_FETCH_AND|A|ATOM integer atomic coarray, inout; VALUE integer; OLD integer, out; [STAT integer, out]|none (subroutine)|Bitwise AND of ATOM with VALUE atomically; OLD receives the former value.
ATOMIC_FETCH_OR|A|ATOM integer atomic coarray, inout; VALUE integer; OLD integer, out; [STAT integer, out]|none (subroutine)|Bitwise OR of ATOM with VALUE atomically; OLD receives the former value.
ATOMIC_FETCH_XOR|A|ATOM integer atomic coarray, inout; VALUE integer; OLD integer, out; [STAT integer, out]|none (subroutine)|Bitwise exclusive OR of ATOM with VALUE atomically; OLD receives the former value.
ATOMIC_OR|A|ATOM integer atomic coarray, inout; VALUE integer; [STAT integer, out]|none (subroutine)|Sets ATOM to the bitwise OR of ATOM and VALUE atomically.
ATOMIC_REF|A|VALUE integer or logical, out; ATOM atomic coarray of the same type; [STAT integer, out]|none (subroutine)|Reads ATOM atomically into VALUE.
ATOMIC_XOR|A|ATOM integer atomic coarray, inout; VALUE integer; [STAT integer, out]|none (subroutine)|Sets ATOM to the bitwise exclusive OR of ATOM and VALUE atomically.
BESSEL_J0|E|X real|real of the kind of X|Bessel function of the first kind, order 0.
BESSEL_J1|E|X real|real of the kind of X|Bessel function of the first kind, order 1.
BESSEL_JN|E|N integer ≥ 0; X real|real of the kind of X|Bessel function of the first kind, order N.
BESSEL_JN|T|N1 integer ≥ 0; N2 integer ≥ 0; X real scalar|real rank-1 array of N2−N1+1 elements|Bessel functions of the first kind of orders N1 to N2 at X.
BESSEL_Y0|E|X real > 0|real of the kind of X|Bessel function of the second kind, order 0.
BESSEL_Y1|E|X real > 0|real of the kind of X|Bessel function of the second kind, order 1.
BESSEL_YN|E|N integer ≥ 0; X real > 0|real of the kind of X|Bessel function of the second kind, order N.
BESSEL_YN|T|N1 integer ≥ 0; N2 integer ≥ 0; X real scalar > 0|real rank-1 array of N2−N1+1 elements|Bessel functions of the second kind of orders N1 to N2 at X.
BGE|E|I integer or boz; J integer or boz|default logical|Whether I ≥ J when both are read as unsigned bit patterns.
BGT|E|I integer or boz; J integer or boz|default logical|Whether I > J when both are read as unsigned bit patterns.
BIT_SIZE|I|I integer|integer of the kind of I|The number of bits of an integer of I's kind.
BLE|E|I integer or boz; J integer or boz|default logical|Whether I ≤ J when both are read as unsigned bit patterns.
BLT|E|I integer or boz; J integer or boz|default logical|Whether I < J when both are read as unsigned bit patterns.
BTEST|E|I integer; POS integer|default logical|Whether bit POS of I is set (bit 0 is the least significant).
CEILING|E|A real; [KIND integer constant]|integer|The least integer not below A.
CHAR|E|I integer; [KIND integer constant]|character of length 1|The character at position I of the processor's collating sequence.
CMPLX|E|X integer, real, complex or boz; [Y integer, real or boz]; [KIND integer constant]|complex (default kind unless KIND)|Builds a complex number X + iY (or converts a complex X).
CO_BROADCAST|C|A coarray-compatible variable, inout; SOURCE_IMAGE integer; [STAT integer, out]; [ERRMSG character, inout]|none (subroutine)|Copies A from image SOURCE_IMAGE to every image of the team.
CO_MAX|C|A integer, real or character, inout; [RESULT_IMAGE integer]; [STAT integer, out]; [ERRMSG character, inout]|none (subroutine)|Maximum of A over the images of the team, on every image or on RESULT_IMAGE.
CO_MIN|C|A integer, real or character, inout; [RESULT_IMAGE integer]; [STAT integer, out]; [ERRMSG character, inout]|none (subroutine)|Minimum of A over the images of the team, on every image or on RESULT_IMAGE.
CO_REDUCE|C|A any type, inout; OPERATION pure function of two arguments; [RESULT_IMAGE integer]; [STAT integer, out]; [ERRMSG character, inout]|none (subroutine)|Reduces A over the images of the team with OPERATION.
CO_SUM|C|A numeric, inout; [RESULT_IMAGE integer]; [STAT integer, out]; [ERRMSG character, inout]|none (subroutine)|Sum of A over the images of the team, on every image or on RESULT_IMAGE.
COMMAND_ARGUMENT_COUNT|T||default integer|The number of arguments on the command line that started the program.
CONJG|E|Z complex|complex of the kind of Z|Complex conjugate.
COS|E|X real or complex|same type and kind as X|Cosine of X in radians.
COSH|E|X real or complex|same type and kind as X|Hyperbolic cosine.
COSHAPE|I|COARRAY coarray; [KIND integer constant]|integer rank-1 array of the corank|The extents of the codimensions of a coarray.
COUNT|T|MASK logical array; [DIM integer]; [KIND integer constant]|integer (scalar, or an array of rank n−1 with DIM)|The number of true elements of MASK (along DIM if given).
CPU_TIME|S|TIME real, out|none (subroutine)|The processor time used so far, in seconds (negative when not available).
CSHIFT|T|ARRAY any array; SHIFT integer; [DIM integer]|array like ARRAY|Circular shift of the elements along DIM (the first dimension by default).
DATE_AND_TIME|S|[DATE character(8), out]; [TIME character(10), out]; [ZONE character(5), out]; [VALUES integer array(8), out]|none (subroutine)|The date (CCYYMMDD), the time (hhmmss.sss), the offset from UTC and all of them as numbers.
DBLE|E|A integer, real, complex or boz|double precision real|Converts to double precision (the real part of a complex).
DIGITS|I|X integer or real|default integer|The number of significant binary digits of the model of X's type and kind.
DIM|E|X integer or real; Y same type and kind as X|same type and kind as X|Positive difference: X − Y when positive, otherwise 0.
DOT_PRODUCT|T|VECTOR_A numeric or logical rank-1 array; VECTOR_B rank-1 array of the same size|scalar (type by the usual promotion)|Dot product of two vectors (the first conjugated when complex; OR of ANDs when logical).
DPROD|E|X default real; Y default real|double precision real|Product of two default reals in double precision.
DSHIFTL|E|I integer or boz; J integer or boz; SHIFT integer|integer|The leftmost SHIFT bits of J after the bits of I shifted left by SHIFT (double shift left).
DSHIFTR|E|I integer or boz; J integer or boz; SHIFT integer|integer|The rightmost SHIFT bits of I before the bits of J shifted right by SHIFT (double shift right).
EOSHIFT|T|ARRAY any array; SHIFT integer; [BOUNDARY scalar or array of ARRAY's type]; [DIM integer]|array like ARRAY|End-off shift along DIM: elements shifted out are lost, BOUNDARY (or zero, blank, false) fills in.
EPSILON|I|X real|real of the kind of X|The smallest number that added to 1 gives a result other than 1, in X's kind.
ERF|E|X real|real of the kind of X|Error function.
ERFC|E|X real|real of the kind of X|Complementary error function, 1 − ERF(X).
ERFC_SCALED|E|X real|real of the kind of X|Scaled complementary error function, EXP(X²)·ERFC(X).
EVENT_QUERY|S|EVENT event variable; COUNT integer, out; [STAT integer, out]|none (subroutine)|The number of times EVENT was posted and not yet waited for.
EXECUTE_COMMAND_LINE|S|COMMAND character; [WAIT logical]; [EXITSTAT integer, inout]; [CMDSTAT integer, out]; [CMDMSG character, inout]|none (subroutine)|Runs a command of the operating system, synchronously unless WAIT is false.
EXP|E|X real or complex|same type and kind as X|Exponential, e to the power X.
EXPONENT|E|X real|default integer|The exponent part of X in the model of its kind.
EXTENDS_TYPE_OF|I|A extensible type object; MOLD extensible type object|default logical|Whether the dynamic type of A is an extension of MOLD's.
FAILED_IMAGES|T|[TEAM team_type]; [KIND integer constant]|integer rank-1 array|The image indices of the failed images of the team.
FINDLOC|T|ARRAY intrinsic type array; VALUE scalar comparable with ARRAY; DIM integer; [MASK logical array]; [KIND integer constant]; [BACK logical]|integer array of rank n−1|Position along DIM of the first (last with BACK) element equal to VALUE.
FINDLOC|T|ARRAY intrinsic type array; VALUE scalar comparable with ARRAY; [MASK logical array]; [KIND integer constant]; [BACK logical]|integer rank-1 array of size n|Subscripts of the first (last with BACK) element equal to VALUE.
FLOOR|E|A real; [KIND integer constant]|integer|The greatest integer not above A.
FRACTION|E|X real|real of the kind of X|The fractional part of X in the model of its kind (X times radix to the −EXPONENT(X)).
GAMMA|E|X real|real of the kind of X|Gamma function.
GET_COMMAND|S|[COMMAND character, out]; [LENGTH integer, out]; [STATUS integer, out]; [ERRMSG character, inout]|none (subroutine)|The whole command line that started the program.
GET_COMMAND_ARGUMENT|S|NUMBER integer; [VALUE character, out]; [LENGTH integer, out]; [STATUS integer, out]; [ERRMSG character, inout]|none (subroutine)|Command-line argument NUMBER (0 is the command name).
GET_ENVIRONMENT_VARIABLE|S|NAME character; [VALUE character, out]; [LENGTH integer, out]; [STATUS integer, out]; [TRIM_NAME logical]; [ERRMSG character, inout]|none (subroutine)|The value of an environment variable.
GET_TEAM|T|[LEVEL integer]|team_type scalar|The current team, or its parent or the initial team by LEVEL.
HUGE|I|X integer or real|same type and kind as X|The largest number of the model of X's type and kind.
HYPOT|E|X real; Y real of the same kind|real of the kind of X|Euclidean distance √(X² + Y²) without undue overflow.
IACHAR|E|C character of length 1; [KIND integer constant]|integer|The position of C in the ASCII collating sequence.
IALL|T|ARRAY integer array; DIM integer; [MASK logical array]|integer array of rank n−1|Bitwise AND of the elements along DIM.
IALL|T|ARRAY integer array; [MASK logical array]|integer scalar|Bitwise AND of all elements.
IAND|E|I integer or boz; J integer or boz|integer|Bitwise AND.
IANY|T|ARRAY integer array; DIM integer; [MASK logical array]|integer array of rank n−1|Bitwise OR of the elements along DIM.
IANY|T|ARRAY integer array; [MASK logical array]|integer scalar|Bitwise OR of all elements.
IBCLR|E|I integer; POS integer|integer of the kind of I|I with bit POS cleared.
IBITS|E|I integer; POS integer; LEN integer|integer of the kind of I|LEN bits of I from bit POS, right-justified.
IBSET|E|I integer; POS integer|integer of the kind of I|I with bit POS set.
ICHAR|E|C character of length 1; [KIND integer constant]|integer|The position of C in the processor's collating sequence.
IEOR|E|I integer or boz; J integer or boz|integer|Bitwise exclusive OR.
IMAGE_INDEX|I|COARRAY coarray; SUB integer rank-1 array|default integer|The image index of the cosubscripts SUB (0 if they name no image).
IMAGE_INDEX|I|COARRAY coarray; SUB integer rank-1 array; TEAM team_type|default integer|The image index of the cosubscripts SUB in team TEAM.
IMAGE_INDEX|I|COARRAY coarray; SUB integer rank-1 array; TEAM_NUMBER integer|default integer|The image index of the cosubscripts SUB in the sibling team TEAM_NUMBER.
IMAGE_STATUS|E|IMAGE integer; [TEAM team_type]|default integer|Whether an image has failed or stopped (0 when it is running).
INDEX|E|STRING character; SUBSTRING character; [BACK logical]; [KIND integer constant]|integer|The starting position of SUBSTRING in STRING (the last one with BACK), 0 if absent.
INT|E|A integer, real, complex or boz; [KIND integer constant]|integer|Converts to integer, truncating toward zero.
IOR|E|I integer or boz; J integer or boz|integer|Bitwise inclusive OR.
IPARITY|T|ARRAY integer array; DIM integer; [MASK logical array]|integer array of rank n−1|Bitwise exclusive OR of the elements along DIM.
IPARITY|T|ARRAY integer array; [MASK logical array]|integer scalar|Bitwise exclusive OR of all elements.
ISHFT|E|I integer; SHIFT integer|integer of the kind of I|Logical shift of the bits of I, left for positive SHIFT, right for negative.
ISHFTC|E|I integer; SHIFT integer; [SIZE integer]|integer of the kind of I|Circular shift of the rightmost SIZE bits of I (all by default).
IS_CONTIGUOUS|I|ARRAY any array|default logical|Whether an array's elements are contiguous in memory.
IS_IOSTAT_END|E|I integer|default logical|Whether an IOSTAT value means end of file.
IS_IOSTAT_EOR|E|I integer|default logical|Whether an IOSTAT value means end of record.
KIND|I|X any intrinsic type|default integer|The kind type parameter of X.
LBOUND|I|ARRAY any array; [DIM integer]; [KIND integer constant]|integer (rank-1 array without DIM)|Lower bounds of an array, or of dimension DIM.
LCOBOUND|I|COARRAY coarray; [DIM integer]; [KIND integer constant]|integer (rank-1 array without DIM)|Lower cobounds of a coarray, or of codimension DIM.
LEADZ|E|I integer|default integer|The number of leading zero bits.
LEN|I|STRING character; [KIND integer constant]|integer|The length of a character entity.
LEN_TRIM|E|STRING character; [KIND integer constant]|integer|The length without trailing blanks.
LGE|E|STRING_A character; STRING_B character|default logical|Whether STRING_A ≥ STRING_B in the ASCII collating sequence.
LGT|E|STRING_A character; STRING_B character|default logical|Whether STRING_A > STRING_B in the ASCII collating sequence.
LLE|E|STRING_A character; STRING_B character|default logical|Whether STRING_A ≤ STRING_B in the ASCII collating sequence.
LLT|E|STRING_A character; STRING_B character|default logical|Whether STRING_A < STRING_B in the ASCII collating sequence.
LOG|E|X real or complex|same type and kind as X|Natural logarithm.
LOG_GAMMA|E|X real|real of the kind of X|Natural logarithm of the absolute value of the gamma function.
LOG10|E|X real|real of the kind of X|Common (base 10) logarithm.
LOGICAL|E|L logical; [KIND integer constant]|logical|Converts between kinds of logical.
MASKL|E|I integer; [KIND integer constant]|integer|A mask with the leftmost I bits set.
MASKR|E|I integer; [KIND integer constant]|integer|A mask with the rightmost I bits set.
MATMUL|T|MATRIX_A numeric or logical array of rank 1 or 2; MATRIX_B array of rank 1 or 2|array (type by the usual promotion)|Matrix product (matrix-vector and vector-matrix too).
MAX|E|A1 integer, real or character; A2 same type as A1; [A3... same type as A1]|same type as the arguments|The largest argument.
MAXEXPONENT|I|X real|default integer|The largest exponent of the model of X's kind.
MAXLOC|T|ARRAY integer, real or character array; DIM integer; [MASK logical array]; [KIND integer constant]; [BACK logical]|integer array of rank n−1|Position along DIM of the first (last with BACK) largest element.
MAXLOC|T|ARRAY integer, real or character array; [MASK logical array]; [KIND integer constant]; [BACK logical]|integer rank-1 array of size n|Subscripts of the first (last with BACK) largest element.
MAXVAL|T|ARRAY integer, real or character array; DIM integer; [MASK logical array]|array of rank n−1 of ARRAY's type|The largest element along DIM.
MAXVAL|T|ARRAY integer, real or character array; [MASK logical array]|scalar of ARRAY's type|The largest element (the most negative number when none is selected).
MERGE|E|TSOURCE any type; FSOURCE same type as TSOURCE; MASK logical|same type as TSOURCE|TSOURCE where MASK is true, FSOURCE elsewhere.
MERGE_BITS|E|I integer or boz; J integer or boz; MASK integer or boz|integer|The bits of I where MASK has ones and of J where it has zeros.
MIN|E|A1 integer, real or character; A2 same type as A1; [A3... same type as A1]|same type as the arguments|The smallest argument.
MINEXPONENT|I|X real|default integer|The smallest exponent of the model of X's kind.
MINLOC|T|ARRAY integer, real or character array; DIM integer; [MASK logical array]; [KIND integer constant]; [BACK logical]|integer array of rank n−1|Position along DIM of the first (last with BACK) smallest element.
MINLOC|T|ARRAY integer, real or character array; [MASK logical array]; [KIND integer constant]; [BACK logical]|integer rank-1 array of size n|Subscripts of the first (last with BACK) smallest element.
MINVAL|T|ARRAY integer, real or character array; DIM integer; [MASK logical array]|array of rank n−1 of ARRAY's type|The smallest element along DIM.
MINVAL|T|ARRAY integer, real or character array; [MASK logical array]|scalar of ARRAY's type|The smallest element (the largest number when none is selected).
MOD|E|A integer or real; P same type and kind as A, nonzero|same type and kind as A|Remainder A − INT(A/P)·P, with the sign of A.
MODULO|E|A integer or real; P same type and kind as A, nonzero|same type and kind as A|Modulo A − FLOOR(A/P)·P, with the sign of P.
MOVE_ALLOC|PS|FROM allocatable, inout; TO allocatable of a compatible type, out; [STAT integer, out]; [ERRMSG character, inout]|none (subroutine)|Moves an allocation from FROM to TO; FROM ends deallocated.
MVBITS|ES|FROM integer; FROMPOS integer; LEN integer; TO integer of FROM's kind, inout; TOPOS integer|none (subroutine)|Copies LEN bits of FROM from FROMPOS into TO at TOPOS.
NEAREST|E|X real; S real, nonzero|real of the kind of X|The nearest different machine number to X in the direction of the sign of S.
NEW_LINE|I|A character|character of length 1|The newline character of A's kind.
NINT|E|A real; [KIND integer constant]|integer|The nearest integer (halves away from zero).
NORM2|T|X real array; [DIM integer]|real of the kind of X|Euclidean norm of the array (along DIM if given), without undue overflow.
NOT|E|I integer|integer of the kind of I|Bitwise complement.
NULL|T|[MOLD pointer or allocatable]|disassociated pointer or unallocated allocatable|A disassociated pointer (with the characteristics of MOLD if given).
NUM_IMAGES|T||default integer|The number of images of the current team.
NUM_IMAGES|T|TEAM team_type|default integer|The number of images of team TEAM.
NUM_IMAGES|T|TEAM_NUMBER integer|default integer|The number of images of the sibling team TEAM_NUMBER.
OUT_OF_RANGE|E|X integer or real; MOLD integer or real scalar; [ROUND logical scalar]|default logical|Whether X cannot be converted to MOLD's type and kind.
PACK|T|ARRAY any array; MASK logical; [VECTOR rank-1 array of ARRAY's type]|rank-1 array of ARRAY's type|The elements of ARRAY where MASK is true, in array element order (padded from VECTOR).
PARITY|T|MASK logical array; [DIM integer]|logical (scalar, or an array of rank n−1 with DIM)|True when an odd number of elements of MASK are true.
POPCNT|E|I integer|default integer|The number of bits set.
POPPAR|E|I integer|default integer|1 when an odd number of bits are set, 0 otherwise.
PRECISION|I|X real or complex|default integer|The decimal precision of the model of X's kind.
PRESENT|I|A optional dummy argument|default logical|Whether an optional dummy argument was given.
PRODUCT|T|ARRAY numeric array; DIM integer; [MASK logical array]|array of rank n−1 of ARRAY's type|The product of the elements along DIM.
PRODUCT|T|ARRAY numeric array; [MASK logical array]|scalar of ARRAY's type|The product of all elements (1 when none is selected).
RADIX|I|X integer or real|default integer|The base of the model of X's type and kind.
RANDOM_INIT|S|REPEATABLE logical; IMAGE_DISTINCT logical|none (subroutine)|Initialises the random number generator: the same sequence on every run or not, and on every image or not.
RANDOM_NUMBER|S|HARVEST real, out|none (subroutine)|Pseudorandom numbers uniformly distributed in [0, 1).
RANDOM_SEED|S|[SIZE integer, out]; [PUT integer array]; [GET integer array, out]|none (subroutine)|Restarts or queries the random number generator's seed.
RANGE|I|X integer, real or complex|default integer|The decimal exponent range of the model of X's kind.
RANK|I|A any data object|default integer|The rank of A (0 for a scalar).
REAL|E|A integer, real, complex or boz; [KIND integer constant]|real|Converts to real (the real part of a complex).
REDUCE|T|ARRAY any array; OPERATION pure function of two arguments; DIM integer; [MASK logical array]; [IDENTITY scalar of ARRAY's type]; [ORDERED logical]|array of rank n−1 of ARRAY's type|Reduces the elements along DIM with OPERATION.
REDUCE|T|ARRAY any array; OPERATION pure function of two arguments; [MASK logical array]; [IDENTITY scalar of ARRAY's type]; [ORDERED logical]|scalar of ARRAY's type|Reduces all elements with OPERATION.
REPEAT|T|STRING character scalar; NCOPIES integer ≥ 0|character scalar|NCOPIES copies of STRING, concatenated.
RESHAPE|T|SOURCE any array; SHAPE integer rank-1 array; [PAD array of SOURCE's type]; [ORDER integer rank-1 array]|array of shape SHAPE|The elements of SOURCE (then PAD) arranged in the shape SHAPE, dimensions in ORDER.
RRSPACING|E|X real|real of the kind of X|The reciprocal of the relative spacing of model numbers near X.
SAME_TYPE_AS|I|A extensible type object; B extensible type object|default logical|Whether A and B have the same dynamic type.
SCALE|E|X real; I integer|real of the kind of X|X times the radix to the power I.
SCAN|E|STRING character; SET character; [BACK logical]; [KIND integer constant]|integer|The position of the first (last with BACK) character of STRING that is in SET, 0 if none.
SELECTED_CHAR_KIND|T|NAME character scalar|default integer|The kind of the character set NAME ("DEFAULT", "ASCII", "ISO_10646"), −1 if not supported.
SELECTED_INT_KIND|T|R integer scalar|default integer|The kind of an integer that holds every value with R decimal digits, −1 if none.
SELECTED_REAL_KIND|T|[P integer scalar]; [R integer scalar]; [RADIX integer scalar]|default integer|The kind of a real with at least P decimal digits and exponent range R (negative if none).
SET_EXPONENT|E|X real; I integer|real of the kind of X|X with its model exponent set to I.
SHAPE|I|SOURCE any data object; [KIND integer constant]|integer rank-1 array|The extents of SOURCE.
SHIFTA|E|I integer; SHIFT integer|integer of the kind of I|Arithmetic right shift (the sign bit is replicated).
SHIFTL|E|I integer; SHIFT integer|integer of the kind of I|Left shift, zeros shifted in.
SHIFTR|E|I integer; SHIFT integer|integer of the kind of I|Logical right shift, zeros shifted in.
SIGN|E|A integer or real; B same type as A|same type and kind as A|The magnitude of A with the sign of B.
SIN|E|X real or complex|same type and kind as X|Sine of X in radians.
SINH|E|X real or complex|same type and kind as X|Hyperbolic sine.
SIZE|I|ARRAY any array; [DIM integer]; [KIND integer constant]|integer|The number of elements of ARRAY, or its extent along DIM.
SPACING|E|X real|real of the kind of X|The absolute spacing of model numbers near X.
SPREAD|T|SOURCE any scalar or array; DIM integer; NCOPIES integer|array of rank n+1 of SOURCE's type|NCOPIES copies of SOURCE along a new dimension DIM.
SQRT|E|X real or complex|same type and kind as X|Square root.
STOPPED_IMAGES|T|[TEAM team_type]; [KIND integer constant]|integer rank-1 array|The image indices of the stopped images of the team.
STORAGE_SIZE|I|A any data object; [KIND integer constant]|integer|The size in bits of one element of A.
SUM|T|ARRAY numeric array; DIM integer; [MASK logical array]|array of rank n−1 of ARRAY's type|The sum of the elements along DIM.
SUM|T|ARRAY numeric array; [MASK logical array]|scalar of ARRAY's type|The sum of all elements (0 when none is selected).
SYSTEM_CLOCK|S|[COUNT integer, out]; [COUNT_RATE integer or real, out]; [COUNT_MAX integer, out]|none (subroutine)|The processor clock's count, its ticks per second and its largest value.
TAN|E|X real or complex|same type and kind as X|Tangent of X in radians.
TANH|E|X real or complex|same type and kind as X|Hyperbolic tangent.
TEAM_NUMBER|T|[TEAM team_type]|default integer|The team number of the current team (or of TEAM).
THIS_IMAGE|T|[TEAM team_type]|default integer|The image index of the executing image.
THIS_IMAGE|T|COARRAY coarray; [TEAM team_type]|integer rank-1 array|The cosubscripts of COARRAY that denote the executing image.
THIS_IMAGE|T|COARRAY coarray; DIM integer; [TEAM team_type]|default integer|Cosubscript DIM of COARRAY that denotes the executing image.
TINY|I|X real|real of the kind of X|The smallest positive normal number of X's kind.
TRAILZ|E|I integer|default integer|The number of trailing zero bits.
TRANSFER|T|SOURCE any type; MOLD any type; [SIZE integer]|type of MOLD (rank-1 array if MOLD is an array or SIZE is given)|The bits of SOURCE read as MOLD's type.
TRANSPOSE|T|MATRIX any rank-2 array|rank-2 array|Transpose of a matrix.
TRIM|T|STRING character scalar|character scalar|STRING without trailing blanks.
UBOUND|I|ARRAY any array; [DIM integer]; [KIND integer constant]|integer (rank-1 array without DIM)|Upper bounds of an array, or of dimension DIM.
UCOBOUND|I|COARRAY coarray; [DIM integer]; [KIND integer constant]|integer (rank-1 array without DIM)|Upper cobounds of a coarray, or of codimension DIM.
UNPACK|T|VECTOR rank-1 array; MASK logical array; FIELD same type as VECTOR|array of MASK's shape|The elements of VECTOR placed where MASK is true, FIELD elsewhere.
VERIFY|E|STRING character; SET character; [BACK logical]; [KIND integer constant]|integer|The position of the first (last with BACK) character of STRING not in SET, 0 if all are.
# HPF
NUMBER_OF_PROCESSORS|I|[DIM integer]|default integer|HPF: the number of processors the program runs on (along dimension DIM of the processor array).
PROCESSORS_SHAPE|I||integer rank-1 array|HPF: the shape of the processor array the program runs on.
ILEN|E|I integer|integer of the kind of I|HPF library: the number of bits needed to store I in two's complement.
C_ASSOCIATED|I|C_PTR_1 type(c_ptr) or type(c_funptr); [C_PTR_2 same type as C_PTR_1]|default logical|ISO_C_BINDING: whether a C pointer is not null (or equals C_PTR_2).
C_F_POINTER|S|CPTR type(c_ptr); FPTR pointer, out; [SHAPE integer rank-1 array]|none (subroutine)|ISO_C_BINDING: associates a Fortran pointer with the target of a C pointer.
C_F_PROCPOINTER|S|CPTR type(c_funptr); FPTR procedure pointer, out|none (subroutine)|ISO_C_BINDING: associates a procedure pointer with a C function pointer.
C_FUNLOC|I|X interoperable procedure|type(c_funptr)|ISO_C_BINDING: the C address of a procedure.
C_LOC|I|X interoperable variable with TARGET|type(c_ptr)|ISO_C_BINDING: the C address of a variable.
C_SIZEOF|I|X interoperable data object|integer(c_size_t)|ISO_C_BINDING: the size of X in bytes.
`

// intrinsicSpecifics are the specific names of Table 16.3 of Fortran 2018
// (and the double complex names compilers accept) with their generic
// intrinsic and the argument type the specific name takes.
const intrinsicSpecifics = `
ABS CABS default complex
ABS DABS double precision
ABS IABS default integer
ABS CDABS double complex
ABS ZABS double complex
ACOS DACOS double precision
AINT DINT double precision
ANINT DNINT double precision
ASIN DASIN double precision
ATAN DATAN double precision
ATAN2 DATAN2 double precision
CONJG DCONJG double complex
COS CCOS default complex
COS DCOS double precision
COS CDCOS double complex
COSH DCOSH double precision
DIM DDIM double precision
DIM IDIM default integer
EXP CEXP default complex
EXP DEXP double precision
EXP CDEXP double complex
EXP ZEXP double complex
AIMAG DIMAG double complex
INT IDINT double precision
INT IFIX default real
LOG ALOG default real
LOG CLOG default complex
LOG DLOG double precision
LOG CDLOG double complex
LOG ZLOG double complex
LOG10 ALOG10 default real
LOG10 DLOG10 double precision
MAX AMAX0 default integer, result default real
MAX AMAX1 default real
MAX DMAX1 double precision
MAX MAX0 default integer
MAX MAX1 default real, result default integer
MIN AMIN0 default integer, result default real
MIN AMIN1 default real
MIN DMIN1 double precision
MIN MIN0 default integer
MIN MIN1 default real, result default integer
MOD AMOD default real
MOD DMOD double precision
NINT IDNINT double precision
REAL FLOAT default integer
REAL SNGL double precision
REAL DFLOAT default integer, result double precision
REAL DREAL double complex, result double precision
CMPLX DCMPLX any numeric, result double complex
SIGN DSIGN double precision
SIGN ISIGN default integer
SIN CSIN default complex
SIN DSIN double precision
SIN CDSIN double complex
SINH DSINH double precision
SQRT CSQRT default complex
SQRT DSQRT double precision
SQRT CDSQRT double complex
SQRT ZSQRT double complex
TAN DTAN double precision
TANH DTANH double precision
`
