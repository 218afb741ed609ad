package baseline

import "testing"

var sink uint64

func encode(c *Car, buf []byte) uint64 {
	n := uint64(len(buf))
	c.WrapAndApplyHeader(buf, 0, n)
	c.SetSerialNumber(1234).SetModelYear(2013).SetAvailable(BooleanType_T).SetCode(Model_A)
	for i, x := range [4]uint32{1, 2, 3, 4} {
		c.SetSomeNumbersIndex(uint64(i), x)
	}
	c.SetVehicleCode("abcdef")
	c.Extras().SetSunRoof(true).SetSportsPack(false).SetCruiseControl(true)
	c.Engine().SetCapacity(2000).SetNumCylinders(4).SetManufacturerCode("123").
		SetEfficiency(35).SetBoosterEnabled(BooleanType_T).Booster().SetBoostType(BoostType_NITROUS).SetHorsePower(200)
	ff := c.FuelFiguresCount(3)
	ff.Next().SetSpeed(30).SetMpg(35.9).PutUsageDescription("Urban Cycle")
	ff.Next().SetSpeed(55).SetMpg(49.0).PutUsageDescription("Combined Cycle")
	ff.Next().SetSpeed(75).SetMpg(40.0).PutUsageDescription("Highway Cycle")
	pf := c.PerformanceFiguresCount(2)
	for _, octane := range []uint8{95, 99} {
		a := pf.Next().SetOctaneRating(octane).AccelerationCount(3)
		a.Next().SetMph(30).SetSeconds(4.0)
		a.Next().SetMph(60).SetSeconds(7.5)
		a.Next().SetMph(100).SetSeconds(12.2)
	}
	c.PutManufacturer("Honda").PutModel("Civic VTi").PutActivationCode("abcdef")
	return 8 + c.EncodedLength()
}

func decode(d *Car, buf []byte, scratch []byte) uint64 {
	var hdr MessageHeader
	n := uint64(len(buf))
	hdr.Wrap(buf, 0, 0, n)
	d.WrapForDecode(buf, hdr.EncodedLength(), uint64(hdr.BlockLength()), uint64(hdr.Version()), n)
	sum := d.SerialNumber() + uint64(d.ModelYear()) + uint64(d.Available()) + uint64(d.Code())
	for i := uint64(0); i < 4; i++ {
		sum += uint64(d.SomeNumbersIndex(i))
	}
	sum += uint64(len(d.VehicleCode()))
	if d.Extras().SunRoof() {
		sum++
	}
	e := d.Engine()
	sum += uint64(e.Capacity()) + uint64(e.NumCylinders()) + uint64(len(e.ManufacturerCode()))
	sum += uint64(e.Booster().HorsePower())
	ff := d.FuelFigures()
	for ff.HasNext() {
		f := ff.Next()
		sum += uint64(f.Speed()) + uint64(f.Mpg()) + uint64(f.GetUsageDescription(scratch))
	}
	pf := d.PerformanceFigures()
	for pf.HasNext() {
		p := pf.Next()
		sum += uint64(p.OctaneRating())
		a := p.Acceleration()
		for a.HasNext() {
			x := a.Next()
			sum += uint64(x.Mph()) + uint64(x.Seconds())
		}
	}
	sum += uint64(d.GetManufacturer(scratch) + d.GetModel(scratch) + d.GetActivationCode(scratch))
	return sum
}

func BenchmarkRefFlyweightCarEncode(b *testing.B) {
	buf := make([]byte, 1024)
	var x Car
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += encode(&x, buf)
	}
}

func BenchmarkRefFlyweightCarDecode(b *testing.B) {
	buf := make([]byte, 1024)
	var x Car
	n := encode(&x, buf)
	scratch := make([]byte, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += decode(&x, buf[:n], scratch)
	}
}

// BenchmarkGo runs this package's cases under names shared by every implementation, for
// benchstat -col /impl.
func BenchmarkGo(b *testing.B) {
	b.Run("msg=Car/op=Encode/impl=refFlyweight", BenchmarkRefFlyweightCarEncode)
	b.Run("msg=Car/op=Decode/impl=refFlyweight", BenchmarkRefFlyweightCarDecode)
}
