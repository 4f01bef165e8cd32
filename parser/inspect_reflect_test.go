package parser

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// inspectExtra holds statements the parser testdata lacks, so that every
// node type has an instance.
const inspectExtra = `      SUBROUTINE EXTRA(X, *)
      COMPLEX C
      REAL X(10)[*]
      ASSIGN 10 TO L
      ENTRY SIDE(X)
      C = (1.0, 2.0)
      X(1)[2] = 1.0
      CALL SUB(*10)
      IF (X(1)) 10, 10, 10
   10 CONTINUE
      END
`

const inspectExtraFree = `module m
  interface gen
    module procedure a, b
  end interface gen
  procedure(real), pointer :: p => null()
contains
  subroutine a()
    outer: do i = 1, 2
      exit outer
    end do outer
    x = = 1
    foo bar baz
  end subroutine a
end module m
`

// nodeTypeNames lists the AST node types declared in the package: the
// types with a Pos method of their own, and those embedding StmtBase.
func nodeTypeNames(t *testing.T) []string {
	fset := gotoken.NewFileSet()
	names := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || d.Name.Name != "Pos" {
					continue
				}
				if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
					if id, ok := star.X.(*ast.Ident); ok {
						names[id.Name] = true
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fl := range st.Fields.List {
						if id, ok := fl.Type.(*ast.Ident); ok && len(fl.Names) == 0 && id.Name == "StmtBase" {
							names[ts.Name.Name] = true
						}
					}
				}
			}
		}
	}
	delete(names, "StmtBase") // embedded in statements, never a node of its own
	var out []string
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

var nodeType = reflect.TypeOf((*Node)(nil)).Elem()

// childNodes returns the nodes that n's fields hold, directly or through
// values that are not nodes (entities, dimension specs, arms, directive
// bodies, ...), each with the path of fields that leads to it.
func childNodes(n Node) map[Node]string {
	out := map[Node]string{}
	var walk func(v reflect.Value, path string, top bool)
	walk = func(v reflect.Value, path string, top bool) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path, false)
			}
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			if !top && v.Type().Implements(nodeType) {
				out[v.Interface().(Node)] = path
				return
			}
			walk(v.Elem(), path, false)
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), path+"[]", false)
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name, false)
			}
		}
	}
	walk(reflect.ValueOf(n), reflect.TypeOf(n).Elem().Name(), true)
	return out
}

// allNodes returns every node of the units, found through reflection
// (not through Inspect).
func allNodes(units []*Unit) []Node {
	var out []Node
	seen := map[Node]bool{}
	var add func(n Node)
	add = func(n Node) {
		if n == nil || reflect.ValueOf(n).IsNil() || seen[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
		for c := range childNodes(n) {
			add(c)
		}
	}
	var unit func(u *Unit)
	unit = func(u *Unit) {
		if u.Header != nil {
			add(u.Header)
		}
		for _, s := range u.Body {
			add(s)
		}
		if u.EndStmt != nil {
			add(u.EndStmt)
		}
		for _, c := range u.Contains {
			unit(c)
		}
	}
	for _, u := range units {
		unit(u)
	}
	return out
}

// TestInspectReachesEveryChild: for every node of every node type found
// in the parser's test files, Inspect visits every node that the node's
// fields hold, except construct names.
func TestInspectReachesEveryChild(t *testing.T) {
	sources := map[string][]byte{"extra.f": []byte(inspectExtra), "extra.f90": []byte(inspectExtraFree)}
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, name := range files {
		switch filepath.Ext(name) {
		case ".f", ".f90", ".F":
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			sources[filepath.Base(name)] = b
		}
	}
	found := map[string]int{}
	missed := map[string]bool{}
	for name, src := range sources {
		f := Parse(name, src, nil)
		for _, n := range allNodes(f.Units) {
			found[reflect.TypeOf(n).Elem().Name()]++
			visited := map[Node]bool{}
			Inspect(n, func(c Node) bool {
				visited[c] = true
				return true
			})
			for c, path := range childNodes(n) {
				if strings.HasSuffix(path, ".StmtBase.Construct") {
					// Construct names (OUTER: DO) are not visited: the
					// resolver's refs would take them for variables.
					continue
				}
				if !visited[c] && !missed[path] {
					missed[path] = true
					t.Errorf("%s: Inspect does not visit %s (a %T)", name, path, c)
				}
			}
		}
	}
	// The parser makes no BadExpr today; check a hand-built one.
	for _, n := range []Node{&BadExpr{From: 0, To: 1}} {
		found[reflect.TypeOf(n).Elem().Name()]++
		if len(childNodes(n)) != 0 {
			t.Errorf("%T has children: extend this test", n)
		}
	}
	for _, typ := range nodeTypeNames(t) {
		if found[typ] == 0 {
			t.Errorf("no instance of %s in the test sources: add one to inspectExtra", typ)
		}
	}
}
