package lsp

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// roundTrip gives v as encoding/json reads it back (numbers as float64).
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSettingsSchemaPackageJSON fails when the VS Code extension's
// settings drift from the server's: regenerate them with
// `go run ./editors/vscode/gen`.
func TestSettingsSchemaPackageJSON(t *testing.T) {
	b, err := os.ReadFile("../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration []struct {
				ID         string         `json:"id"`
				Properties map[string]any `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatalf("package.json: %v", err)
	}
	want := roundTrip(t, SettingsSchema()).(map[string]any)
	found := false
	for _, c := range pkg.Contributes.Configuration {
		if c.ID == "pfls" {
			found = true
			if !reflect.DeepEqual(c.Properties, want) {
				got, _ := json.MarshalIndent(c.Properties, "", "  ")
				exp, _ := json.MarshalIndent(want, "", "  ")
				t.Errorf("package.json's pfls settings differ from SettingsSchema (run go run ./editors/vscode/gen):\ngot %s\nwant %s", got, exp)
			}
			continue
		}
		for k := range c.Properties {
			if _, dup := want[k]; dup {
				t.Errorf("configuration %q repeats the server setting %s", c.ID, k)
			}
		}
	}
	if !found {
		t.Errorf("package.json has no configuration with id \"pfls\"")
	}
}

// nest turns {"pfls.a.b": v} into {"a": {"b": v}}, as an editor sends the
// pfls section.
func nest(flat map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range flat {
		parts := strings.Split(strings.TrimPrefix(k, "pfls."), ".")
		m := out
		for _, p := range parts[:len(parts)-1] {
			if m[p] == nil {
				m[p] = map[string]any{}
			}
			m = m[p].(map[string]any)
		}
		m[parts[len(parts)-1]] = v
	}
	return out
}

// TestSettingsSchemaReadBack checks that the schema's keys are the ones
// the server reads: the schema's defaults sent back give DefaultSettings,
// and a changed value under any key changes the settings.
func TestSettingsSchemaReadBack(t *testing.T) {
	schema := SettingsSchema()
	if len(schema) != 11 {
		t.Errorf("schema has %d settings, want 11: %v", len(schema), schema)
	}
	defaults := map[string]any{}
	for k, v := range schema {
		p := v.(map[string]any)
		if d, _ := p["description"].(string); len(d) < 20 {
			t.Errorf("%s: description %q", k, d)
		}
		defaults[k] = p["default"]
	}
	raw, _ := json.Marshal(nest(defaults))
	base := DefaultSettings()
	base.InlayHints.MaxLength = 7 // so that a missing maxLength shows
	got := parseSettings(raw, base)
	want := DefaultSettings()
	if want.Estimate.Values == nil {
		want.Estimate.Values = map[string]float64{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schema defaults read back as %+v, want %+v", got, want)
	}
	for k, v := range schema {
		p := v.(map[string]any)
		var changed any
		switch p["type"] {
		case "boolean":
			changed = !p["default"].(bool)
		case "integer":
			changed = p["default"].(int) + 3
		case "string":
			changed = "other.json"
		case "object":
			changed = map[string]any{"N": 2.0}
		default:
			t.Fatalf("%s: type %v", k, p["type"])
		}
		one := map[string]any{}
		for k2, d := range defaults {
			one[k2] = d
		}
		one[k] = changed
		raw, _ := json.Marshal(nest(one))
		if st := parseSettings(raw, DefaultSettings()); reflect.DeepEqual(st, want) {
			t.Errorf("%s = %v leaves the settings unchanged: the key is not read", k, changed)
		}
	}
}

// TestSettingsSchemaDocumented checks that the VS Code page documents
// every setting.
func TestSettingsSchemaDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/editors/vscode.md")
	if err != nil {
		t.Fatal(err)
	}
	for k := range SettingsSchema() {
		if !strings.Contains(string(b), "`"+k+"`") {
			t.Errorf("docs/editors/vscode.md does not document %s", k)
		}
	}
}
