package baseline

import (
	"bytes"
	"testing"
)

var sink uint64

func car() Car {
	var c Car
	c.SerialNumber = 1234
	c.ModelYear = 2013
	c.Available = BooleanType.T
	c.Code = Model.A
	c.SomeNumbers = [4]uint32{1, 2, 3, 4}
	copy(c.VehicleCode[:], "abcdef")
	c.Extras[0], c.Extras[2] = true, true
	c.DiscountedModel = Model.C
	c.Engine = Engine{Capacity: 2000, NumCylinders: 4, MaxRpm: 9000, Efficiency: 35, BoosterEnabled: BooleanType.T}
	copy(c.Engine.ManufacturerCode[:], "123")
	copy(c.Engine.Fuel[:], "Petrol")
	c.Engine.Booster = EngineBooster{BoostType: BoostType.NITROUS, HorsePower: 200}
	c.FuelFigures = []CarFuelFigures{{30, 35.9, []uint8("Urban Cycle")}, {55, 49.0, []uint8("Combined Cycle")}, {75, 40.0, []uint8("Highway Cycle")}}
	acc := []CarPerformanceFiguresAcceleration{{30, 4.0}, {60, 7.5}, {100, 12.2}}
	c.PerformanceFigures = []CarPerformanceFigures{{95, acc}, {99, acc}}
	c.Manufacturer = []uint8("Honda")
	c.Model = []uint8("Civic VTi")
	c.ActivationCode = []uint8("abcdef")
	return c
}

func encode(m *SbeGoMarshaller, c *Car, w *bytes.Buffer) {
	hdr := MessageHeader{BlockLength: c.SbeBlockLength(), TemplateId: c.SbeTemplateId(), SchemaId: c.SbeSchemaId(), Version: c.SbeSchemaVersion()}
	if err := hdr.Encode(m, w); err != nil {
		panic(err)
	}
	if err := c.Encode(m, w, true); err != nil {
		panic(err)
	}
}

func BenchmarkRefStructCarEncode(b *testing.B) {
	m := NewSbeGoMarshaller()
	c := car()
	w := bytes.NewBuffer(make([]byte, 0, 1024))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w.Reset()
		encode(m, &c, w)
		sink += uint64(w.Len())
	}
}

func BenchmarkRefStructCarDecode(b *testing.B) {
	m := NewSbeGoMarshaller()
	c := car()
	w := bytes.NewBuffer(make([]byte, 0, 1024))
	encode(m, &c, w)
	data := w.Bytes()
	r := bytes.NewReader(data)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Reset(data)
		var hdr MessageHeader
		var d Car
		if err := hdr.Decode(m, r, 0); err != nil {
			panic(err)
		}
		if err := d.Decode(m, r, hdr.Version, hdr.BlockLength, true); err != nil {
			panic(err)
		}
		sum := d.SerialNumber + uint64(d.ModelYear) + uint64(d.Available) + uint64(d.Code)
		for _, x := range d.SomeNumbers {
			sum += uint64(x)
		}
		sum += uint64(d.Engine.Capacity) + uint64(d.Engine.Booster.HorsePower)
		for _, f := range d.FuelFigures {
			sum += uint64(f.Speed) + uint64(f.Mpg) + uint64(len(f.UsageDescription))
		}
		for _, p := range d.PerformanceFigures {
			sum += uint64(p.OctaneRating)
			for _, a := range p.Acceleration {
				sum += uint64(a.Mph) + uint64(a.Seconds)
			}
		}
		sum += uint64(len(d.Manufacturer) + len(d.Model) + len(d.ActivationCode))
		sink += sum
	}
}

// BenchmarkGo runs this package's cases under names shared by every implementation, for
// benchstat -col /impl.
func BenchmarkGo(b *testing.B) {
	b.Run("msg=Car/op=Encode/impl=refStruct", BenchmarkRefStructCarEncode)
	b.Run("msg=Car/op=Decode/impl=refStruct", BenchmarkRefStructCarDecode)
}
