package parser

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/internal/gen"
)

func benchParse(b *testing.B, name string, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		Parse(name, src, nil)
	}
	cpu.StopBytes(int64(len(src)))
}

// BenchmarkParseFixed parses a generated 20,000-line fixed-form file of
// 200 routines (target: at least 50 MB/s).
func BenchmarkParseFixed(b *testing.B) { benchParse(b, "gen.f", gen.Fixed(200)) }

// BenchmarkParseFree parses the free-form equivalent.
func BenchmarkParseFree(b *testing.B) { benchParse(b, "gen.f90", gen.Free(200)) }

// BenchmarkParseCorpus parses every Fortran file under $PFLS_CORPUS
// (LAPACK: comments dominate) from memory, one operation being the whole
// corpus (target: at least 100 MB/s). It is skipped when the variable is
// unset.
func BenchmarkParseCorpus(b *testing.B) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		b.Skip("PFLS_CORPUS is not set")
	}
	type file struct {
		name string
		src  []byte
	}
	var files []file
	var total int64
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && isFortranName(path) {
			if src, err := os.ReadFile(path); err == nil {
				files = append(files, file{path, src})
				total += int64(len(src))
			}
		}
		return nil
	})
	if len(files) == 0 {
		b.Skip("no Fortran files under PFLS_CORPUS")
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	b.SetBytes(total)
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			Parse(f.name, f.src, nil)
		}
	}
	cpu.StopBytes(total)
}

// BenchmarkReadStatements runs the first stages of a parse alone on the
// generated 20,000-line files: "read" turns the lines into logical
// statements, "lex" splits each statement into tokens as well. Neither
// builds a tree, so their cpu-MB/s is free of the tree's allocation and
// the collector's work that BenchmarkParseFixed and BenchmarkParseFree
// include; it reports the statements (and tokens) per operation.
func BenchmarkReadStatements(b *testing.B) {
	for _, c := range []struct {
		name string
		src  []byte
	}{{"gen.f", gen.Fixed(200)}, {"gen.f90", gen.Free(200)}} {
		for _, lex := range []bool{false, true} {
			stage := "read"
			if lex {
				stage = "lex"
			}
			b.Run(c.name+"/"+stage, func(b *testing.B) {
				b.SetBytes(int64(len(c.src)))
				b.ReportAllocs()
				var stmts, toks int
				lines := NewMapper(c.src).lines
				cpu := gen.StartCPU(b)
				for i := 0; i < b.N; i++ {
					stmts, toks = readStatements(c.name, c.src, lines, lex)
				}
				cpu.StopBytes(int64(len(c.src)))
				b.ReportMetric(float64(stmts), "stmts/op")
				if lex {
					b.ReportMetric(float64(toks), "tokens/op")
				}
			})
		}
	}
}

// readStatements reads src into logical statements, and into tokens when
// lex is set, and counts them. The reader has the table of line starts,
// as in Parse (which makes the file's Mapper first).
func readStatements(name string, src []byte, lines []int, lex bool) (stmts, toks int) {
	r := reader{src: src, form: FormFor(name), lineLen: (*Config)(nil).lineLength(), cpp: initialCPP(nil), lines: lines}
	var s scanner
	for st := r.next(); st != nil; st = r.next() {
		stmts++
		if lex {
			s.init(st)
			for s.next().kind != tEOS {
				toks++
			}
		}
	}
	return stmts, toks
}

// BenchmarkResolve builds the symbol tables of the generated 20,000-line
// fixed-form file again, unit by unit, on its parsed tree: the resolver
// alone (declarations, the uses in every expression, the checks).
func BenchmarkResolve(b *testing.B) {
	src := gen.Fixed(200)
	f := Parse("gen.f", src, nil)
	p := newFileParser(f)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		for _, u := range f.Units {
			p.errs = p.errs[:0]
			p.resolve(u)
		}
	}
	cpu.StopBytes(int64(len(src)))
}

// BenchmarkReparseOneChar changes one character inside one routine of the
// 20,000-line file and reparses (target: at most 1 ms).
func BenchmarkReparseOneChar(b *testing.B) {
	src := gen.Fixed(200)
	f := Parse("gen.f", src, nil)
	u := f.Units[100]
	off := u.Base + u.Len/2
	for src[off] < '0' || src[off] > '9' {
		off++
	}
	edits := [2][]byte{}
	edits[0], _ = applyEdit(src, off, off+1, "7")
	edits[1] = src
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next := edits[i%2]
		f = f.Reparse(next, Edit{Start: off, OldEnd: off + 1, NewEnd: off + 1})
	}
}

// BenchmarkMemoryPerByte reports the bytes of heap the tree of the
// 20,000-line file keeps alive, per byte of source.
func BenchmarkMemoryPerByte(b *testing.B) {
	src := gen.Fixed(200)
	var keep *File
	var before, after runtime.MemStats
	for i := 0; i < b.N; i++ {
		runtime.GC()
		runtime.ReadMemStats(&before)
		keep = Parse("gen.f", src, nil)
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(src)), "heap-bytes/src-byte")
	runtime.KeepAlive(keep)
}

// BenchmarkSemicolons reads one line of 100,000 ";"-separated statements
// in each form (fixed form without a column limit); the time per
// statement must not grow with the line.
func BenchmarkSemicolons(b *testing.B) {
	src := []byte("      program p\n      " + strings.Repeat("x=1;", 100000) + "\n      end\n")
	for _, c := range []struct {
		name string
		cfg  *Config
	}{{"t.f90", nil}, {"t.f", &Config{LineLength: -1}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				Parse(c.name, src, c.cfg)
			}
		})
	}
}
