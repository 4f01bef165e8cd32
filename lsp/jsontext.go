package lsp

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
)

// Decoding the parameters of didOpen and didChange, whose text may be
// megabytes long: encoding/json validates the whole message, then decodes
// it, copying the text through its unquoting. Here the texts are cut out
// in one pass (validated and unescaped on the way), the rest (a few
// hundred bytes) goes through encoding/json, and the texts are put back.
// Whenever the fast path is unsure it gives up and encoding/json decodes
// the whole message, so malformed input gets exactly the error it did:
// a text with invalid UTF-8, a control character or a bad escape, a key
// with an escape, a key equal to a wanted one but for case, a duplicate
// key, nesting past 64 levels.

// textPath says which string values to cut: keys holds the object keys
// (and "[]" for an array element) from the top down to the string.
type textPath func(keys []string) bool

// didOpenText is textDocument.text.
func didOpenText(keys []string) bool {
	return len(keys) == 2 && keys[0] == "textDocument" && keys[1] == "text"
}

// didChangeText is contentChanges[i].text.
func didChangeText(keys []string) bool {
	return len(keys) == 3 && keys[0] == "contentChanges" && keys[1] == "[]" && keys[2] == "text"
}

// watched are the keys whose case variants and duplicates send a message
// to encoding/json (it matches keys under Unicode simple folding, so that
// "contentChangeſ" with U+017F is contentChanges, and keeps the last of
// duplicates).
var watched = []string{"textDocument", "text", "contentChanges", "params"}

// cutText is one text cut out: its value, and the index of the array
// element it was in (0 outside arrays).
type cutText struct {
	elem  int
	value string
	bytes []byte // the value instead, when it was unescaped (not copied again)
	depth int    // the number of keys down to it
}

func (t cutText) text() string {
	if t.bytes != nil {
		return string(t.bytes)
	}
	return t.value
}

// setOpenText puts didOpen's text into p: as bytes, when it has them,
// which the store parses without copying them to a string and back.
func setOpenText(p *didOpenParams, t cutText) {
	if t.bytes != nil {
		p.src = t.bytes
		return
	}
	p.TextDocument.Text = t.value
}

type textCutter struct {
	data  []byte
	i     int
	want  textPath
	keys  []string
	elems []int  // the index of the current element of each open array
	rest  []byte // data with the texts replaced by ""
	done  int    // data[:done] is in rest already
	texts []cutText
}

// cutTexts returns data with the strings want selects replaced by "" and
// those strings; ok is false when the fast path gave up.
func cutTexts(data []byte, want textPath) (rest []byte, texts []cutText, ok bool) {
	c := &textCutter{data: data, want: want}
	if !c.value(0) {
		return nil, nil, false
	}
	c.space()
	if c.i != len(data) {
		return nil, nil, false
	}
	if c.rest == nil {
		return data, nil, true
	}
	return append(c.rest, data[c.done:]...), c.texts, true
}

func (c *textCutter) space() {
	for c.i < len(c.data) {
		switch c.data[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// value scans one value; the caller validates everything but the texts
// with encoding/json afterwards, so literals are only skipped.
func (c *textCutter) value(depth int) bool {
	if depth > 64 {
		return false
	}
	c.space()
	if c.i >= len(c.data) {
		return false
	}
	switch c.data[c.i] {
	case '{':
		return c.object(depth)
	case '[':
		return c.array(depth)
	case '"':
		if c.want(c.keys) {
			return c.text()
		}
		_, ok := c.str(false)
		return ok
	default:
		start := c.i
		for c.i < len(c.data) && isLiteralByte(c.data[c.i]) {
			c.i++
		}
		return c.i > start
	}
}

func isLiteralByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.'
}

func (c *textCutter) object(depth int) bool {
	c.i++ // {
	var seen [4]bool
	c.space()
	if c.i < len(c.data) && c.data[c.i] == '}' {
		c.i++
		return true
	}
	for {
		c.space()
		if c.i >= len(c.data) || c.data[c.i] != '"' {
			return false
		}
		key, ok := c.str(true)
		if !ok {
			return false
		}
		for k, w := range watched {
			if key == w {
				if seen[k] {
					return false
				}
				seen[k] = true
			} else if strings.EqualFold(key, w) {
				return false
			}
		}
		c.space()
		if c.i >= len(c.data) || c.data[c.i] != ':' {
			return false
		}
		c.i++
		c.keys = append(c.keys, key)
		ok = c.value(depth + 1)
		c.keys = c.keys[:len(c.keys)-1]
		if !ok {
			return false
		}
		c.space()
		if c.i >= len(c.data) {
			return false
		}
		switch c.data[c.i] {
		case ',':
			c.i++
		case '}':
			c.i++
			return true
		default:
			return false
		}
	}
}

func (c *textCutter) array(depth int) bool {
	c.i++ // [
	c.space()
	if c.i < len(c.data) && c.data[c.i] == ']' {
		c.i++
		return true
	}
	c.keys = append(c.keys, "[]")
	c.elems = append(c.elems, 0)
	defer func() {
		c.keys = c.keys[:len(c.keys)-1]
		c.elems = c.elems[:len(c.elems)-1]
	}()
	for {
		if !c.value(depth + 1) {
			return false
		}
		c.space()
		if c.i >= len(c.data) {
			return false
		}
		switch c.data[c.i] {
		case ',':
			c.i++
			c.elems[len(c.elems)-1]++
		case ']':
			c.i++
			return true
		default:
			return false
		}
	}
}

// str scans a string that is not cut and returns its raw contents. For
// a key (key set) an escape gives up, since keys are compared raw.
func (c *textCutter) str(key bool) (string, bool) {
	c.i++ // "
	start := c.i
	for c.i < len(c.data) {
		switch c.data[c.i] {
		case '"':
			s := c.data[start:c.i]
			c.i++
			if !key {
				return "", true
			}
			return string(s), true
		case '\\':
			if key {
				return "", false
			}
			c.i += 2
		default:
			c.i++
		}
	}
	return "", false
}

// text scans a string to cut, unescaping it as encoding/json does (a
// \u escape of a lone surrogate becomes U+FFFD); it gives up on invalid
// UTF-8 and on what is not valid JSON.
func (c *textCutter) text() bool {
	open := c.i
	c.i++ // "
	var buf []byte
	run := c.i // start of the bytes not yet copied to buf
	ascii := true
	// flush copies the raw bytes since run to buf; false when they are
	// not valid UTF-8.
	flush := func() bool {
		raw := c.data[run:c.i]
		if !ascii && !utf8.Valid(raw) {
			return false
		}
		ascii = true
		if buf == nil {
			// The unescaped text is no longer than the raw one: its
			// length bounds the buffer (not the rest of the message,
			// which for many short texts would be quadratic).
			buf = make([]byte, 0, c.rawEnd(c.i)-run)
		}
		buf = append(buf, raw...)
		return true
	}
	for c.i < len(c.data) {
		b := c.data[c.i]
		switch {
		case b == '"':
			t := cutText{depth: len(c.keys)}
			if buf == nil {
				raw := c.data[run:c.i]
				if !ascii && !utf8.Valid(raw) {
					return false
				}
				t.value = string(raw)
			} else {
				if !flush() {
					return false
				}
				t.bytes = buf
			}
			c.i++
			c.rest = append(append(c.rest, c.data[c.done:open]...), `""`...)
			c.done = c.i
			elem := 0
			if len(c.elems) > 0 {
				elem = c.elems[len(c.elems)-1]
			}
			t.elem = elem
			c.texts = append(c.texts, t)
			return true
		case b == '\\':
			if c.i+1 >= len(c.data) || !flush() {
				return false
			}
			switch e := c.data[c.i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r := hex4(c.data[c.i+2:])
				if r < 0 {
					return false
				}
				c.i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if c.i+3 < len(c.data) && c.data[c.i+2] == '\\' && c.data[c.i+3] == 'u' {
						r2 = hex4(c.data[c.i+4:])
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						c.i += 6
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return false
			}
			c.i += 2
			run = c.i
		case b < 0x20:
			return false
		default:
			// A run of bytes copied as they are, read with a local index
			// (a didOpen's text is one such run per line).
			i := c.i
			for ; i < len(c.data); i++ {
				b := c.data[i]
				if b == '"' || b == '\\' || b < 0x20 {
					break
				}
				if b >= utf8.RuneSelf {
					ascii = false
				}
			}
			c.i = i
		}
	}
	return false
}

// rawEnd returns the index of the quote closing the string that data[i]
// is in, or len(data) when it is not closed.
func (c *textCutter) rawEnd(i int) int {
	for i < len(c.data) {
		switch c.data[i] {
		case '"':
			return i
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(c.data)
}

// hex4 reads the four hex digits of a \u escape; -1 when they are not.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// messageText is the text of didOpen or of a didChange's change in a
// whole message: the texts are cut before the message is decoded
// (stream.Read), so that a message of megabytes is not scanned and
// copied by the JSON-RPC decoder first.
func messageText(keys []string) bool {
	return len(keys) > 0 && keys[0] == "params" && (didOpenText(keys[1:]) || didChangeText(keys[1:]))
}

// cutMessage is a message whose texts stream.Read cut out: msg was
// decoded from the rest, and data is the whole message, for the
// handler's fallback.
type cutMessage struct {
	msg   jsonrpc2.Message
	texts []cutText
	data  []byte
}

// cutMessageSize is the size from which stream.Read cuts texts out of a
// message before decoding it.
const cutMessageSize = 64 << 10

// decodeCutMessage decodes a didOpen or didChange notification with its
// texts cut out; ok is false for any other message, or when the fast
// path gives up.
func decodeCutMessage(data []byte) (*cutMessage, bool) {
	// Clients write the method before the params; a message that does
	// not name one of the two methods early on (an answer to the server,
	// a notification of many files) is not scanned twice.
	head := data[:min(len(data), 512)]
	if !bytes.Contains(head, []byte(`"textDocument/didOpen"`)) && !bytes.Contains(head, []byte(`"textDocument/didChange"`)) {
		return nil, false
	}
	rest, texts, ok := cutTexts(data, messageText)
	if !ok || len(texts) == 0 {
		return nil, false
	}
	msg, err := jsonrpc2.DecodeMessage(rest)
	if err != nil {
		return nil, false
	}
	// Only the method's own texts: params.textDocument.text (3 keys) for
	// didOpen, params.contentChanges[].text (4) for didChange.
	n, ok := msg.(*jsonrpc2.Notification)
	depth := 0
	switch {
	case !ok:
	case n.Method() == "textDocument/didOpen":
		depth = 3
	case n.Method() == "textDocument/didChange":
		depth = 4
	}
	for _, t := range texts {
		if t.depth != depth {
			return nil, false
		}
	}
	return &cutMessage{msg: msg, texts: texts, data: data}, true
}

// params returns the parameters of the whole message, decoded as they
// would have been without the cut.
func (c *cutMessage) params() json.RawMessage {
	msg, err := jsonrpc2.DecodeMessage(c.data)
	if err != nil {
		return nil
	}
	if r, ok := msg.(jsonrpc2.Request); ok {
		return r.Params()
	}
	return nil
}

// decodeDidOpen decodes didOpen's parameters (see above). With cut set,
// data has the text cut out already.
func decodeDidOpen(data []byte, cut *cutMessage, p *didOpenParams) error {
	if cut != nil {
		if len(cut.texts) == 1 && json.Unmarshal(data, p) == nil && p.TextDocument.Text == "" {
			setOpenText(p, cut.texts[0])
			return nil
		}
		*p = didOpenParams{}
		return decodeDidOpen(cut.params(), nil, p)
	}
	rest, texts, ok := cutTexts(data, didOpenText)
	if !ok || len(texts) != 1 || json.Unmarshal(rest, p) != nil {
		*p = didOpenParams{}
		return json.Unmarshal(data, p)
	}
	setOpenText(p, texts[0])
	return nil
}

// decodeDidChange decodes didChange's parameters (see above). With cut
// set, data has the texts cut out already.
func decodeDidChange(data []byte, cut *cutMessage, p *didChangeParams) error {
	if cut != nil {
		if json.Unmarshal(data, p) == nil && setTexts(p, cut.texts) {
			return nil
		}
		*p = didChangeParams{}
		return decodeDidChange(cut.params(), nil, p)
	}
	rest, texts, ok := cutTexts(data, didChangeText)
	if ok && json.Unmarshal(rest, p) == nil && setTexts(p, texts) {
		return nil
	}
	*p = didChangeParams{}
	return json.Unmarshal(data, p)
}

// setTexts puts the texts cut out back into their changes; false when a
// text has no change to go to.
func setTexts(p *didChangeParams, texts []cutText) bool {
	for _, t := range texts {
		if t.elem >= len(p.ContentChanges) {
			return false
		}
		p.ContentChanges[t.elem].Text = t.text()
	}
	return true
}
