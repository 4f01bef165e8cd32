package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pfls/pfls/web"
)

// buildWebCommand is how to build the playground page into the binary.
const buildWebCommand = "scripts/build-web.sh, then go build ./cmd/pfls"

// maxPageFile bounds a file of the page once decompressed (the wasm file
// is the largest, about 8 MB).
const maxPageFile = 64 << 20

// runWeb implements `pfls web`: it serves the playground page embedded in
// the binary, or writes it to a folder with --export.
func runWeb(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runWebWith(ctx, args, web.Assets(), stdout, stderr)
}

// runWebWith is runWeb with the page's files and the context that stops
// the server given.
func runWebWith(ctx context.Context, args []string, assets fs.FS, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("web", flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:0", "serve the page on `HOST:PORT` (port 0: any free port)")
	export := flags.String("export", "", "write the page's files to the folder `DIR` (for hosting anywhere) instead of serving it")
	if code, done := parseFlags(flags, args, stdout, stderr); done {
		return code
	}
	if flags.NArg() != 0 {
		fmt.Fprintf(stderr, "pfls web: unexpected argument %q (usage: pfls web [--addr HOST:PORT] [--export DIR])\n", flags.Arg(0))
		return 2
	}
	addrSet := false
	flags.Visit(func(f *flag.Flag) { addrSet = addrSet || f.Name == "addr" })
	if *export != "" && addrSet {
		fmt.Fprintln(stderr, "pfls web: --export writes the page and serves nothing; give --addr or --export, not both")
		return 2
	}
	page, err := newPage(assets)
	if err != nil {
		fmt.Fprintf(stderr, "pfls web: %v\n", err)
		return 2
	}
	if *export != "" {
		if err := page.export(*export); err != nil {
			fmt.Fprintf(stderr, "pfls web: --export: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "wrote the playground to %s (%d files); serve that folder with any static web server\n", *export, len(page.names))
		return 0
	}
	return serveWeb(ctx, *addr, page, stdout, stderr)
}

// serveWeb serves the page on addr until ctx is done.
func serveWeb(ctx context.Context, addr string, page *webPage, stdout, stderr io.Writer) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "pfls web: --addr %s: %v\n", addr, err)
		return 2
	}
	srv := &http.Server{Handler: page, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "pfls web: serving the playground at http://%s/ (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "pfls web: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	return 0
}

// webPage is the playground's files. A file stored as NAME.gz is served as
// NAME: compressed to clients that accept gzip, else decompressed.
type webPage struct {
	assets fs.FS
	names  map[string]string // name served → name stored
}

// newPage lists the page's files, refusing a page that was not built.
func newPage(assets fs.FS) (*webPage, error) {
	p := &webPage{assets: assets, names: map[string]string{}}
	err := fs.WalkDir(assets, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == web.Placeholder {
			return err
		}
		p.names[strings.TrimSuffix(name, ".gz")] = name
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, need := range []string{"index.html", "pfls.wasm", "wasm_exec.js"} {
		if _, ok := p.names[need]; !ok {
			return nil, fmt.Errorf("this pfls was built without the playground page (%s is missing): run %s", need, buildWebCommand)
		}
	}
	return p, nil
}

// contentType is the media type of a page file by its extension.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".wasm":
		return "application/wasm"
	case ".js":
		return "text/javascript; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// ServeHTTP serves the page's files: GET and HEAD only, "/" is index.html,
// the query (?example=NAME) is the page's own business.
func (p *webPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	stored, ok := p.names[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	compressed := stored != name
	if compressed {
		h.Set("Vary", "Accept-Encoding")
	}
	if compressed && acceptsGzip(r) {
		data, err := fs.ReadFile(p.assets, stored)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		h.Set("Content-Encoding", "gzip")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
		return
	}
	data, err := p.read(name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}

// acceptsGzip reports whether the request's Accept-Encoding lists gzip
// without q=0.
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if !strings.EqualFold(strings.TrimSpace(enc), "gzip") {
				continue
			}
			q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
			if !ok {
				return true
			}
			v, err := strconv.ParseFloat(q, 64)
			return err == nil && v > 0
		}
	}
	return false
}

// read returns a page file's content, decompressed.
func (p *webPage) read(name string) ([]byte, error) {
	stored := p.names[name]
	data, err := fs.ReadFile(p.assets, stored)
	if err != nil || stored == name {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", stored, err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxPageFile+1))
	if err == nil && len(out) > maxPageFile {
		err = fmt.Errorf("larger than %d bytes", maxPageFile)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", stored, err)
	}
	return out, nil
}

// export writes the page's files, decompressed, into dir, creating it. It
// refuses a folder that holds anything but an earlier export, so that it
// never writes over someone else's index.html: an earlier export is
// regular files (no links, no folders) named as the page's files, among
// them an index.html with the playground's title.
func (p *webPage) export(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case len(entries) > 0:
		refuse := func(why string) error {
			return fmt.Errorf("%s %s; give an empty or new folder", dir, why)
		}
		index := false
		for _, e := range entries {
			if _, ours := p.names[e.Name()]; !ours {
				return refuse(fmt.Sprintf("holds %s, which is not a file of the page", e.Name()))
			}
			if !e.Type().IsRegular() {
				return refuse(fmt.Sprintf("holds %s, which is not a regular file", e.Name()))
			}
			index = index || e.Name() == "index.html"
		}
		ourIndex, err := p.read("index.html")
		if err != nil {
			return err
		}
		theirs, err := readPrefix(filepath.Join(dir, "index.html"), 1<<20)
		if !index || err != nil || pageTitle(theirs) == "" || pageTitle(theirs) != pageTitle(ourIndex) {
			return refuse("is not an earlier export of the playground (its index.html is not the page's)")
		}
	}
	names := make([]string, 0, len(p.names))
	for n := range p.names {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := p.read(n)
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readPrefix reads at most n bytes of a file.
func readPrefix(name string, n int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// pageTitle is the text of an HTML page's <title> element ("" if none).
func pageTitle(html []byte) string {
	_, rest, ok := bytes.Cut(html, []byte("<title>"))
	if !ok {
		return ""
	}
	title, _, ok := bytes.Cut(rest, []byte("</title>"))
	if !ok {
		return ""
	}
	return string(bytes.TrimSpace(title))
}
