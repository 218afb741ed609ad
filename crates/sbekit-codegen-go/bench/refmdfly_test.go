package uk_co_real_logic_sbe_benchmarks_fix

import "testing"

var sink uint64

func encode(m *MarketDataIncrementalRefreshTrades, buf []byte) uint64 {
	m.WrapAndApplyHeader(buf, 0, uint64(len(buf)))
	m.SetTransactTime(1234).SetEventTimeDelta(1).SetMatchEventIndicator(MatchEventIndicator_END_EVENT)
	g := m.MdIncGrpCount(2)
	for k := uint64(0); k < 2; k++ {
		x := g.Next().SetTradeId(1234 + k).SetSecurityId(56789).SetNumberOfOrders(1).
			SetMdUpdateAction(MDUpdateAction_NEW).SetRptSeq(1).SetAggressorSide(Side_BUY)
		x.MdEntryPx().SetMantissa(50)
		x.MdEntrySize().SetMantissa(10)
	}
	return 8 + m.EncodedLength()
}

func decode(d *MarketDataIncrementalRefreshTrades, buf []byte) uint64 {
	var hdr MessageHeader
	n := uint64(len(buf))
	hdr.Wrap(buf, 0, 0, n)
	d.WrapForDecode(buf, hdr.EncodedLength(), uint64(hdr.BlockLength()), uint64(hdr.Version()), n)
	sum := d.TransactTime() + uint64(d.EventTimeDelta()) + uint64(d.MatchEventIndicator())
	g := d.MdIncGrp()
	for g.HasNext() {
		x := g.Next()
		sum += x.TradeId() + x.SecurityId() + uint64(x.MdEntryPx().Mantissa()) + uint64(x.MdEntrySize().Mantissa())
		sum += uint64(x.NumberOfOrders()) + uint64(x.MdUpdateAction()) + uint64(x.RptSeq()) + uint64(x.AggressorSide())
	}
	return sum
}

func BenchmarkRefFlyweightMDEncode(b *testing.B) {
	buf := make([]byte, 256)
	var x MarketDataIncrementalRefreshTrades
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += encode(&x, buf)
	}
}

func BenchmarkRefFlyweightMDDecode(b *testing.B) {
	buf := make([]byte, 256)
	var x MarketDataIncrementalRefreshTrades
	n := encode(&x, buf)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += decode(&x, buf[:n])
	}
}

// BenchmarkGo runs this package's cases under names shared by every implementation, for
// benchstat -col /impl.
func BenchmarkGo(b *testing.B) {
	b.Run("msg=MD/op=Encode/impl=refFlyweight", BenchmarkRefFlyweightMDEncode)
	b.Run("msg=MD/op=Decode/impl=refFlyweight", BenchmarkRefFlyweightMDDecode)
}
