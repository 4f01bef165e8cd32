package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pfls/pfls/web"
)

// fakeWasm stands for the WebAssembly module: bytes that compress.
var fakeWasm = bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00 pfls "), 4096)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fakePage is a built page as scripts/build-web.sh lays it out.
func fakePage(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"README.md":    {Data: []byte("placeholder")},
		"index.html":   {Data: []byte("<!doctype html><title>pfls</title>")},
		"app.js":       {Data: []byte("console.log(1)")},
		"style.css":    {Data: []byte("body{}")},
		"wasm_exec.js": {Data: []byte("// go")},
		"pfls.wasm.gz": {Data: gz(t, fakeWasm)},
	}
}

func TestWebNotBuilt(t *testing.T) {
	var out, errs bytes.Buffer
	code := runWebWith(context.Background(), nil, fstest.MapFS{"README.md": {Data: []byte("x")}}, &out, &errs)
	if code != 2 || !strings.Contains(errs.String(), "run scripts/build-web.sh, then go build ./cmd/pfls") {
		t.Errorf("an unbuilt page: exit %d, stderr %q", code, errs.String())
	}
	code = runWebWith(context.Background(), []string{"--export", filepath.Join(t.TempDir(), "out")}, fstest.MapFS{}, &out, &errs)
	if code != 2 {
		t.Errorf("--export of an unbuilt page: exit %d", code)
	}
}

// TestEmbeddedPage checks the page this binary carries: built, it has
// every file the page loads; not built, pfls web says how to build it.
func TestEmbeddedPage(t *testing.T) {
	built := true
	if _, err := fs.Stat(web.Assets(), "index.html"); err != nil {
		built = false
	}
	if !built {
		var out, errs bytes.Buffer
		if code := runWebWith(context.Background(), nil, web.Assets(), &out, &errs); code != 2 || !strings.Contains(errs.String(), "scripts/build-web.sh") {
			t.Errorf("pfls web without the page: exit %d, %q", code, errs.String())
		}
		return
	}
	p, err := newPage(web.Assets())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "app.js", "style.css", "wasm_exec.js", "pfls.wasm", "licenses.txt"} {
		if _, ok := p.names[name]; !ok {
			t.Errorf("the built page lacks %s", name)
		}
	}
	if _, ok := p.names[web.Placeholder]; ok {
		t.Errorf("the placeholder %s is served", web.Placeholder)
	}
	html, err := p.read("index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`src="wasm_exec.js"`, `src="app.js"`, `href="style.css"`} {
		if !bytes.Contains(html, []byte(src)) {
			t.Errorf("index.html does not load %s", src)
		}
	}
	wasm, err := p.read("pfls.wasm")
	if err != nil || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Errorf("pfls.wasm is not a WebAssembly module (%v)", err)
	}
}

func get(t *testing.T, c *http.Client, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestWebHandler(t *testing.T) {
	p, err := newPage(fakePage(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p) // 127.0.0.1
	defer srv.Close()
	// No transparent decompression: the test sees what the server sends.
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}

	for _, path := range []string{"/", "/?example=dgefa", "/index.html"} {
		resp, body := get(t, c, srv.URL+path)
		if resp.StatusCode != 200 || string(body) != "<!doctype html><title>pfls</title>" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %q %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	resp, body := get(t, c, srv.URL+"/app.js")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || string(body) != "console.log(1)" {
		t.Errorf("GET /app.js: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}

	// The module: compressed to a client that accepts gzip, else plain.
	resp, body = get(t, c, srv.URL+"/pfls.wasm", "Accept-Encoding", "gzip, deflate")
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, gz(t, fakeWasm)) {
		t.Errorf("GET /pfls.wasm (gzip): %q %q, %d bytes", resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), len(body))
	}
	for _, accept := range []string{"", "gzip;q=0", "br"} {
		resp, body = get(t, c, srv.URL+"/pfls.wasm", "Accept-Encoding", accept)
		if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, fakeWasm) {
			t.Errorf("GET /pfls.wasm (Accept-Encoding %q): %q, %d bytes", accept, resp.Header.Get("Content-Encoding"), len(body))
		}
	}

	// Only the page's files, under their served names.
	for _, path := range []string{"/README.md", "/pfls.wasm.gz", "/nosuch.js", "/../web.go", "/%2e%2e/web.go"} {
		if resp, _ := get(t, c, srv.URL+path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
	resp, err = c.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", resp.StatusCode)
	}
}

// syncBuffer is a buffer written by the server's goroutine and read by
// the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestWebServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errs syncBuffer
	done := make(chan int)
	go func() { done <- runWebWith(ctx, nil, fakePage(t), &out, &errs) }()
	var url string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && url == ""; time.Sleep(10 * time.Millisecond) {
		if _, rest, ok := strings.Cut(out.String(), "serving the playground at "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("pfls web printed %q, want a URL on 127.0.0.1 by default", out.String())
	}
	resp, body := get(t, http.DefaultClient, url+"?example=sub2")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>pfls</title>") {
		t.Errorf("GET %s: %d %q", url, resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("pfls web after a stop: exit %d, %s", code, errs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pfls web did not stop")
	}
}

func TestWebBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"extra"},
		{"--addr", "127.0.0.1:0", "--export", t.TempDir()},
		{"--addr", "256.0.0.1:0"},
		{"--bogus"},
	} {
		var out, errs bytes.Buffer
		if code := runWebWith(context.Background(), args, fakePage(t), &out, &errs); code != 2 || errs.Len() == 0 {
			t.Errorf("pfls web %q: exit %d, stderr %q", args, code, errs.String())
		}
	}
}

func TestWebExport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	var out, errs bytes.Buffer
	if code := runWebWith(context.Background(), []string{"--export", dir}, fakePage(t), &out, &errs); code != 0 {
		t.Fatalf("export: exit %d, %s", code, errs.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "app.js index.html pfls.wasm style.css wasm_exec.js" {
		t.Errorf("exported %s", got)
	}
	if wasm, _ := os.ReadFile(filepath.Join(dir, "pfls.wasm")); !bytes.Equal(wasm, fakeWasm) {
		t.Errorf("exported pfls.wasm is not the decompressed module (%d bytes)", len(wasm))
	}
	// Again into the same folder: it holds the page's files only.
	if code := runWebWith(context.Background(), []string{"--export", dir}, fakePage(t), &out, &errs); code != 0 {
		t.Errorf("export over an earlier export: exit %d, %s", code, errs.String())
	}
	// Never over someone else's files.
	other := t.TempDir()
	mine := filepath.Join(other, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	errs.Reset()
	if code := runWebWith(context.Background(), []string{"--export", other}, fakePage(t), &out, &errs); code != 2 || !strings.Contains(errs.String(), "notes.txt") {
		t.Errorf("export into a folder with other files: exit %d, %q", code, errs.String())
	}
	if _, err := os.Stat(filepath.Join(other, "index.html")); err == nil {
		t.Error("export wrote into a folder with other files")
	}
	// Nor over someone else's index.html, though the name is the page's.
	site := t.TempDir()
	theirs := filepath.Join(site, "index.html")
	if err := os.WriteFile(theirs, []byte("<html><title>My lab</title></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	errs.Reset()
	if code := runWebWith(context.Background(), []string{"--export", site}, fakePage(t), &out, &errs); code != 2 || !strings.Contains(errs.String(), "not an earlier export") {
		t.Errorf("export over another site's index.html: exit %d, %q", code, errs.String())
	}
	if b, _ := os.ReadFile(theirs); string(b) != "<html><title>My lab</title></html>" {
		t.Errorf("export wrote over another site's index.html: %q", b)
	}
	// Nor through a link named as a page file (it would write where the
	// link points).
	linked := t.TempDir()
	target := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(target, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(linked, "app.js")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	errs.Reset()
	if code := runWebWith(context.Background(), []string{"--export", linked}, fakePage(t), &out, &errs); code != 2 || !strings.Contains(errs.String(), "not a regular file") {
		t.Errorf("export into a folder with a link: exit %d, %q", code, errs.String())
	}
	if b, _ := os.ReadFile(target); string(b) != "precious" {
		t.Errorf("export wrote through a link: %q", b)
	}
}

func TestWebHelp(t *testing.T) {
	var a, b, errs bytes.Buffer
	if code := run([]string{"help", "web"}, &a, &errs); code != 0 {
		t.Fatalf("pfls help web: exit %d, %s", code, errs.String())
	}
	if code := run([]string{"web", "--help"}, &b, &errs); code != 0 || a.String() != b.String() {
		t.Errorf("pfls web --help: exit %d\n%s\nvs\n%s", code, b.String(), a.String())
	}
	for _, want := range []string{"usage: pfls web [flags]", "  --addr HOST:PORT\n", "(default: 127.0.0.1:0)", "  --export DIR\n", "(default: none)"} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("pfls help web lacks %q:\n%s", want, a.String())
		}
	}
	if !strings.Contains(usage, "web [--addr HOST:PORT] [--export DIR]") {
		t.Error("the usage text does not list pfls web")
	}
}
