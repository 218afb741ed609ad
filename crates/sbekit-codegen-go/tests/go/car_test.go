// Tests and benchmarks of the Go generated for the reference's example-schema.xml (package
// `car`): no allocation on the decode and encode paths, a fuzz target on the decoder, and the
// Car encode/decode benchmarks. Copied into a generated module by tests/run.rs and by hand for
// `go test -fuzz` and `go test -bench` (docs/BENCHMARKS.md, "Issue 23: Go").
package car

import (
	"bytes"
	"testing"
)

var (
	vehicleCode = []byte("abcdef")
	mfrCode     = []byte("123")
)

// encodeCar writes the reference's car example message.
func encodeCar(buf []byte) int {
	var e CarEncoder
	e.Wrap(buf, SchemaVersion)
	e.SetSerialNumber(1234).SetModelYear(2013).SetAvailable(BooleanTypeT).SetCode(ModelA)
	e.SetSomeNumbers([4]uint32{1, 2, 3, 4}).SetVehicleCode(vehicleCode)
	e.SetExtras(OptionalExtrasSunRoof | OptionalExtrasCruiseControl)
	e.Engine().SetCapacity(2000).SetNumCylinders(4).SetManufacturerCode(mfrCode).
		SetEfficiency(35).SetBoosterEnabled(BooleanTypeT).Booster().SetBoostType(BoostTypeNitrous).SetHorsePower(200)
	ff := e.FuelFigures()
	ff.Next().SetSpeed(30).SetMpg(35.9).SetUsageDescriptionString("Urban Cycle")
	ff.Next().SetSpeed(55).SetMpg(49.0).SetUsageDescriptionString("Combined Cycle")
	ff.Next().SetSpeed(75).SetMpg(40.0).SetUsageDescriptionString("Highway Cycle")
	pf := e.PerformanceFigures()
	for _, octane := range []byte{95, 99} {
		a := pf.Next().SetOctaneRating(octane).Acceleration()
		a.Next().SetMph(30).SetSeconds(4.0)
		a.Next().SetMph(60).SetSeconds(7.5)
		a.Next().SetMph(100).SetSeconds(12.2)
	}
	e.SetManufacturerString("Honda").SetModelString("Civic VTi").SetActivationCodeString("abcdef")
	n, err := e.Finish()
	if err != nil {
		panic(err)
	}
	return n
}

// decodeCar reads every field of a car message.
func decodeCar(b []byte) uint64 {
	var d Car
	if err := d.Wrap(b); err != nil {
		panic(err)
	}
	sum := d.SerialNumber() + uint64(d.ModelYear()) + uint64(d.Available()) + uint64(d.Code())
	for _, x := range d.SomeNumbers() {
		sum += uint64(x)
	}
	sum += uint64(len(d.VehicleCode())) + uint64(d.Extras())
	eng := d.Engine()
	sum += uint64(eng.Capacity()) + uint64(eng.NumCylinders()) + uint64(len(eng.ManufacturerCode()))
	sum += uint64(eng.Booster().HorsePower())
	for it := d.FuelFigures(); it.Next(); {
		f := it.Entry()
		sum += uint64(f.Speed()) + uint64(f.Mpg()) + uint64(len(f.UsageDescription()))
	}
	for it := d.PerformanceFigures(); it.Next(); {
		p := it.Entry()
		sum += uint64(p.OctaneRating())
		for a := p.Acceleration(); a.Next(); {
			sum += uint64(a.Entry().Mph()) + uint64(a.Entry().Seconds())
		}
	}
	sum += uint64(len(d.Manufacturer()) + len(d.Model()) + len(d.ActivationCode()))
	return sum
}

func TestNoAllocations(t *testing.T) {
	buf := make([]byte, 1024)
	n := encodeCar(buf)
	if a := testing.AllocsPerRun(1000, func() { encodeCar(buf) }); a != 0 {
		t.Errorf("encode: %v allocations per run", a)
	}
	if a := testing.AllocsPerRun(1000, func() { decodeCar(buf[:n]) }); a != 0 {
		t.Errorf("decode: %v allocations per run", a)
	}
	var any AnyDecoder
	out := make([]byte, 0, 4096)
	if a := testing.AllocsPerRun(1000, func() {
		m, err := any.Decode(buf[:n])
		if err != nil {
			panic(err)
		}
		out = m.AppendJSON(out[:0])
	}); a != 0 {
		t.Errorf("decode any + AppendJSON: %v allocations per run", a)
	}
	re := make([]byte, 1024)
	if a := testing.AllocsPerRun(1000, func() {
		m, _ := any.Decode(buf[:n])
		if _, err := Reencode(m, re); err != nil {
			panic(err)
		}
	}); a != 0 {
		t.Errorf("reencode: %v allocations per run", a)
	}
}

func TestRoundTripAndTruncations(t *testing.T) {
	buf := make([]byte, 1024)
	n := encodeCar(buf)
	var d Car
	if err := d.Wrap(buf[:n]); err != nil {
		t.Fatal(err)
	}
	if d.SbeEncodedLength() != n {
		t.Fatalf("encoded length %d, want %d", d.SbeEncodedLength(), n)
	}
	re := make([]byte, 1024)
	k, err := Reencode(&d, re)
	if err != nil || !bytes.Equal(re[:k], buf[:n]) {
		t.Fatalf("re-encoded differently (%v)", err)
	}
	for i := 0; i < n; i++ {
		if err := d.Wrap(buf[:i]); err == nil {
			t.Fatalf("a prefix of %d bytes was accepted", i)
		} else if _, ok := err.(*DecodeError); !ok {
			t.Fatalf("not a *DecodeError: %v", err)
		}
	}
	// Every buffer too small is refused, never written past.
	for c := 0; c < n; c++ {
		small := make([]byte, c)
		m, _ := (&AnyDecoder{}).Decode(buf[:n])
		if _, err := Reencode(m, small); err == nil {
			t.Fatalf("capacity %d accepted", c)
		}
	}
}

// The zero value of every decoder reads as an empty message (fields read their null values,
// groups have no entries, var data is empty): no accessor panics.
func TestZeroValueDecoders(t *testing.T) {
	var d Car
	_ = d.SerialNumber() + uint64(d.Engine().Capacity()) + uint64(d.Engine().Booster().HorsePower())
	n := len(d.VehicleCode()) + len(d.Manufacturer()) + len(d.ActivationCodeString())
	for it := d.FuelFigures(); it.Next(); {
		n++
	}
	var e CarFuelFigures
	_ = e.Speed()
	n += len(e.UsageDescription())
	var p CarPerformanceFigures
	for a := p.Acceleration(); a.Next(); {
		n++
	}
	if n != 0 {
		t.Fatalf("zero decoders have %d entries or bytes", n)
	}
	if got := string(d.AppendJSON(nil)); got == "" {
		t.Fatal("no JSON")
	}
}

func FuzzCarDecode(f *testing.F) {
	buf := make([]byte, 1024)
	f.Add(buf[:encodeCar(buf)])
	re := make([]byte, 1<<16)
	var out []byte
	f.Fuzz(func(t *testing.T, b []byte) {
		var d Car
		if d.Wrap(b) != nil {
			return
		}
		decodeCar(b)
		out = d.AppendJSON(out[:0])
		if len(b)+4096 <= len(re) {
			if _, err := Reencode(&d, re); err != nil {
				t.Fatalf("re-encoding a decoded message: %v", err)
			}
		}
	})
}

var sink uint64

func BenchmarkCarEncode(b *testing.B) {
	buf := make([]byte, 1024)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += uint64(encodeCar(buf))
	}
}

func BenchmarkCarDecode(b *testing.B) {
	buf := make([]byte, 1024)
	n := encodeCar(buf)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += decodeCar(buf[:n])
	}
}

// BenchmarkGo runs this package's cases under names shared by every implementation, for
// benchstat -col /impl.
func BenchmarkGo(b *testing.B) {
	b.Run("msg=Car/op=Encode/impl=sbekit", BenchmarkCarEncode)
	b.Run("msg=Car/op=Decode/impl=sbekit", BenchmarkCarDecode)
}

// Misuse is refused with an error (sections out of order, too many entries, a buffer too
// small), never a panic; a writer whose group was closed by a later write adds nothing.
func TestMisuse(t *testing.T) {
	buf := make([]byte, 1<<20)
	// out of order var data
	var e CarEncoder
	e.Wrap(buf, SchemaVersion)
	e.SetModelString("x").SetManufacturerString("y")
	if _, err := e.Finish(); err == nil || err.(*EncodeError).Kind != ErrOutOfOrder {
		t.Fatalf("out of order: %v", err)
	}
	// group after var data
	e.Wrap(buf, SchemaVersion)
	e.SetModelString("x")
	e.FuelFigures().Next().SetSpeed(1)
	if _, err := e.Finish(); err == nil {
		t.Fatal("group after var data accepted")
	}
	// stale leaf writer after parent's next entry: refused silently, message well-formed
	e.Wrap(buf, SchemaVersion)
	pf := e.PerformanceFigures()
	a := pf.Next().Acceleration()
	a.Next().SetMph(1)
	pf.Next()
	a.Next().SetMph(2) // stale
	n, err := e.Finish()
	if err != nil {
		t.Fatal(err)
	}
	var d Car
	if err := d.Wrap(buf[:n]); err != nil {
		t.Fatal(err)
	}
	cnt := 0
	for it := d.PerformanceFigures(); it.Next(); {
		for x := it.Entry().Acceleration(); x.Next(); {
			cnt++
		}
	}
	if cnt != 1 {
		t.Fatalf("accel entries %d", cnt)
	}
	// stale root leaf-less writer after var data
	e.Wrap(buf, SchemaVersion)
	ff := e.FuelFigures()
	ff.Next().SetUsageDescriptionString("a")
	e.SetManufacturerString("m")
	ff.Next()
	n, err = e.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Wrap(buf[:n]); err != nil {
		t.Fatal(err)
	}
	if d.FuelFigures().Count() != 1 || string(d.Manufacturer()) != "m" {
		t.Fatal("stale fuel figures writer wrote")
	}
	// too many entries
	e.Wrap(buf, SchemaVersion)
	a = e.PerformanceFigures().Next().Acceleration()
	for i := 0; i < 70000; i++ {
		a.Next()
	}
	if _, err := e.Finish(); err == nil || err.(*EncodeError).Kind != ErrCountTooLarge {
		t.Fatalf("count: %v", err)
	}
	// skipped sections filled: fuel figure without description, then next
	e.Wrap(buf, SchemaVersion)
	ff = e.FuelFigures()
	ff.Next().SetSpeed(1)
	ff.Next().SetSpeed(2).SetUsageDescriptionString("zz")
	e.SetActivationCodeString("q")
	n, err = e.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Wrap(buf[:n]); err != nil {
		t.Fatal(err)
	}
	it := d.FuelFigures()
	it.Next()
	if len(it.Entry().UsageDescription()) != 0 {
		t.Fatal()
	}
	it.Next()
	if string(it.Entry().UsageDescription()) != "zz" || string(d.ActivationCode()) != "q" || d.PerformanceFigures().Count() != 0 {
		t.Fatal("fill")
	}
	// every small buffer: error, no panic
	full := make([]byte, 1024)
	k := encodeCar(full)
	for c := 0; c < k; c++ {
		b := make([]byte, c)
		var e2 CarEncoder
		e2.Wrap(b, SchemaVersion)
		e2.SetSerialNumber(1)
		f := e2.FuelFigures()
		f.Next().SetSpeed(1).SetUsageDescriptionString("Urban Cycle")
		f.Next().SetSpeed(1).SetUsageDescriptionString("Urban Cycle")
		p := e2.PerformanceFigures()
		x := p.Next().SetOctaneRating(1).Acceleration()
		x.Next().SetMph(1)
		x.Next().SetMph(1)
		e2.SetManufacturerString("Honda").SetModelString("Civic VTi").SetActivationCodeString("abcdef")
		if _, err := e2.Finish(); err == nil && c < 100 {
			t.Fatalf("capacity %d accepted", c)
		}
	}
}
