package lsp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// textParamCases are didOpen and didChange parameters, well formed and
// not, that the fast decoding must read exactly as encoding/json does.
var textParamCases = []string{
	`{"textDocument":{"uri":"file:///a.f","languageId":"fortran","version":3,"text":"      x = 1\n      end\n"}}`,
	` { "textDocument" : { "text" : "a\"b\\c\/d\b\f\n\r\t" , "uri" : "u" } } `,
	`{"textDocument":{"text":"é ü 𝄞 \u00e9 \ud834\udd1e \ud800 x"}}`,
	`{"textDocument":{"text":"bad \x utf8 \xff\xfe"}}`,
	"{\"textDocument\":{\"text\":\"control \x01 char\"}}",
	`{"textDocument":{"text":"unterminated}}`,
	`{"textDocument":{"text":"a","text":"b"}}`,
	`{"textDocument":{"Text":"a","text":"b"}}`,
	`{"textDocument":{"te\u0078t":"a","text":"b"}}`,
	`{"textDocument":{"text":"a"},"TextDocument":{"text":"b"}}`,
	`{"textDocument":{"text":"a"},"textDocument":{"text":"b"}}`,
	`{"textDocument":{"text":5}}`,
	`{"textDocument":{"text":"a"} "x":1}`,
	`{"textDocument":{"text":"a"}}trailing`,
	`{"textDocument":{"text":"a"}} `,
	`{"textDocument":null}`,
	`{"textDocument":{"text":"a","version":"x"}}`,
	`{"textDocument":{"text":"a","version":1e99}}`,
	`{"textDocument":{"text":"a","version":tru}}`,
	`{"textDocument":{"text":"a","uri":"\u0066ile"}}`,
	`{"textDocument":{"text":"a","x":[1,{"text":"zz"},[[]]]}}`,
	`{"textDocument":{"text":"a"`,
	`[]`,
	`"text"`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"whole\nfile"}]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"x\ty"},{"text":"z"}]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"range":null},{"text":"z"}]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"a","text":"b"}]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":null}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"a"},]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"\u0041"}]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":{"text":"a"}}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[[{"text":"a"}]]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"a"}],"contentchanges":[]}`,
	strings.Repeat("[", 100) + strings.Repeat("]", 100),
	`{"textDocument":{"text":"` + strings.Repeat("      x = 'é'\n", 1000) + `"}}`,
	`{"textDocument":{"text":"     \u0026 A \u003c B \u003e C \u2028 \uD834\uDD1E \udd1e\ud834 \ud834\u0041 \ud834\\u0041 \ud834"}}`,
	`{"textDocument":{"text":"\u12"}}`,
	`{"textDocument":{"text":"\u12G4"}}`,
	`{"textDocument":{"text":"\ud834\u12"}}`,
	`{"textDocument":{"text":"é\u00e9\xff"}}`,
	"{\"textDocument\":{\"text\":\"\xc3\\u00a9\"}}",
	// encoding/json folds keys by Unicode simple folding: ſ (U+017F) is s.
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"a"}],"contentChangeſ":[{"text":"b"}]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChangeſ":[{"text":"b"}],"contentChanges":[{"text":"a"}]}`,
	`{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"a"}],"CONTENTCHANGEſ":[{"text":"b"},{"text":"c"}]}`,
}

// bytesAsText puts the text decoded as bytes (src) where encoding/json
// puts it, to compare the two decodings.
func (p *didOpenParams) bytesAsText() {
	if p.src != nil {
		p.TextDocument.Text, p.src = string(p.src), nil
	}
}

// checkTextParams compares the fast decoding of data with encoding/json's.
func checkTextParams(t *testing.T, data []byte) {
	var wantOpen, gotOpen didOpenParams
	errWant := json.Unmarshal(data, &wantOpen)
	errGot := decodeDidOpen(data, nil, &gotOpen)
	gotOpen.bytesAsText()
	if fmt.Sprint(errGot) != fmt.Sprint(errWant) || (errWant == nil && !reflect.DeepEqual(gotOpen, wantOpen)) {
		t.Errorf("didOpen %q:\n got %+v, %v\nwant %+v, %v", data, gotOpen, errGot, wantOpen, errWant)
	}
	var wantChange, gotChange didChangeParams
	errWant = json.Unmarshal(data, &wantChange)
	errGot = decodeDidChange(data, nil, &gotChange)
	if fmt.Sprint(errGot) != fmt.Sprint(errWant) || (errWant == nil && !reflect.DeepEqual(gotChange, wantChange)) {
		t.Errorf("didChange %q:\n got %+v, %v\nwant %+v, %v", data, gotChange, errGot, wantChange, errWant)
	}

	checkCutMessage(t, "textDocument/didOpen", data)
	checkCutMessage(t, "textDocument/didChange", data)
}

// checkCutMessage compares the decoding of a whole message whose texts
// stream.Read cuts out before decoding it (decodeCutMessage, then the
// handler's decodeDidOpen or decodeDidChange with the cut) with the
// decoding of the message as it is.
func checkCutMessage(t *testing.T, method string, params []byte) {
	data := append(append([]byte(`{"jsonrpc":"2.0","method":"`+method+`","params":`), params...), '}')
	msg, err := jsonrpc2.DecodeMessage(data)
	cut, ok := decodeCutMessage(data)
	if err != nil {
		if ok {
			t.Errorf("%s %q: cut, but the message does not decode: %v", method, data, err)
		}
		return
	}
	if !ok {
		return
	}
	full := msg.(jsonrpc2.Request).Params()
	rest := cut.msg.(jsonrpc2.Request).Params()
	if method == "textDocument/didOpen" {
		var want, got didOpenParams
		errWant := decodeDidOpen(full, nil, &want)
		errGot := decodeDidOpen(rest, cut, &got)
		want.bytesAsText()
		got.bytesAsText()
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) || !reflect.DeepEqual(got, want) {
			t.Errorf("cut didOpen %q:\n got %+v, %v\nwant %+v, %v", data, got, errGot, want, errWant)
		}
		return
	}
	var want, got didChangeParams
	errWant := decodeDidChange(full, nil, &want)
	errGot := decodeDidChange(rest, cut, &got)
	if fmt.Sprint(errGot) != fmt.Sprint(errWant) || !reflect.DeepEqual(got, want) {
		t.Errorf("cut didChange %q:\n got %+v, %v\nwant %+v, %v", data, got, errGot, want, errWant)
	}
}

func TestDecodeTextParamsLikeEncodingJSON(t *testing.T) {
	for _, c := range textParamCases {
		checkTextParams(t, []byte(c))
	}
	// Whole messages are cut where they should be, and not otherwise.
	for _, c := range []struct {
		msg string
		cut bool
	}{
		{`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + textParamCases[0] + `}`, true},
		{`{"jsonrpc":"2.0","method":"textDocument/didChange","params":` + textParamCases[25] + `}`, true},
		{`{"jsonrpc":"2.0","method":"textDocument/didSave","params":` + textParamCases[0] + `}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","params":` + textParamCases[0] + `}`, false},
		{`{"jsonrpc":"2.0","method":"textDocument/didOpen","Params":` + textParamCases[0] + `}`, false},
		{`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"u"}}}`, false},
		{`{"jsonrpc":"2.0","params":` + textParamCases[0] + strings.Repeat(" ", 512) + `,"method":"textDocument/didOpen"}`, false},
	} {
		if _, ok := decodeCutMessage([]byte(c.msg)); ok != c.cut {
			t.Errorf("%s: cut %v, want %v", c.msg, ok, c.cut)
		}
	}
	// The fast path is taken where it should be.
	if _, texts, ok := cutTexts([]byte(textParamCases[1]), didOpenText); !ok || len(texts) != 1 || texts[0].text() != "a\"b\\c/d\b\f\n\r\t" {
		t.Errorf("fast path not taken or wrong: %v %q", ok, texts)
	}
	// Escapes as encoding/json writes them (& of continuation lines as
	// \u0026) and surrogates, valid or not, stay on the fast path.
	for _, i := range []int{2, 37} {
		if _, texts, ok := cutTexts([]byte(textParamCases[i]), didOpenText); !ok || len(texts) != 1 {
			t.Errorf("fast path not taken for %q", textParamCases[i])
		}
	}
	if _, texts, ok := cutTexts([]byte(textParamCases[25]), didChangeText); !ok || len(texts) != 2 || texts[1].elem != 1 {
		t.Errorf("fast path not taken or wrong: %v %+v", ok, texts)
	}
}

func FuzzDecodeTextParams(f *testing.F) {
	for _, c := range textParamCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkTextParams(t, data) })
}

// TestDecodeTextParamsAllocation: a didChange of many short texts with
// escapes allocates in proportion to the message, not to the message
// times the number of texts.
func TestDecodeTextParamsAllocation(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(`{"textDocument":{"uri":"u","version":2},"contentChanges":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"text":"x\n"}`)
	}
	b.WriteString(`]}`)
	data := []byte(b.String())
	var p didChangeParams
	allocated := func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.TotalAlloc
	}
	before := allocated()
	if err := decodeDidChange(data, nil, &p); err != nil || len(p.ContentChanges) != n || p.ContentChanges[n-1].Text != "x\n" {
		t.Fatalf("decoded %d changes, %v", len(p.ContentChanges), err)
	}
	if got := allocated() - before; got > 50*uint64(len(data)) {
		t.Errorf("decoding %d bytes allocated %d bytes", len(data), got)
	}
}
