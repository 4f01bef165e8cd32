package complexity

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pfls/pfls/internal/gen"
	"github.com/pfls/pfls/parser"
)

// slowestCorpus are LAPACK's slowest files for the complexity engine
// (measured by timing `pfls complexity` on every .f of LAPACK 3.11): the
// Level 2 and 3 BLAS test drivers, long routines of many IF/GOTO tests.
var slowestCorpus = []string{
	"CBLAS/testing/c_zblat2.f", "CBLAS/testing/c_dblat2.f",
	"CBLAS/testing/c_sblat2.f", "CBLAS/testing/c_cblat2.f",
	"BLAS/TESTING/zblat2.f", "BLAS/TESTING/dblat2.f",
	"CBLAS/testing/c_dblat3.f", "SRC/zgbrfs.f", "TESTING/LIN/clattb.f",
}

// BenchmarkComplexitySlowest computes the complexity of each of
// slowestCorpus under $PFLS_CORPUS (LAPACK's source tree) from scratch,
// one engine per file as `pfls complexity` does. It skips without the
// corpus.
func BenchmarkComplexitySlowest(b *testing.B) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		b.Skip("PFLS_CORPUS not set")
	}
	var files []*parser.File
	for _, n := range slowestCorpus {
		src, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			b.Skip(err)
		}
		files = append(files, parser.Parse(filepath.Base(n), src, nil))
	}
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			NewEngine(Options{}).File(f)
		}
	}
	cpu.Stop()
}
