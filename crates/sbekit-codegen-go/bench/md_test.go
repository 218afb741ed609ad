package md

import "testing"

var sink uint64

func encodeMD(buf []byte) int {
	var e MarketDataIncrementalRefreshTradesEncoder
	e.Wrap(buf, SchemaVersion)
	e.SetTransactTime(1234).SetEventTimeDelta(1).SetMatchEventIndicator(MatchEventIndicatorEndEvent)
	g := e.MdIncGrp()
	for k := uint64(0); k < 2; k++ {
		x := g.Next().SetTradeId(1234 + k).SetSecurityId(56789).SetNumberOfOrders(1).
			SetMdUpdateAction(MdUpdateActionNew).SetRptSeq(1).SetAggressorSide(SideBuy)
		x.MdEntryPx().SetMantissa(50)
		x.MdEntrySize().SetMantissa(10)
	}
	n, err := e.Finish()
	if err != nil {
		panic(err)
	}
	return n
}

func decodeMD(b []byte) uint64 {
	var d MarketDataIncrementalRefreshTrades
	if err := d.Wrap(b); err != nil {
		panic(err)
	}
	sum := d.TransactTime() + uint64(d.EventTimeDelta()) + uint64(d.MatchEventIndicator())
	for it := d.MdIncGrp(); it.Next(); {
		x := it.Entry()
		sum += x.TradeId() + x.SecurityId() + uint64(x.MdEntryPx().Mantissa()) + uint64(x.MdEntrySize().Mantissa())
		sum += uint64(x.NumberOfOrders()) + uint64(x.MdUpdateAction()) + uint64(x.RptSeq()) + uint64(x.AggressorSide())
	}
	return sum
}

func TestMDNoAllocations(t *testing.T) {
	buf := make([]byte, 256)
	n := encodeMD(buf)
	if a := testing.AllocsPerRun(1000, func() { encodeMD(buf) }) + testing.AllocsPerRun(1000, func() { decodeMD(buf[:n]) }); a != 0 {
		t.Fatalf("%v allocations", a)
	}
}

func BenchmarkMDEncode(b *testing.B) {
	buf := make([]byte, 256)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += uint64(encodeMD(buf))
	}
}

func BenchmarkMDDecode(b *testing.B) {
	buf := make([]byte, 256)
	n := encodeMD(buf)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += decodeMD(buf[:n])
	}
}

// BenchmarkGo runs this package's cases under names shared by every implementation, for
// benchstat -col /impl.
func BenchmarkGo(b *testing.B) {
	b.Run("msg=MD/op=Encode/impl=sbekit", BenchmarkMDEncode)
	b.Run("msg=MD/op=Decode/impl=sbekit", BenchmarkMDDecode)
}
