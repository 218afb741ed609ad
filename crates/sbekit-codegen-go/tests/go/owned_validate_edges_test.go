// Validate's cases that orders-be.xml lacks (package edges, tests/schemas/validate-edges.xml;
// tests/owned.rs copies it into the generated module): float bounds are inclusive and NaN is
// out of range where a field has bounds, an integer minValue above the type's minimum, a
// pointer to an array and an optional composite are checked only when set, an optional member
// of a composite.
package edges

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func edge() *EdgeOwned {
	return &EdgeOwned{
		SbeActingVersion: SchemaVersion,
		Pos:              -1.5,
		Temps:            [2]float64{-273.15, 1000.5},
		Small:            &[2]byte{0, 9},
		Box:              BoxOwned{W: 10, Tag: 1},
		NewBox:           &BoxOwned{Tag: 254},
		Points:           []EdgePointsOwned{{P: PlainOwned{X: math.NaN()}}},
	}
}

func TestValidateAtTheEdges(t *testing.T) {
	nan := math.NaN()
	f64 := func(x float64) *float64 { return &x }
	i32 := func(x int32) *int32 { return &x }
	cases := []struct {
		what string
		edit func(o *EdgeOwned)
		path string // "" when valid
	}{
		{"the bounds themselves", func(o *EdgeOwned) {}, ""},
		{"a float below its minimum", func(o *EdgeOwned) { o.Pos = math.Nextafter32(-1.5, -2) }, "Edge.pos"},
		{"a float without a maximum", func(o *EdgeOwned) { o.Pos = math.MaxFloat32 }, ""},
		{"a NaN float", func(o *EdgeOwned) { o.Pos = float32(nan) }, "Edge.pos"},
		{"an optional double at its maximum", func(o *EdgeOwned) { o.Cap = f64(2.5) }, ""},
		{"an optional double above its maximum", func(o *EdgeOwned) { o.Cap = f64(math.Nextafter(2.5, 3)) }, "Edge.cap"},
		{"an optional double's NaN (its null value)", func(o *EdgeOwned) { o.Cap = &nan }, "Edge.cap"},
		{"a double array element below its minimum", func(o *EdgeOwned) { o.Temps[1] = math.Nextafter(-273.15, -300) }, "Edge.temps"},
		{"a double array element NaN", func(o *EdgeOwned) { o.Temps[0] = nan }, "Edge.temps"},
		{"nil pointers", func(o *EdgeOwned) { o.Cap, o.Small, o.NewBox = nil, nil, nil }, ""},
		{"an array pointer set out of range", func(o *EdgeOwned) { o.Small = &[2]byte{9, 10} }, "Edge.small"},
		{"a composite's float above its maximum", func(o *EdgeOwned) { o.Box.W = math.Nextafter32(10, 11) }, "Box.w"},
		{"a composite's integer below its minValue", func(o *EdgeOwned) { o.Box.Tag = 0 }, "Box.tag"},
		{"a composite's optional member out of range", func(o *EdgeOwned) { o.Box.H = i32(6) }, "Box.h"},
		{"a composite's optional member in range", func(o *EdgeOwned) { o.Box.H = i32(-5) }, ""},
		{"an optional composite set and invalid", func(o *EdgeOwned) { o.NewBox = &BoxOwned{Tag: 255} }, "Box.tag"},
	}
	buf := make([]byte, 4096)
	for _, c := range cases {
		o := edge()
		c.edit(o)
		err := o.Validate()
		if c.path == "" {
			if err != nil {
				t.Fatalf("%s: %v", c.what, err)
			}
			// What validates is written and read back as it was (but for a nil newer field, written
			// as zeros: a NewBox of zeros is below its minValue).
			if o.Small == nil {
				continue
			}
			n, err := o.EncodeOwned(buf)
			if err != nil {
				t.Fatalf("%s: EncodeOwned: %v", c.what, err)
			}
			back, err := DecodeEdgeOwned(buf[:n])
			if err != nil || back.Validate() != nil {
				t.Fatalf("%s: read back: %v %v", c.what, err, back.Validate())
			}
			back.Points[0].P.X, o.Points[0].P.X = 0, 0 // NaN is unequal to itself
			if !reflect.DeepEqual(&back, o) {
				t.Fatalf("%s: wrote %+v\nread back %+v", c.what, o, back)
			}
			continue
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != c.path || ve.Kind != OutOfRange {
			t.Fatalf("%s: want %s out of range, got %v", c.what, c.path, err)
		}
	}
}
