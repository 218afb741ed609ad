// Validate of the owned values of orders-be.xml (package orders; tests/owned.rs copies it into
// the generated module): each rule fires with the path and kind of what breaks it (a number out
// of range, an array element out of range, a composite member out of range, an enum value the
// schema does not list, too many group entries, var data too long), random values built within
// the schema's rules validate (and round-trip), and EncodeOwned writes what a value holds, valid
// or not.
package orders

import (
	"errors"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

func randomText(r *rand.Rand, max int) string {
	n := r.Intn(max + 1)
	if r.Intn(8) == 0 {
		n = max // the longest allowed
	}
	b := make([]byte, n)
	r.Read(b)
	return string(b)
}

// validOrder is a random Order within the schema's rules, written at the schema's version. Every
// pointer the decoder sets at that version is set (Qty and Venue, optional, are nil or hold a
// value other than their null value), so that it reads back equal.
func validOrder(r *rand.Rand) *OrderOwned {
	o := &OrderOwned{SbeActingVersion: SchemaVersion}
	o.OrderId = r.Uint64() % math.MaxUint64 // 2^64-1 is the null value
	if r.Intn(8) == 0 {
		o.OrderId = math.MaxUint64 - 1
	}
	copy(o.Symbol[:], randomText(r, 8))
	o.Side = []Side{SideBuy, SideSell}[r.Intn(2)]
	o.Price.Mantissa = r.Int63() // [-(2^63-1), 2^63-1]: int64's minimum is the null value
	if r.Intn(2) == 0 {
		o.Price.Mantissa = -o.Price.Mantissa
	}
	if r.Intn(2) == 0 {
		q := 1 + r.Uint32()%math.MaxUint32 // [1, 2^32-1]: 0 is Qty's null value
		if q == math.MaxUint32 {
			q--
		}
		o.Qty = &q
	}
	for i := range o.Weights {
		o.Weights[i] = int16(r.Intn(1<<16-1) - math.MaxInt16) // [-32767, 32767]
	}
	if r.Intn(2) == 0 {
		x := r.NormFloat64()
		o.Ratio = &x
	}
	flags := Flags(r.Uint32())
	o.Flags = &flags
	if r.Intn(2) == 0 {
		v := []Venue{VenueLit, VenueDark, VenueAuction}[r.Intn(3)]
		o.Venue = &v
	}
	if n := r.Intn(4); n > 0 {
		o.Fills = make([]OrderFillsOwned, n)
		for i := range o.Fills {
			f := &o.Fills[i]
			f.FillQty = r.Uint32() % math.MaxUint32
			f.FillPrice = &PriceOwned{Mantissa: -r.Int63()}
			if k := r.Intn(3); k > 0 {
				f.Legs = make([]OrderFillsLegsOwned, k)
				for j := range f.Legs {
					if r.Intn(3) > 0 {
						x := int16(r.Intn(1<<16-1) - math.MaxInt16)
						f.Legs[j].Ratio = &x
					}
				}
			}
			f.FillNote = randomText(r, 1024)
		}
	}
	if n := r.Intn(3); n > 0 {
		o.Marks = make([]OrderMarksOwned, n)
		for i := range o.Marks {
			m := byte(r.Intn(255))
			o.Marks[i].Mark = &m
		}
	}
	o.Note = randomText(r, 1024)
	if b := randomText(r, 64); b != "" {
		o.Blob = []byte(b)
	}
	return o
}

// roundTrip writes o with EncodeOwned and returns what DecodeOrderOwned reads back, the same value.
func roundTrip(t *testing.T, o *OrderOwned, buf []byte) *OrderOwned {
	t.Helper()
	n, err := o.EncodeOwned(buf)
	if err != nil {
		t.Fatalf("EncodeOwned: %v", err)
	}
	back, err := DecodeOrderOwned(buf[:n])
	if err != nil {
		t.Fatalf("DecodeOrderOwned: %v", err)
	}
	if !reflect.DeepEqual(&back, o) {
		t.Fatalf("wrote %+v\nread back %+v", o, back)
	}
	return &back
}

func TestValidValuesValidateAndRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	buf := make([]byte, 1<<16)
	for k := 0; k < 500; k++ {
		o := validOrder(r)
		if err := o.Validate(); err != nil {
			t.Fatalf("a valid value: %v\n%+v", err, o)
		}
		var a AnyOwned = o
		if err := a.Validate(); err != nil {
			t.Fatalf("through AnyOwned: %v", err)
		}
		if err := roundTrip(t, o, buf).Validate(); err != nil {
			t.Fatalf("the value read back: %v", err)
		}
	}
}

// valid is a fixed value that breaks no rule, with one entry in each group.
func valid() *OrderOwned {
	qty, ratio, mark, venue := uint32(5), int16(-32767), byte(254), VenueAuction
	flags := FlagsHidden
	return &OrderOwned{
		SbeActingVersion: SchemaVersion,
		OrderId:          math.MaxUint64 - 1,
		Side:             SideSell,
		Price:            PriceOwned{Mantissa: math.MinInt64 + 1},
		Qty:              &qty,
		Weights:          [3]int16{-32767, 0, 32767},
		Flags:            &flags,
		Venue:            &venue,
		Fills: []OrderFillsOwned{{
			FillQty:   math.MaxUint32 - 1,
			FillPrice: &PriceOwned{Mantissa: 1},
			Legs:      []OrderFillsLegsOwned{{Ratio: &ratio}, {}},
			FillNote:  strings.Repeat("n", 1024),
		}},
		Marks: []OrderMarksOwned{{Mark: &mark}},
		Note:  strings.Repeat("x", 1024),
		Blob:  []byte{1, 2, 3},
	}
}

// broken checks that err is a *ValidationError with the path and kind given.
func broken(t *testing.T, what string, err error, path string, kind ValidationErrorKind) *ValidationError {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%s: want a *ValidationError at %s, got %v", what, path, err)
	}
	if ve.Path != path || ve.Kind != kind {
		t.Fatalf("%s: want %s %v, got %s %v (%v)", what, path, kind, ve.Path, ve.Kind, ve)
	}
	return ve
}

func TestValidateNamesEachBrokenRule(t *testing.T) {
	if err := valid().Validate(); err != nil {
		t.Fatalf("the valid value: %v", err)
	}
	// Nil pointers are not checked.
	none := valid()
	none.Qty, none.Ratio, none.Flags, none.Venue = nil, nil, nil, nil
	none.Fills[0].FillPrice, none.Marks[0].Mark = nil, nil
	if err := none.Validate(); err != nil {
		t.Fatalf("nil pointers: %v", err)
	}

	cases := []struct {
		what  string
		edit  func(o *OrderOwned)
		path  string
		kind  ValidationErrorKind
		error string
	}{
		{"a number out of range (uint64's null value)", func(o *OrderOwned) { o.OrderId = math.MaxUint64 },
			"Order.orderId", OutOfRange, "Order.orderId: value outside its valid range"},
		{"an optional number out of range", func(o *OrderOwned) { q := uint32(math.MaxUint32); o.Qty = &q },
			"Order.qty", OutOfRange, ""},
		{"an optional number holding its null value (it would read back as nil)", func(o *OrderOwned) { q := uint32(0); o.Qty = &q },
			"Order.qty", OutOfRange, ""},
		{"an optional float holding its null value, NaN", func(o *OrderOwned) { x := math.NaN(); o.Ratio = &x },
			"Order.ratio", OutOfRange, ""},
		{"an array element out of range", func(o *OrderOwned) { o.Weights[2] = math.MinInt16 },
			"Order.weights", OutOfRange, ""},
		{"a composite member out of range", func(o *OrderOwned) { o.Price.Mantissa = math.MinInt64 },
			"Price.mantissa", OutOfRange, ""},
		{"a composite member of a group entry out of range", func(o *OrderOwned) { o.Fills[0].FillPrice.Mantissa = math.MinInt64 },
			"Price.mantissa", OutOfRange, ""},
		{"a group entry's number out of range", func(o *OrderOwned) { r := int16(math.MinInt16); o.Fills[0].Legs[1].Ratio = &r },
			"Order.fills.legs.ratio", OutOfRange, ""},
		{"a newer group's number out of range", func(o *OrderOwned) { m := byte(255); o.Marks[0].Mark = &m },
			"Order.marks.mark", OutOfRange, ""},
		{"an unlisted enum value", func(o *OrderOwned) { o.Side = Side('X') },
			"Order.side", UnknownEnumValue, "Order.side: a value the enum does not list"},
		{"the enum's null value", func(o *OrderOwned) { o.Side = SideNullValue },
			"Order.side", UnknownEnumValue, ""},
		{"an unlisted optional enum value", func(o *OrderOwned) { v := Venue(3); o.Venue = &v },
			"Order.venue", UnknownEnumValue, ""},
		{"too many group entries", func(o *OrderOwned) { o.Fills = make([]OrderFillsOwned, 65535) },
			"Order.fills", TooManyEntries, "Order.fills: 65535 entries, more than the 65534 allowed"},
		{"too many nested group entries", func(o *OrderOwned) { o.Fills[0].Legs = make([]OrderFillsLegsOwned, 65535) },
			"Order.fills.legs", TooManyEntries, ""},
		{"var data too long", func(o *OrderOwned) { o.Note = strings.Repeat("x", 1025) },
			"Order.note", TooLong, "Order.note: 1025 bytes, more than the 1024 allowed"},
		{"a group entry's var data too long", func(o *OrderOwned) { o.Fills[0].FillNote = strings.Repeat("x", 1025) },
			"Order.fills.fillNote", TooLong, ""},
	}
	for _, c := range cases {
		o := valid()
		c.edit(o)
		ve := broken(t, c.what, o.Validate(), c.path, c.kind)
		var a AnyOwned = o
		broken(t, c.what+" (AnyOwned)", a.Validate(), c.path, c.kind)
		if c.error != "" && ve.Error() != c.error {
			t.Fatalf("%s: Error() is %q, want %q", c.what, ve.Error(), c.error)
		}
		switch c.kind {
		case TooManyEntries:
			if ve.Count != 65535 || ve.Maximum != 65534 {
				t.Fatalf("%s: count %d, maximum %d", c.what, ve.Count, ve.Maximum)
			}
		case TooLong:
			if ve.Length != 1025 || ve.Maximum != 1024 {
				t.Fatalf("%s: length %d, maximum %d", c.what, ve.Length, ve.Maximum)
			}
		}
	}

	// The largest group allowed validates.
	o := valid()
	o.Fills = make([]OrderFillsOwned, 65534)
	if err := o.Validate(); err != nil {
		t.Fatalf("65534 entries: %v", err)
	}

	// Cancel, through its own Validate and AnyOwned.
	hint := uint16(math.MaxUint16)
	c := &CancelOwned{SbeActingVersion: SchemaVersion, OrderId: 1, Hints: []CancelHintsOwned{{Hint: &hint}}}
	broken(t, "Cancel", c.Validate(), "Cancel.hints.hint", OutOfRange)
	hint--
	var a AnyOwned = c
	if err := a.Validate(); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
}

// EncodeOwned writes what a value holds: values out of range go back as they are (as a message
// read from the wire must), and only what the wire cannot hold is refused.
func TestEncodeOwnedWritesWhatAValueHolds(t *testing.T) {
	buf := make([]byte, 1<<22)
	o := valid()
	o.Side = Side('X')
	o.OrderId = math.MaxUint64
	o.Weights[0] = math.MinInt16
	broken(t, "read back", roundTrip(t, o, buf).Validate(), "Order.orderId", OutOfRange)

	o = valid()
	o.Fills = make([]OrderFillsOwned, 65535)
	if _, err := o.EncodeOwned(buf); err == nil {
		t.Fatalf("65535 entries written for a count whose largest is 65534")
	}
	o = valid()
	o.Note = strings.Repeat("x", 1025)
	if _, err := o.EncodeOwned(buf); err == nil {
		t.Fatalf("1025 bytes written for a length whose largest is 1024")
	}
}
