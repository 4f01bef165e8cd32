package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// standard2018 is the list of Table 16.1 of Fortran 2018 (ISO/IEC
// 1539-1:2018, 16.7), the intrinsic procedures a processor provides.
const standard2018 = `ABS ACHAR ACOS ACOSH ADJUSTL ADJUSTR AIMAG AINT ALL ALLOCATED ANINT ANY ASIN ASINH
ASSOCIATED ATAN ATAN2 ATANH ATOMIC_ADD ATOMIC_AND ATOMIC_CAS ATOMIC_DEFINE ATOMIC_FETCH_ADD ATOMIC_FETCH_AND
ATOMIC_FETCH_OR ATOMIC_FETCH_XOR ATOMIC_OR ATOMIC_REF ATOMIC_XOR BESSEL_J0 BESSEL_J1 BESSEL_JN BESSEL_Y0
BESSEL_Y1 BESSEL_YN BGE BGT BIT_SIZE BLE BLT BTEST CEILING CHAR CMPLX CO_BROADCAST CO_MAX CO_MIN CO_REDUCE
CO_SUM COMMAND_ARGUMENT_COUNT CONJG COS COSH COSHAPE COUNT CPU_TIME CSHIFT DATE_AND_TIME DBLE DIGITS DIM
DOT_PRODUCT DPROD DSHIFTL DSHIFTR EOSHIFT EPSILON ERF ERFC ERFC_SCALED EVENT_QUERY EXECUTE_COMMAND_LINE EXP
EXPONENT EXTENDS_TYPE_OF FAILED_IMAGES FINDLOC FLOOR FRACTION GAMMA GET_COMMAND GET_COMMAND_ARGUMENT
GET_ENVIRONMENT_VARIABLE GET_TEAM HUGE HYPOT IACHAR IALL IAND IANY IBCLR IBITS IBSET ICHAR IEOR IMAGE_INDEX
IMAGE_STATUS INDEX INT IOR IPARITY ISHFT ISHFTC IS_CONTIGUOUS IS_IOSTAT_END IS_IOSTAT_EOR KIND LBOUND LCOBOUND
LEADZ LEN LEN_TRIM LGE LGT LLE LLT LOG LOG_GAMMA LOG10 LOGICAL MASKL MASKR MATMUL MAX MAXEXPONENT MAXLOC MAXVAL
MERGE MERGE_BITS MIN MINEXPONENT MINLOC MINVAL MOD MODULO MOVE_ALLOC MVBITS NEAREST NEW_LINE NINT NORM2 NOT
NULL NUM_IMAGES OUT_OF_RANGE PACK PARITY POPCNT POPPAR PRECISION PRESENT PRODUCT RADIX RANDOM_INIT
RANDOM_NUMBER RANDOM_SEED RANGE RANK REAL REDUCE REPEAT RESHAPE RRSPACING SAME_TYPE_AS SCALE SCAN
SELECTED_CHAR_KIND SELECTED_INT_KIND SELECTED_REAL_KIND SET_EXPONENT SHAPE SHIFTA SHIFTL SHIFTR SIGN SIN SINH
SIZE SPACING SPREAD SQRT STOPPED_IMAGES STORAGE_SIZE SUM SYSTEM_CLOCK TAN TANH TEAM_NUMBER THIS_IMAGE TINY
TRAILZ TRANSFER TRANSPOSE TRIM UBOUND UCOBOUND UNPACK VERIFY`

// The table holds every intrinsic of the standard and nothing else
// (besides the HPF and ISO_C_BINDING section), each form well formed.
func TestIntrinsicTableComplete(t *testing.T) {
	std := map[string]bool{}
	for _, n := range strings.Fields(standard2018) {
		std[n] = true
		if IntrinsicForms(n) == nil {
			t.Errorf("%s is missing from the intrinsics table", n)
		}
	}
	extra := map[string]bool{"NUMBER_OF_PROCESSORS": true, "PROCESSORS_SHAPE": true, "ILEN": true,
		"C_ASSOCIATED": true, "C_F_POINTER": true, "C_F_PROCPOINTER": true, "C_FUNLOC": true, "C_LOC": true, "C_SIZEOF": true}
	for name, forms := range intrinsicForms {
		if !std[name] && !extra[name] {
			t.Errorf("%s is in the table but not in Fortran 2018's list", name)
		}
		for _, f := range forms {
			if intrinsicClasses[f.Class] == "" || f.Result == "" || !strings.HasSuffix(f.Doc, ".") {
				t.Errorf("%s: class %q, result %q, doc %q", name, f.Class, f.Result, f.Doc)
			}
			if f.IsSubroutine() != (f.Result == "none (subroutine)") {
				t.Errorf("%s: class %s with result %q", name, f.Class, f.Result)
			}
			seen := map[string]bool{}
			for _, p := range f.Params {
				if p.Name == "" || p.Type == "" || seen[p.Name] || strings.ToUpper(p.Name) != p.Name {
					t.Errorf("%s: parameter %+v", name, p)
				}
				seen[p.Name] = true
			}
		}
	}
}

// The parser knows every intrinsic of Fortran 2018 as one: a program under
// IMPLICIT NONE that calls the image and team inquiries of clause 16.9 gets
// no "has no type" error, and none of the standard's names is missing
// from the parser's list.
func TestParserKnowsStandardIntrinsics(t *testing.T) {
	for _, n := range strings.Fields(standard2018) {
		if !parser.IsIntrinsic(n) {
			t.Errorf("the parser does not know %s as an intrinsic", n)
		}
	}
	const src = `program teams
  implicit none
  integer :: n, k
  integer, allocatable :: failed(:)
  real :: a[*]
  n = team_number()
  failed = failed_images()
  k = image_status(1)
  print *, n, k, coshape(a), size(failed), size(stopped_images())
end program teams
`
	for _, d := range Diagnostics(parser.Parse("teams.f90", []byte(src), nil)) {
		t.Errorf("%s at %q", d.Message, src[d.Start:d.End])
	}
}

func hoverText(t *testing.T, src, at string, delta int) string {
	t.Helper()
	f := parser.Parse("t.f90", []byte(src), nil)
	i := strings.Index(src, at)
	if i < 0 {
		t.Fatalf("%q not in the source", at)
	}
	h := Hover(f, i+delta, nil)
	if h == nil {
		return ""
	}
	return h.Markdown
}

func TestIntrinsicHover(t *testing.T) {
	src := "program p\n  real :: a(10), s, d\n  s = sum(a, mask=a > 0)\n  d = dabs(s)\n  call cpu_time(s)\nend program\n"
	for _, c := range []struct {
		at   string
		want []string
	}{
		{"sum(", []string{"SUM(ARRAY, DIM, [MASK])\nSUM(ARRAY, [MASK])", "intrinsic transformational function → array of rank n−1", "The sum of all elements", "- `MASK`: logical array, optional"}},
		{"dabs(", []string{"INTRINSIC DABS", "specific name of the intrinsic ABS for an argument of type double precision", "ABS(A)"}},
		{"cpu_time(", []string{"CALL CPU_TIME(TIME)", "intrinsic subroutine\n", "- `TIME`: real, intent(out)"}},
	} {
		got := hoverText(t, src, c.at, 1)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("hover of %s lacks %q:\n%s", c.at, w, got)
			}
		}
	}
}

func TestLibraryHover(t *testing.T) {
	const body = "  integer :: rank, ierr\n  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)\n  x = MPI_WTIME()\n  n = omp_get_thread_num()\nend program\n"
	for _, c := range []struct {
		name, head, at string
		want           string // "" for no library hover
	}{
		{"use mpi", "program p\n  use mpi\n", "MPI_COMM_WORLD", "MPI_COMM_WORLD: INTEGER (MPI_Comm handle), parameter"},
		{"use mpi_f08", "program p\n  use mpi_f08\n", "MPI_COMM_WORLD", "MPI_COMM_WORLD: TYPE(MPI_Comm), parameter"},
		{"mpif.h", "program p\n  include 'mpif.h'\n", "MPI_COMM_WORLD", "The communicator of every process started together."},
		{"routine", "program p\n  use mpi\n", "MPI_Comm_rank", "CALL MPI_COMM_RANK(COMM, RANK, IERROR)"},
		{"routine f08", "program p\n  use mpi_f08\n", "MPI_Comm_rank", "CALL MPI_COMM_RANK(COMM, RANK, [IERROR])"},
		{"function", "program p\n  use mpi\n", "MPI_WTIME", "`mpi` function → double precision"},
		{"omp", "program p\n  use omp_lib\n", "omp_get_thread_num", "The calling thread's number in its team"},
		{"no use", "program p\n", "MPI_COMM_WORLD", ""},
		{"mpi is not omp", "program p\n  use mpi\n", "omp_get_thread_num", ""},
	} {
		got := hoverText(t, c.head+body, c.at, 1)
		if c.want == "" {
			if strings.Contains(got, "mpi`") || strings.Contains(got, "omp_lib`") {
				t.Errorf("%s: hover of %s is a library's:\n%s", c.name, c.at, got)
			}
			continue
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: hover of %s lacks %q:\n%s", c.name, c.at, c.want, got)
		}
	}
	// Through a module of the workspace that uses mpi.
	mod := parser.Parse("m.f90", []byte("module comms\n  use mpi\nend module\n"), nil)
	src := "program p\n  use comms\n  print *, MPI_COMM_WORLD\nend program\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	if h := Hover(f, strings.Index(src, "MPI_COMM_WORLD")+1, []*parser.File{mod}); h == nil || !strings.Contains(h.Markdown, "named constant of `mpi`") {
		t.Errorf("MPI_COMM_WORLD through module comms: %+v", h)
	}
}

func TestSignatureHelpForms(t *testing.T) {
	for _, c := range []struct {
		src    string // the cursor is at the end
		label  string
		active int
	}{
		{"program p\n  x = sum(a, ", "SUM(ARRAY, DIM, [MASK])", 1},
		{"program p\n  x = sum(a, mask=", "SUM(ARRAY, DIM, [MASK])", 2},
		{"program p\n  x = reshape(s, order=o, ", "RESHAPE(SOURCE, SHAPE, [PAD], [ORDER])", 1},
		{"program p\n  x = reshape(s, (/2,3/), ord", "RESHAPE(SOURCE, SHAPE, [PAD], [ORDER])", 2},
		{"program p\n  x = max(a, b, c, d, ", "MAX(A1, A2, [A3, ...])", 2},
		{"program p\n  x = atan(y, ", "ATAN(Y, X)", 1},
		{"program p\n  x = norm2(v, dim=", "NORM2(X, [DIM])", 1},
		{"program p\n  x = sqrt(abs(y", "ABS(A)", 0},
		{"program p\n  x = sqrt(abs(y), ", "SQRT(X)", -1},
		{"program p\n  x = mod(a, p, q", "MOD(A, P)", -1},
		{"program p\n  use mpi\n  call mpi_send(buf, n, MPI_REAL, dest, ", "MPI_SEND(BUF, COUNT, DATATYPE, DEST, TAG, COMM, IERROR)", 4},
		{"program p\n  use omp_lib\n  call omp_set_num_threads(", "omp_set_num_threads(num_threads)", 0},
		{"program p\n  call mpi_send(buf, ", "", 0},
		{"program p\n  x = 'sum(a, ", "", 0},
	} {
		f := parser.Parse("t.f90", []byte(c.src), nil)
		sig := SignatureHelp(f, len(c.src), nil)
		if c.label == "" {
			if sig != nil {
				t.Errorf("%q: signature %+v, want none", c.src, sig)
			}
			continue
		}
		if sig == nil || sig.Label != c.label || sig.Active != c.active {
			t.Errorf("%q: signature %+v, want %s with parameter %d active", c.src, sig, c.label, c.active)
		}
	}
}

// FuzzSignatureHelp: on any text and cursor, signature help does not
// fail, and what it answers is consistent: the active form exists, its
// label is the signature's, the active parameter is one of its or -1.
func FuzzSignatureHelp(f *testing.F) {
	f.Add("program p\n  use mpi\n  x = sum(a, mask=b, ", 40)
	f.Add("      CALL SUB(A,\n     &  B, ", 25)
	f.Add("x = max(1, 2, 3, 4, (", 20)
	f.Fuzz(func(t *testing.T, src string, off int) {
		if len(src) > 2048 {
			return
		}
		for _, name := range []string{"f.f90", "f.f"} {
			file := parser.Parse(name, []byte(src), nil)
			sig := SignatureHelp(file, off, nil)
			if sig == nil {
				continue
			}
			if sig.ActiveForm < 0 || sig.ActiveForm >= len(sig.Forms) || sig.Forms[sig.ActiveForm].Label != sig.Label {
				t.Fatalf("%q at %d: active form %d of %d, label %q", src, off, sig.ActiveForm, len(sig.Forms), sig.Label)
			}
			for _, fm := range sig.Forms {
				if fm.Active < -1 || fm.Active >= len(fm.Spans) || len(fm.Spans) != len(fm.Params) {
					t.Fatalf("%q at %d: form %+v", src, off, fm)
				}
				for _, sp := range fm.Spans {
					if sp[0] < 0 || sp[1] > len(fm.Label) || sp[0] >= sp[1] {
						t.Fatalf("%q at %d: span %v of %q", src, off, sp, fm.Label)
					}
				}
			}
		}
	})
}
