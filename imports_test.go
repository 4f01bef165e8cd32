package pfls_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// allowed lists, for each folder, the folders of this module it may
// import (DESIGN.md §2). A folder missing here may not exist.
var allowed = map[string][]string{
	"cmd/pfls":          {"lsp", "hints", "parser", "complexity", "machine", "machine/train", "partition", "capability", "internal/svgplot", "internal/mpirun", "internal/kit", "internal/platform", "web", "profile"},
	"lsp":               {"hints", "parser"},
	"parser":            {},
	"complexity":        {"parser"},
	"machine":           {},
	"machine/train":     {"machine"},
	"partition":         {"parser", "complexity", "machine"},
	"capability":        {"parser", "complexity", "partition", "machine"},
	"hints":             {"parser", "complexity", "machine", "partition", "capability"},
	"internal/svgplot":  {},
	"internal/mpirun":   {},
	"internal/platform": {},
	"internal/kit":      {"parser", "complexity", "machine", "partition", "internal/mpirun", "internal/svgplot"},
	".":                 {"parser", "complexity", "hints"}, // typing_test.go runs the whole pipeline
	"internal/gen":      {},
	"web":               {},                                                              // the playground page's files, embedded
	"web/play":          {"hints", "parser", "machine", "partition", "internal/svgplot"}, // the page's analyses
	"web/wasm":          {"web/play"},                                                    // their WebAssembly entry
	"profile":           {"parser", "internal/mpirun"},
}

// testOnly lists, for some folders, what their _test.go files may import
// beyond their rules: svgplot's golden plot draws a machine model's
// curves.
var testOnly = map[string][]string{
	"internal/svgplot": {"machine"},
}

// testSupport lists the folders of this module that hold test support
// only: any folder's _test.go files may import them, no product code may.
var testSupport = []string{"internal/gen"}

// thirdParty lists the modules outside the standard library a folder may
// use: only lsp speaks the protocol.
var thirdParty = map[string][]string{
	"lsp": {"go.lsp.dev/"},
}

const module = "github.com/pfls/pfls"

// TestImportRules enforces the one-way data flow of DESIGN.md §2: the
// parser uses the standard library only, analyses never import the
// protocol, and no package imports upward.
func TestImportRules(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.Walk(".", func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() && (strings.HasPrefix(info.Name(), ".") && path != "." || info.Name() == "testdata" || info.Name() == "node_modules" || path == "editors") {
			return filepath.SkipDir
		}
		if info.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		rules, ok := allowed[dir]
		if !ok {
			t.Errorf("%s: folder %s is not in DESIGN.md §2's table (add it to imports_test.go with its rules)", path, dir)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			switch {
			case strings.HasPrefix(p, module+"/"):
				target := strings.TrimPrefix(p, module+"/")
				if strings.HasSuffix(path, "_test.go") && (contains(testSupport, target) || contains(testOnly[dir], target)) {
					continue
				}
				if !contains(rules, target) {
					t.Errorf("%s imports %s; %s may import only %v", path, p, dir, rules)
				}
			case strings.Contains(strings.SplitN(p, "/", 2)[0], "."):
				okThird := false
				for _, prefix := range thirdParty[dir] {
					if strings.HasPrefix(p, prefix) {
						okThird = true
					}
				}
				if !okThird {
					t.Errorf("%s imports %s; only %v may be used there", path, p, thirdParty[dir])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 5 {
		t.Fatalf("checked only %d files", checked)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
