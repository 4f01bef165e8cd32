package pfls_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFormatsDocumented checks docs/formats.md against the readers of the
// three file formats, read as Go source: every JSON key of the machine
// model and the capability profile, every operation name the estimator
// asks a model for, and every section and row name of a cost table.
func TestFormatsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "formats.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := func(name string) bool {
		return strings.Contains(string(doc), "`"+name+"`") || strings.Contains(string(doc), "["+name+"]")
	}
	check := func(what string, names []string) {
		if len(names) == 0 {
			t.Errorf("%s: nothing found in the source", what)
		}
		for _, n := range names {
			if !documented(n) {
				t.Errorf("docs/formats.md does not document %s %q", what, n)
			}
		}
	}
	check("machine model key", jsonTags(t, filepath.Join("machine", "machine.go"), "Machine", "Provenance", "MemoryLevel", "Segment"))
	check("shared-memory key", jsonTags(t, filepath.Join("machine", "shared.go"), "SharedMemory", "Overhead"))
	check("capability profile key", jsonTags(t, filepath.Join("capability", "capability.go"), "Profile"))
	check("cost table name", caseStrings(t, filepath.Join("complexity", "costtable.go"), "ParseCostTable"))
	var ops []string
	files, _ := filepath.Glob(filepath.Join("partition", "*.go"))
	opCall := regexp.MustCompile(`\.Op\("([a-z.]+)"\)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range opCall.FindAllStringSubmatch(string(src), -1) {
			ops = append(ops, m[1])
		}
	}
	check("machine model operation", ops)
}

// jsonTags returns the JSON keys of the named struct types of a Go file.
func jsonTags(t *testing.T, path string, types ...string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, n := range types {
		want[n] = true
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || !want[ts.Name.Name] {
			return true
		}
		delete(want, ts.Name.Name)
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return false
		}
		for _, fld := range st.Fields.List {
			if fld.Tag == nil {
				continue
			}
			tag, _ := strconv.Unquote(fld.Tag.Value)
			if m := regexp.MustCompile(`json:"([^,"]+)`).FindStringSubmatch(tag); m != nil && m[1] != "-" {
				out = append(out, m[1])
			}
		}
		return false
	})
	for n := range want {
		t.Errorf("%s: no struct %s", path, n)
	}
	return out
}

// caseStrings returns the string constants of the case clauses of a
// function whose cases list strings only.
func caseStrings(t *testing.T, path, fn string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn {
			continue
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok || len(cc.List) == 0 {
				return true
			}
			var lits []string
			for _, e := range cc.List {
				bl, ok := e.(*ast.BasicLit)
				if !ok || bl.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(bl.Value)
				lits = append(lits, s)
			}
			out = append(out, lits...)
			return true
		})
	}
	return out
}
