package lsp

//go:generate go run ../editors/vscode/gen -file ../editors/vscode/package.json

import (
	"fmt"
	"reflect"
	"strings"
)

// settingDoc is what the Settings struct cannot say about one setting:
// its description for editors and the bounds of its value.
type settingDoc struct {
	description string
	minimum     int // for integers; 0: no bound
}

// settingDocs describes every pfls.* setting, keyed by its JSON path
// under "pfls". Names, types and defaults come from Settings and
// DefaultSettings; SettingsSchema panics when this table and the struct
// disagree, so a new field cannot ship without a description.
var settingDocs = map[string]settingDoc{
	"inlayHints.enable":    {description: "Show the complexity of loops and routines as inlay hints."},
	"inlayHints.loops":     {description: "Show each DO loop's cost polynomial at the end of its first line."},
	"inlayHints.units":     {description: "Show each routine's SUMMARY cost at the end of its header line."},
	"inlayHints.maxLength": {description: "Cut hint labels longer than this many characters; the hover tooltip keeps the whole polynomial.", minimum: 1},
	"estimate.procs":       {description: "Number of processors that \"Estimate this loop\" and the candidate distributions assume.", minimum: 1},
	"estimate.machine":     {description: "Machine model file (JSON, documented in docs/formats.md) for estimates; empty: the model inside pfls."},
	"estimate.values":      {description: "Values of symbols and PARAMETERs for estimates, for example {\"N\": 1024}."},
	"profile":              {description: "A profile.json written by `pfls profile`, shown in inlay hints and hovers beside the estimates; empty: the newest .pfls/*/profile.json next to the file or in the workspace."},
	"format.indent":        {description: "Spaces per construct level when formatting free-form source; 0 uses the editor's tab size. 3 is the default of fprettify and findent."},
	"format.keywordCase":   {description: "Case of construct and program-unit keywords when formatting: \"keep\" (as written), \"upper\" or \"lower\"."},
	"complexity.pips":      {description: "Keep the 1992 PIPS report's convention (loop ranges assumed non-empty) instead of exact, piecewise counts."},
}

// SettingsSchema returns the pfls.* settings in the shape of VS Code's
// contributes.configuration.properties: full key ("pfls.inlayHints.enable")
// to an object with type, default and description, built by reflection
// from Settings with the defaults of DefaultSettings. It is the one source
// of truth of editors/vscode/package.json.
func SettingsSchema() map[string]any {
	out := map[string]any{}
	seen := map[string]bool{}
	schemaOf(reflect.ValueOf(DefaultSettings()), "", out, seen)
	for k := range settingDocs {
		if !seen[k] {
			panic(fmt.Sprintf("lsp: settingDocs has %q, which Settings lacks", k))
		}
	}
	return out
}

// schemaOf adds the leaves of the struct value v, whose JSON path is
// prefix, to out.
func schemaOf(v reflect.Value, prefix string, out map[string]any, seen map[string]bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		path := prefix + name
		fv := v.Field(i)
		if f.Type.Kind() == reflect.Struct {
			schemaOf(fv, path+".", out, seen)
			continue
		}
		doc, ok := settingDocs[path]
		if !ok {
			panic(fmt.Sprintf("lsp: setting %q has no entry in settingDocs", path))
		}
		seen[path] = true
		p := map[string]any{"description": doc.description}
		switch f.Type.Kind() {
		case reflect.Bool:
			p["type"], p["default"] = "boolean", fv.Bool()
		case reflect.Int:
			p["type"], p["default"] = "integer", int(fv.Int())
			if doc.minimum != 0 {
				p["minimum"] = doc.minimum
			}
		case reflect.String:
			p["type"], p["default"] = "string", fv.String()
		case reflect.Map:
			if f.Type.Key().Kind() != reflect.String || f.Type.Elem().Kind() != reflect.Float64 {
				panic(fmt.Sprintf("lsp: setting %q: unsupported map type %s", path, f.Type))
			}
			def := map[string]any{}
			for _, k := range fv.MapKeys() {
				def[k.String()] = fv.MapIndex(k).Float()
			}
			p["type"], p["default"] = "object", def
			p["additionalProperties"] = map[string]any{"type": "number"}
		default:
			panic(fmt.Sprintf("lsp: setting %q: unsupported type %s", path, f.Type))
		}
		out["pfls."+path] = p
	}
}
