package uk_co_real_logic_sbe_benchmarks_fix

import (
	"bytes"
	"testing"
)

var sink uint64

func msg() MarketDataIncrementalRefreshTrades {
	var m MarketDataIncrementalRefreshTrades
	m.TransactTime = 1234
	m.EventTimeDelta = 1
	m.MatchEventIndicator = MatchEventIndicator.END_EVENT
	for k := uint64(0); k < 2; k++ {
		m.MdIncGrp = append(m.MdIncGrp, MarketDataIncrementalRefreshTradesMdIncGrp{
			TradeId: 1234 + k, SecurityId: 56789, MdEntryPx: Decimal64{Mantissa: 50, Exponent: 7},
			MdEntrySize: IntQty32{Mantissa: 10}, NumberOfOrders: 1, MdUpdateAction: MDUpdateAction.NEW,
			RptSeq: 1, AggressorSide: Side.BUY, MdEntryType: MDEntryType.TRADE})
	}
	return m
}

func encode(m *SbeGoMarshaller, x *MarketDataIncrementalRefreshTrades, w *bytes.Buffer) {
	hdr := MessageHeader{BlockLength: x.SbeBlockLength(), TemplateId: x.SbeTemplateId(), SchemaId: x.SbeSchemaId(), Version: x.SbeSchemaVersion()}
	if err := hdr.Encode(m, w); err != nil {
		panic(err)
	}
	if err := x.Encode(m, w, true); err != nil {
		panic(err)
	}
}

func BenchmarkRefStructMDEncode(b *testing.B) {
	m := NewSbeGoMarshaller()
	x := msg()
	w := bytes.NewBuffer(make([]byte, 0, 256))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w.Reset()
		encode(m, &x, w)
		sink += uint64(w.Len())
	}
}

func BenchmarkRefStructMDDecode(b *testing.B) {
	m := NewSbeGoMarshaller()
	x := msg()
	w := bytes.NewBuffer(make([]byte, 0, 256))
	encode(m, &x, w)
	data := w.Bytes()
	r := bytes.NewReader(data)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Reset(data)
		var hdr MessageHeader
		var d MarketDataIncrementalRefreshTrades
		if err := hdr.Decode(m, r, 0); err != nil {
			panic(err)
		}
		if err := d.Decode(m, r, hdr.Version, hdr.BlockLength, true); err != nil {
			panic(err)
		}
		sum := d.TransactTime + uint64(d.EventTimeDelta) + uint64(d.MatchEventIndicator)
		for _, g := range d.MdIncGrp {
			sum += g.TradeId + g.SecurityId + uint64(g.MdEntryPx.Mantissa) + uint64(g.MdEntrySize.Mantissa)
			sum += uint64(g.NumberOfOrders) + uint64(g.MdUpdateAction) + uint64(g.RptSeq) + uint64(g.AggressorSide)
		}
		sink += sum
	}
}

// BenchmarkGo runs this package's cases under names shared by every implementation, for
// benchstat -col /impl.
func BenchmarkGo(b *testing.B) {
	b.Run("msg=MD/op=Encode/impl=refStruct", BenchmarkRefStructMDEncode)
	b.Run("msg=MD/op=Decode/impl=refStruct", BenchmarkRefStructMDDecode)
}
