package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestIntrinsicHoverNoArguments: an intrinsic without arguments has no
// argument list after its description; IntrinsicDetail gives the first
// form and the description, or a plain phrase for an unknown name.
func TestIntrinsicHoverNoArguments(t *testing.T) {
	want := "```fortran\nCOMMAND_ARGUMENT_COUNT()\n```\nintrinsic transformational function → default integer\n\nThe number of arguments on the command line that started the program.\n"
	if got := intrinsicHover("COMMAND_ARGUMENT_COUNT"); got != want {
		t.Errorf("hover %q\nwant %q", got, want)
	}
	if got := IntrinsicDetail("SQRT"); got != "SQRT(X) — Square root." {
		t.Errorf("detail of SQRT %q", got)
	}
	if got := IntrinsicDetail("NOSUCH"); got != "intrinsic procedure" {
		t.Errorf("detail of NOSUCH %q", got)
	}
}

// TestLibrariesUseChain: MPI is seen through workspace modules 17 deep
// (the program's USE at depth 0, the 17th module's at 16, the limit) and
// not 18 deep.
func TestLibrariesUseChain(t *testing.T) {
	for _, c := range []struct {
		n    int
		want bool
	}{{17, true}, {18, false}} {
		var b strings.Builder
		for i := 1; i <= c.n; i++ {
			next := fmt.Sprintf("m%d", i+1)
			if i == c.n {
				next = "mpi"
			}
			fmt.Fprintf(&b, "module m%d\n  use %s\nend module m%d\n", i, next, i)
		}
		b.WriteString("program p\n  use m1\n  call mpi_init(ierr)\nend program p\n")
		src := b.String()
		f := parser.Parse("chain.f90", []byte(src), nil)
		u := innermost(f, strings.Index(src, "call mpi_init"))
		forms, _ := LibraryForms(f, u, "MPI_INIT", nil)
		if (forms != nil) != c.want {
			t.Errorf("%d modules: MPI_INIT forms %v, want found %v", c.n, forms, c.want)
		}
	}
}

// TestLibraryHoverOwnDeclaration: a variable the program declares hides
// the MPI constant of the same name: its hover is its own.
func TestLibraryHoverOwnDeclaration(t *testing.T) {
	src := "program p\n  use mpi\n  integer :: mpi_comm_world\n  mpi_comm_world = 1\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	h := Hover(f, strings.LastIndex(src, "mpi_comm_world"), nil)
	if h == nil || strings.Contains(h.Markdown, "named constant") || !strings.Contains(h.Markdown, "declared on line 3") {
		t.Errorf("hover %+v", h)
	}
}

// TestLibrariesSubmoduleParent: a submodule sees what its parent module
// uses (host association), MPI included, though it has no USE itself.
func TestLibrariesSubmoduleParent(t *testing.T) {
	src := "module par\n  use mpi\nend module par\nsubmodule (par) sub\ncontains\n  subroutine s\n    call mpi_init(ierr)\n  end subroutine s\nend submodule sub\n"
	f := parser.Parse("s.f90", []byte(src), nil)
	u := innermost(f, strings.Index(src, "call mpi_init"))
	if forms, lib := LibraryForms(f, u, "MPI_INIT", nil); forms == nil || lib != "mpi" {
		t.Errorf("MPI_INIT in the submodule: %v %q", forms, lib)
	}
}
