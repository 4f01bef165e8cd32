package parser

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Dump writes a complete, deterministic description of the file's tree to
// w, with absolute offsets: two trees are equal exactly when their dumps
// are. Tests use it to compare an incremental reparse with a parse from
// scratch and for golden files.
func Dump(w io.Writer, f *File) {
	d := dumper{w: w}
	for _, u := range f.Units {
		d.unit(u, 0)
	}
}

type dumper struct {
	w    io.Writer
	base int
}

var posType = reflect.TypeOf(Pos(0))

// stmtBaseDump gives the indices of StmtBase's fields in the order Dump
// writes them, which is not the order they are laid out in.
var stmtBaseDump = func() []int {
	t := reflect.TypeOf(StmtBase{})
	var order []int
	for _, name := range []string{"From", "To", "Label", "LabelPos", "Construct", "Keyword", "KeyPos"} {
		f, _ := t.FieldByName(name)
		order = append(order, f.Index[0])
	}
	if len(order) != t.NumField() {
		panic("parser: stmtBaseDump does not list every field of StmtBase")
	}
	return order
}()

func (d *dumper) unit(u *Unit, indent int) {
	pad := strings.Repeat("  ", indent)
	d.base = u.Base
	fmt.Fprintf(d.w, "%sUnit %s %q base=%d len=%d\n", pad, u.Kind, u.Name, u.Base, u.Len)
	if u.Header != nil {
		d.value(reflect.ValueOf(u.Header), indent+1, "Header")
	}
	for _, s := range u.Body {
		d.value(reflect.ValueOf(s), indent+1, "")
	}
	if u.EndStmt != nil {
		d.value(reflect.ValueOf(u.EndStmt), indent+1, "End")
	}
	for _, c := range u.Comments {
		fmt.Fprintf(d.w, "%s  Comment %d-%d\n", pad, u.Base+int(c.Pos), u.Base+int(c.End))
	}
	for _, r := range u.Inactive {
		fmt.Fprintf(d.w, "%s  Inactive %d-%d\n", pad, u.Base+int(r.Pos), u.Base+int(r.End))
	}
	for _, e := range u.Errors {
		fmt.Fprintf(d.w, "%s  Error %d-%d %s %s: %s\n", pad, u.Base+int(e.Pos), u.Base+int(e.End), e.Severity, e.Code, e.Msg)
	}
	if u.Scope != nil {
		for _, name := range u.Scope.Names() {
			s := u.Scope.Syms[name]
			fmt.Fprintf(d.w, "%s  Sym %s %s decl=%d type=%q implicit=%v rank=%d param=%v common=%q/%v dummy=%v align=%v dist=%v\n",
				pad, s.Name, s.Kind, u.Base+int(s.Decl), s.Type, s.Implicit, s.Rank(), s.Param != nil, s.Common, s.InCommon, s.Dummy, s.Align != nil, s.Dist != nil)
		}
	}
	for _, c := range u.Contains {
		d.unit(c, indent+1)
	}
}

func (d *dumper) value(v reflect.Value, indent int, label string) {
	pad := strings.Repeat("  ", indent)
	if label != "" {
		label += ": "
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return
		}
		d.value(v.Elem(), indent, strings.TrimSuffix(label, ": "))
		return
	case reflect.Struct:
		t := v.Type()
		var scalars []string
		type child struct {
			name string
			v    reflect.Value
		}
		var children []child
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || f.Name == "Parent" || f.Name == "Scope" || f.Name == "File" {
				continue
			}
			fv := v.Field(i)
			if f.Anonymous {
				// StmtBase: its scalar fields inline, construct name as a child.
				for _, j := range stmtBaseDump {
					g := fv.Type().Field(j)
					gv := fv.Field(j)
					if s, ok := d.scalar(gv); ok {
						if !isZero(gv) {
							scalars = append(scalars, g.Name+"="+s)
						}
					} else if !isZero(gv) {
						children = append(children, child{g.Name, gv})
					}
				}
				continue
			}
			if s, ok := d.scalar(fv); ok {
				if !isZero(fv) {
					scalars = append(scalars, f.Name+"="+s)
				}
				continue
			}
			if !isZero(fv) {
				children = append(children, child{f.Name, fv})
			}
		}
		fmt.Fprintf(d.w, "%s%s%s %s\n", pad, label, t.Name(), strings.Join(scalars, " "))
		for _, c := range children {
			d.value(c.v, indent+1, c.name)
		}
	case reflect.Slice, reflect.Array:
		fmt.Fprintf(d.w, "%s%s[%d]\n", pad, label, v.Len())
		for i := 0; i < v.Len(); i++ {
			d.value(v.Index(i), indent+1, "")
		}
	default:
		s, _ := d.scalar(v)
		fmt.Fprintf(d.w, "%s%s%s\n", pad, label, s)
	}
}

func isZero(v reflect.Value) bool {
	if v.Type() == posType {
		return false
	}
	if v.Kind() == reflect.Slice {
		return v.Len() == 0
	}
	return v.IsZero()
}

func (d *dumper) scalar(v reflect.Value) (string, bool) {
	if v.Type() == posType {
		p := Pos(v.Int())
		if p < 0 {
			return "-", true
		}
		return fmt.Sprint(d.base + int(p)), true
	}
	switch v.Kind() {
	case reflect.String:
		return fmt.Sprintf("%q", v.String()), true
	case reflect.Bool:
		return fmt.Sprint(v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprint(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprint(v.Uint()), true
	}
	return "", false
}
