// Owned values of the crate's versioned schema (package vers1, versioned-v1.xml; vers0 is
// versioned-v0.xml), copied into the generated module by tests/owned.rs: random values at
// either version round-trip exactly and write what the flyweights write; an older writer's
// message keeps its version; a newer group is left out at an older version.
package vers1

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"sbetest/vers0"
)

func randomBytes(r *rand.Rand) string {
	b := make([]byte, r.Intn(24))
	r.Read(b)
	return string(b)
}

// randomEvolving is a random Evolving at acting version 1 or 0 (then everything newer is absent).
func randomEvolving(r *rand.Rand) EvolvingOwned {
	v := uint64(r.Intn(2))
	newer := v >= 1
	o := EvolvingOwned{SbeActingVersion: v, A: r.Uint32(), D: randomBytes(r)}
	if newer {
		if r.Intn(4) > 0 {
			b := r.Uint32() % 0xffffffff // 0xffffffff is b's null value: it reads back nil
			o.B = &b
		}
		c := Color(r.Intn(256))
		o.C = &c
		o.E = randomBytes(r)
	}
	for i, n := 0, r.Intn(6); i < n; i++ {
		g := EvolvingGOwned{X: int16(r.Uint32())}
		if newer {
			y := int64(r.Uint64())
			g.Y = &y
		}
		o.G = append(o.G, g)
	}
	return o
}

func TestOwnedValuesRoundTripAsTheFlyweightsWriteThem(t *testing.T) {
	buf := make([]byte, 1024)
	again := make([]byte, 1024)
	prop := func(seed int64) bool {
		o := randomEvolving(rand.New(rand.NewSource(seed)))
		n, err := o.EncodeOwned(buf)
		if err != nil {
			t.Fatalf("EncodeOwned: %v", err)
		}
		b := buf[:n]
		// Back to an equal value, at the same version.
		back, err := DecodeEvolvingOwned(b)
		if err != nil || !reflect.DeepEqual(back, o) {
			t.Fatalf("wrote %+v\nread back %+v (%v)", o, back, err)
		}
		if a, err := DecodeOwned(b); err != nil || !reflect.DeepEqual(a, &o) {
			t.Fatalf("DecodeOwned: %+v (%v)", a, err)
		}
		// The flyweights write the same bytes for what they read.
		var d AnyDecoder
		m, err := d.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if k, err := Reencode(m, again); err != nil || !bytes.Equal(again[:k], b) {
			t.Fatalf("Reencode wrote other bytes (%v)", err)
		}
		// A reader of the older schema sees the fields it knows.
		old, err := vers0.DecodeEvolvingOwned(b)
		if err != nil || old.A != o.A || old.D != o.D || len(old.G) != len(o.G) {
			t.Fatalf("the older reader read %+v (%v)", old, err)
		}
		for i := range o.G {
			if old.G[i].X != o.G[i].X {
				t.Fatalf("the older reader read entry %d as %+v", i, old.G[i])
			}
		}
		// A buffer too small is an error, never a panic or a partial success.
		if _, err := o.EncodeOwned(make([]byte, n-1)); err == nil {
			t.Fatalf("written into %d bytes of %d", n-1, n)
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 1000}); err != nil {
		t.Fatal(err)
	}
}

func TestAnOlderWritersMessageKeepsItsVersion(t *testing.T) {
	old := vers0.EvolvingOwned{
		SbeActingVersion: 0,
		A:                7,
		G:                []vers0.EvolvingGOwned{{X: -3}, {X: 9}},
		D:                "older",
	}
	buf := make([]byte, 256)
	n, err := old.EncodeOwned(buf)
	if err != nil {
		t.Fatal(err)
	}
	o, err := DecodeEvolvingOwned(buf[:n])
	if err != nil {
		t.Fatal(err)
	}
	want := EvolvingOwned{
		SbeActingVersion: 0,
		A:                7,
		G:                []EvolvingGOwned{{X: -3}, {X: 9}},
		D:                "older",
	}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("read %+v, want %+v", o, want)
	}
	again := make([]byte, 256)
	k, err := o.EncodeOwned(again)
	if err != nil || !bytes.Equal(again[:k], buf[:n]) {
		t.Fatalf("written again as other bytes (%v)", err)
	}
}

func TestANewerGroupIsLeftOutAtAnOlderVersion(t *testing.T) {
	o := NewGroupOwned{
		SbeActingVersion: 0,
		A:                1,
		G:                []NewGroupGOwned{{X: 2}},
		H:                []NewGroupHOwned{{Z: 3}},
		D:                "x",
	}
	buf := make([]byte, 256)
	n, err := o.EncodeOwned(buf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeNewGroupOwned(buf[:n])
	if err != nil {
		t.Fatal(err)
	}
	want := o
	want.H = nil
	if !reflect.DeepEqual(back, want) {
		t.Fatalf("read %+v, want %+v", back, want)
	}
	cur := o
	cur.SbeActingVersion = SchemaVersion
	m, err := cur.EncodeOwned(buf)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := DecodeNewGroupOwned(buf[:m]); err != nil || !reflect.DeepEqual(back, cur) {
		t.Fatalf("read %+v, want %+v (%v)", back, cur, err)
	}
}
