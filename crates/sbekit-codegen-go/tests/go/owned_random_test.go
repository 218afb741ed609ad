// Property test of the owned values of any generated package (tests/owned.rs copies it into
// each package it checks, with the package name and the list of its owned messages filled in):
// random owned values, written by EncodeOwned, decode back to equal values, and are the bytes
// the flyweights' Reencode writes for what they read. Validate takes any of them (random values
// are not built within the schema's rules: most break one) and returns nil or a
// *ValidationError naming a rule; what it accepts, it accepts read back (unless a nil pointer
// was written as zeros).
package PKG

import (
	"bytes"
	"errors"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"
)

// counts of the pointers a random value sets, of those that read back nil, and of the nil ones
// that read back as zeros.
type counts struct{ set, nulled, zeroed int }

// same reports whether got (read back) equals want (written). A pointer want sets may read back
// nil (an optional field written with its null value reads back absent): counted, so that the
// test can tell the rare null values from a field that is not written. A pointer want leaves nil
// may read back as the zero value (a field newer than version 0 left out is written as zeros at
// a version that has it). An empty slice is nil.
func same(want, got reflect.Value, c *counts) bool {
	switch want.Kind() {
	case reflect.Pointer:
		if want.IsNil() {
			if got.IsNil() {
				return true
			}
			c.zeroed++
			return got.Elem().IsZero()
		}
		c.set++
		if got.IsNil() {
			c.nulled++
			return true
		}
		return same(want.Elem(), got.Elem(), c)
	case reflect.Struct:
		for i := 0; i < want.NumField(); i++ {
			if !same(want.Field(i), got.Field(i), c) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if want.Len() != got.Len() {
			return false
		}
		for i := 0; i < want.Len(); i++ {
			if !same(want.Index(i), got.Index(i), c) {
				return false
			}
		}
		return true
	default:
		return want.Interface() == got.Interface()
	}
}

func TestRandomOwnedValuesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	buf := make([]byte, 1<<22)
	again := make([]byte, 1<<22)
	var c counts
	valid := 0
	for _, sample := range ownedSamples {
		typ := reflect.TypeOf(sample).Elem()
		for k := 0; k < 300; k++ {
			v, ok := quick.Value(typ, rng)
			if !ok {
				t.Fatalf("%v: no random value", typ)
			}
			p := reflect.New(typ)
			p.Elem().Set(v)
			p.Elem().FieldByName("SbeActingVersion").SetUint(SchemaVersion)
			o := p.Interface().(AnyOwned)
			n, err := o.EncodeOwned(buf)
			if err != nil {
				t.Fatalf("%v: EncodeOwned: %v", typ, err)
			}
			back, err := DecodeOwned(buf[:n])
			if err != nil {
				t.Fatalf("%v: DecodeOwned: %v", typ, err)
			}
			zeroed := c.zeroed
			if reflect.TypeOf(back) != reflect.TypeOf(o) || !same(p.Elem(), reflect.ValueOf(back).Elem(), &c) {
				t.Fatalf("%v: wrote %+v\nread back %+v", typ, o, back)
			}
			// The flyweights write the same bytes for what they read, and so does the value read back.
			var a AnyDecoder
			m, err := a.Decode(buf[:n])
			if err != nil {
				t.Fatalf("%v: AnyDecoder: %v", typ, err)
			}
			if k, err := Reencode(m, again); err != nil || !bytes.Equal(again[:k], buf[:n]) {
				t.Fatalf("%v: Reencode wrote other bytes (%v)", typ, err)
			}
			if k, err := back.EncodeOwned(again); err != nil || !bytes.Equal(again[:k], buf[:n]) {
				t.Fatalf("%v: the value read back writes other bytes (%v)", typ, err)
			}
			if err := o.Validate(); err != nil {
				var ve *ValidationError
				if !errors.As(err, &ve) || ve.Path == "" || ve.Kind < OutOfRange || ve.Kind > TooLong {
					t.Fatalf("%v: Validate returned %#v (%v)", typ, err, err)
				}
			} else {
				valid++
				// Validate does not ask for a newer field that is not optional to be set: nil is
				// written as zeros, which need not be valid (an enum without 0). Without those,
				// what it accepts reads back accepted.
				if err := back.Validate(); err != nil && c.zeroed == zeroed {
					t.Fatalf("%v: valid, but not read back: %v", typ, err)
				}
			}
			// A buffer too small is an error, never a panic.
			if _, err := o.EncodeOwned(make([]byte, n-1)); err == nil {
				t.Fatalf("%v: written into %d bytes of %d", typ, n-1, n)
			}
		}
	}
	if c.nulled*20 > c.set {
		t.Fatalf("%d of %d pointers read back nil: more than null values explain", c.nulled, c.set)
	}
	t.Logf("%d messages: %d pointers set, %d read back as null, %d valid", 300*len(ownedSamples), c.set, c.nulled, valid)
}
