// JMH: MarketDataIncrementalRefreshTrades (two entries) encoded and decoded by sbekit's
// generated Java and by the reference's generated Java (sbe-all 1.38.1), each driven as the
// reference's sbe-benchmarks drive it. Both codecs in one JVM. Run by bench/run.sh.
package bench;

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.*;

public class MarketDataBenchmark {
    @State(Scope.Benchmark)
    public static class Ref {
        final uk.co.real_logic.sbe.benchmarks.fix.MessageHeaderEncoder headerEncoder = new uk.co.real_logic.sbe.benchmarks.fix.MessageHeaderEncoder();
        final uk.co.real_logic.sbe.benchmarks.fix.MessageHeaderDecoder headerDecoder = new uk.co.real_logic.sbe.benchmarks.fix.MessageHeaderDecoder();
        final uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesEncoder encoder = new uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesEncoder();
        final uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesDecoder decoder = new uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesDecoder();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));

        {
            refEncode(this, decodeBuffer);
        }
    }

    @State(Scope.Benchmark)
    public static class Kit {
        final sbekit.bench.fix.MarketDataIncrementalRefreshTradesEncoder encoder = new sbekit.bench.fix.MarketDataIncrementalRefreshTradesEncoder();
        final sbekit.bench.fix.MarketDataIncrementalRefreshTradesDecoder decoder = new sbekit.bench.fix.MarketDataIncrementalRefreshTradesDecoder();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));

        {
            kitEncode(this, decodeBuffer);
        }
    }

    @Benchmark
    public int referenceEncode(final Ref s) {
        return refEncode(s, s.encodeBuffer);
    }

    @Benchmark
    public int referenceDecode(final Ref s) {
        return refDecode(s);
    }

    @Benchmark
    public int sbekitEncode(final Kit s) {
        return kitEncode(s, s.encodeBuffer);
    }

    @Benchmark
    public int sbekitDecode(final Kit s) {
        return kitDecode(s);
    }

    static int refEncode(final Ref s, final UnsafeBuffer buffer) {
        final uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesEncoder md = s.encoder;
        md.wrapAndApplyHeader(buffer, 0, s.headerEncoder)
            .transactTime(1234L)
            .eventTimeDelta(987)
            .matchEventIndicator(uk.co.real_logic.sbe.benchmarks.fix.MatchEventIndicator.END_EVENT);
        final uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesEncoder.MdIncGrpEncoder g = md.mdIncGrpCount(2);
        g.next().tradeId(1234L).securityId(56789L);
        g.mdEntryPx().mantissa(50);
        g.mdEntrySize().mantissa(10);
        g.numberOfOrders(1).mdUpdateAction(uk.co.real_logic.sbe.benchmarks.fix.MDUpdateAction.NEW).rptSeq((short) 1)
            .aggressorSide(uk.co.real_logic.sbe.benchmarks.fix.Side.BUY);
        g.next().tradeId(1234L).securityId(56789L);
        g.mdEntryPx().mantissa(150);
        g.mdEntrySize().mantissa(25);
        g.numberOfOrders(1).mdUpdateAction(uk.co.real_logic.sbe.benchmarks.fix.MDUpdateAction.NEW).rptSeq((short) 1)
            .aggressorSide(uk.co.real_logic.sbe.benchmarks.fix.Side.SELL);
        return s.headerEncoder.encodedLength() + md.encodedLength();
    }

    static int refDecode(final Ref s) {
        final uk.co.real_logic.sbe.benchmarks.fix.MessageHeaderDecoder header = s.headerDecoder;
        final uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesDecoder md = s.decoder;
        header.wrap(s.decodeBuffer, 0);
        md.wrap(s.decodeBuffer, header.encodedLength(), header.blockLength(), header.version());
        long sum = 0;
        sum += md.transactTime();
        sum += md.eventTimeDelta();
        sum += md.matchEventIndicator().value();
        for (final uk.co.real_logic.sbe.benchmarks.fix.MarketDataIncrementalRefreshTradesDecoder.MdIncGrpDecoder g : md.mdIncGrp()) {
            sum += g.tradeId();
            sum += g.securityId();
            sum += g.mdEntryPx().mantissa();
            sum += g.mdEntrySize().mantissa();
            sum += g.numberOfOrders();
            sum += g.mdUpdateAction().value();
            sum += g.rptSeq();
            sum += g.aggressorSide().value();
            sum += g.mdEntryType().value();
        }
        return (int) sum;
    }

    static int kitEncode(final Kit s, final UnsafeBuffer buffer) {
        final sbekit.bench.fix.MarketDataIncrementalRefreshTradesEncoder md = s.encoder;
        md.wrap(buffer, 0)
            .transactTime(1234L)
            .eventTimeDelta(987)
            .matchEventIndicator(sbekit.bench.fix.MatchEventIndicator.END_EVENT);
        final sbekit.bench.fix.MarketDataIncrementalRefreshTradesEncoder.MarketDataIncrementalRefreshTradesMdIncGrpEncoder g = md.mdIncGrp();
        g.next().tradeId(1234L).securityId(56789L);
        g.mdEntryPx().mantissa(50);
        g.mdEntrySize().mantissa(10);
        g.numberOfOrders(1).mdUpdateAction(sbekit.bench.fix.MdUpdateAction.NEW).rptSeq((short) 1)
            .aggressorSide(sbekit.bench.fix.Side.BUY);
        g.next().tradeId(1234L).securityId(56789L);
        g.mdEntryPx().mantissa(150);
        g.mdEntrySize().mantissa(25);
        g.numberOfOrders(1).mdUpdateAction(sbekit.bench.fix.MdUpdateAction.NEW).rptSeq((short) 1)
            .aggressorSide(sbekit.bench.fix.Side.SELL);
        return md.encodedLength();
    }

    static int kitDecode(final Kit s) {
        final sbekit.bench.fix.MarketDataIncrementalRefreshTradesDecoder md = s.decoder;
        md.wrap(s.decodeBuffer, 0);
        long sum = 0;
        sum += md.transactTime();
        sum += md.eventTimeDelta();
        sum += md.matchEventIndicatorRaw();
        for (final sbekit.bench.fix.MarketDataIncrementalRefreshTradesDecoder.MarketDataIncrementalRefreshTradesMdIncGrpDecoder g : md.mdIncGrp()) {
            sum += g.tradeId();
            sum += g.securityId();
            sum += g.mdEntryPx().mantissa();
            sum += g.mdEntrySize().mantissa();
            sum += g.numberOfOrders();
            sum += g.mdUpdateActionRaw();
            sum += g.rptSeq();
            sum += g.aggressorSideRaw();
            sum += g.mdEntryType().value();
        }
        return (int) sum;
    }
}
