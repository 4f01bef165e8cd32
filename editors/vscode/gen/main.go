// Command gen writes the configuration section of the VS Code extension's
// package.json from the language server's settings (lsp.SettingsSchema),
// the one source of truth, and leaves every other key as it is.
//
//	go run ./editors/vscode/gen          # rewrite editors/vscode/package.json
//	go run ./editors/vscode/gen -check   # exit 1 when it is out of date
//	go run ./editors/vscode/gen -print   # print the configuration section
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/pfls/pfls/lsp"
)

// clientSettings are the settings that the extension reads itself and
// the server never sees used.
var clientSettings = map[string]any{
	"pfls.path": map[string]any{
		"type":        "string",
		"default":     "",
		"description": "Path of the pfls binary; empty: pfls found on PATH.",
		"scope":       "machine-overridable",
	},
	"pfls.trace.server": map[string]any{
		"type":        "string",
		"enum":        []string{"off", "messages", "verbose"},
		"default":     "off",
		"description": "Log the messages between VS Code and pfls in the output channel \"pfls\".",
	},
}

// Configuration returns the value of contributes.configuration: the
// server's settings (id "pfls") and the extension's own (id "pfls-client").
func Configuration() []any {
	return []any{
		map[string]any{"id": "pfls", "title": "pfls", "properties": lsp.SettingsSchema()},
		map[string]any{"id": "pfls-client", "title": "pfls: editor client", "properties": clientSettings},
	}
}

func main() {
	file := flag.String("file", "editors/vscode/package.json", "the package.json to update")
	check := flag.Bool("check", false, "only check that the file is up to date")
	printOnly := flag.Bool("print", false, "print contributes.configuration as JSON and exit")
	flag.Parse()
	if *printOnly {
		b, err := marshal(Configuration())
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(2)
		}
		fmt.Println(string(b))
		return
	}
	old, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	updated, err := Update(old)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gen: %s: %v\n", *file, err)
		os.Exit(2)
	}
	if bytes.Equal(old, updated) {
		return
	}
	if *check {
		fmt.Fprintf(os.Stderr, "gen: %s is out of date: run go run ./editors/vscode/gen\n", *file)
		os.Exit(1)
	}
	if err := os.WriteFile(*file, updated, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

// member is one key of a JSON object, in file order.
type member struct {
	key   string
	value json.RawMessage
}

// Update returns the package.json text pkg with contributes.configuration
// replaced by Configuration, keys kept in their order, indented by two
// spaces.
func Update(pkg []byte) ([]byte, error) {
	top, err := members(pkg)
	if err != nil {
		return nil, err
	}
	conf, err := marshal(Configuration())
	if err != nil {
		return nil, err
	}
	found := false
	for i, m := range top {
		if m.key != "contributes" {
			continue
		}
		contrib, err := members(m.value)
		if err != nil {
			return nil, fmt.Errorf("contributes: %v", err)
		}
		contrib = set(contrib, "configuration", conf)
		top[i].value = join(contrib)
		found = true
	}
	if !found {
		top = append(top, member{"contributes", join([]member{{"configuration", conf}})})
	}
	var out bytes.Buffer
	if err := json.Indent(&out, join(top), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func set(ms []member, key string, value json.RawMessage) []member {
	for i := range ms {
		if ms[i].key == key {
			ms[i].value = value
			return ms
		}
	}
	return append(ms, member{key, value})
}

// members splits a JSON object into its keys and raw values.
func members(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var ms []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{t.(string), v})
	}
	return ms, nil
}

func join(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// marshal is json.Marshal without HTML escapes.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
