package parser

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestResetClearsEveryField: reader.reset clears the statement field by
// field (a whole-struct store costs more while the collector runs), so a
// field added to rawStmt and forgotten there would carry over from one
// statement to the next. Every field is set here, and reset must leave
// exactly a fresh statement, its buffers kept for reuse.
func TestResetClearsEveryField(t *testing.T) {
	var r reader
	v := reflect.ValueOf(&r.st).Elem()
	for i := 0; i < v.NumField(); i++ {
		// Unexported fields: settable through their address.
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		switch f.Kind() {
		case reflect.String:
			f.SetString("X")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int32, reflect.Uint8:
			if f.CanInt() {
				f.SetInt(7)
			} else {
				f.SetUint(7)
			}
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 3, 8))
		default:
			t.Fatalf("rawStmt.%s: kind %s not handled by this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	buf, off := r.st.buf, r.st.off
	st := r.reset(rawDirective)
	want := rawStmt{kind: rawDirective, buf: buf[:0], off: off[:0], labelPos: NoPos, labelEnd: NoPos}
	if !reflect.DeepEqual(*st, want) {
		t.Errorf("after reset:\n got %+v\nwant %+v", *st, want)
	}
	if cap(st.buf) != 8 || cap(st.off) != 8 {
		t.Errorf("reset dropped the buffers (caps %d, %d)", cap(st.buf), cap(st.off))
	}
}
