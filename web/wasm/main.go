//go:build js && wasm

// Command wasm is the playground's analyses compiled to WebAssembly
// (GOOS=js GOARCH=wasm; scripts/build-web.sh builds it into web/dist).
// It sets globalThis.pfls to an object whose functions take plain values
// and return JSON text (the types of web/play):
//
//	analyse(name, text, procs)  the hints and the syntax and declaration diagnostics
//	capabilities()              the capability diagnostics of that text, with quick fixes
//	hover(line, col)            the hover at a position, or null
//	actions(fromLine, toLine)   {actions, error}: the code actions on those lines
//	estimate(line)              {text, svg, error}: "Estimate this loop" on a 1-based line
//
// Lines are 0-based (estimate's is 1-based, as the command's argument) and
// columns count UTF-16 code units. Then it calls globalThis.pflsReady, if
// the page defined it, and keeps running.
package main

import (
	"encoding/json"
	"runtime/debug"
	"syscall/js"

	"github.com/pfls/pfls/web/play"
)

func main() {
	// The browser gives the module memory to spare, and the analyses
	// allocate many small numbers: collect less often than Go's default.
	debug.SetGCPercent(400)
	s := play.NewSession()
	api := js.Global().Get("Object").New()
	api.Set("analyse", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 3 {
			return jsonText(map[string]string{"error": "analyse(name, text, procs)"})
		}
		return jsonText(s.Analyse(args[0].String(), args[1].String(), args[2].Int()))
	}))
	api.Set("capabilities", js.FuncOf(func(this js.Value, args []js.Value) any {
		return jsonText(s.Capabilities())
	}))
	api.Set("hover", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 2 {
			return "null"
		}
		h, err := s.HoverAt(play.Pos{Line: args[0].Int(), Col: args[1].Int()})
		if err != nil {
			return jsonText(play.Hover{Markdown: err.Error()})
		}
		return jsonText(h)
	}))
	api.Set("actions", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 2 {
			return jsonText(map[string]string{"error": "actions(fromLine, toLine)"})
		}
		acts, err := s.Actions(args[0].Int(), args[1].Int())
		return jsonText(struct {
			Actions []play.Action `json:"actions"`
			Error   string        `json:"error,omitempty"`
		}{acts, errText(err)})
	}))
	api.Set("estimate", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 1 {
			return jsonText(map[string]string{"error": "estimate(line)"})
		}
		est, err := s.EstimateLoop(args[0].Int())
		return jsonText(struct {
			play.Estimate
			Error string `json:"error,omitempty"`
		}{est, errText(err)})
	}))
	js.Global().Set("pfls", api)
	if ready := js.Global().Get("pflsReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// jsonText is v as JSON text; the types are plain data, so encoding does
// not fail.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return string(b)
}
