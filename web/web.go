// Package web holds the playground page of `pfls web`: the files that
// scripts/build-web.sh builds into web/dist (the page, its script bundle
// with the CodeMirror editor, Go's wasm_exec.js and the analyses compiled
// to WebAssembly, stored gzip-compressed as pfls.wasm.gz), embedded in the
// binary. The sources are in web/src (the page), web/wasm (the
// WebAssembly entry) and web/play (the analyses' side of the page).
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// Placeholder is the committed file of web/dist that keeps the embed
// compiling before the page is built; it is not part of the page.
const Placeholder = "README.md"

// Assets are the built page's files, rooted at the page's folder; without
// a build they hold the placeholder only.
func Assets() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a valid name
	}
	return sub
}
