// The codecs of CarBenchmark and MarketDataBenchmark timed in alternation, for a machine whose
// load moves: per round, each variant runs N operations in turn (the order rotating), and the
// ratio sbekit / reference of each round is taken from slices that ran side by side. Prints per
// benchmark the median ns/op of each and the median of the per-round ratios. Run by
// bench/run.sh alternate [benchmark prefix] [rounds] [operations per slice].
package bench;

import java.util.Arrays;

public final class Alternate {
    static volatile long sink;

    interface Op {
        long run(int n);
    }

    private Alternate() {
    }

    // One loop method per variant, each calling its codec directly: a loop shared through `Op`
    // would make the call inside it megamorphic and time the dispatch, not the codec.
    static long carRefEncode(final CarBenchmark.Ref s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += CarBenchmark.refEncode(s, s.encodeBuffer);
        return x;
    }

    static long carKitEncode(final CarBenchmark.Kit s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += CarBenchmark.kitEncode(s, s.encodeBuffer);
        return x;
    }

    static long carRefDecode(final CarBenchmark.Ref s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += CarBenchmark.refDecode(s);
        return x;
    }

    static long carKitDecode(final CarBenchmark.Kit s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += CarBenchmark.kitDecode(s);
        return x;
    }

    static long mdRefEncode(final MarketDataBenchmark.Ref s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += MarketDataBenchmark.refEncode(s, s.encodeBuffer);
        return x;
    }

    static long mdKitEncode(final MarketDataBenchmark.Kit s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += MarketDataBenchmark.kitEncode(s, s.encodeBuffer);
        return x;
    }

    static long mdRefDecode(final MarketDataBenchmark.Ref s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += MarketDataBenchmark.refDecode(s);
        return x;
    }

    static long mdKitDecode(final MarketDataBenchmark.Kit s, final int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += MarketDataBenchmark.kitDecode(s);
        return x;
    }

    public static void main(final String[] args) {
        final String only = args.length > 0 ? args[0] : "";
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 41;
        final int n = args.length > 2 ? Integer.parseInt(args[2]) : 50_000;
        final CarBenchmark.Ref cr = new CarBenchmark.Ref();
        final CarBenchmark.Kit ck = new CarBenchmark.Kit();
        final MarketDataBenchmark.Ref mr = new MarketDataBenchmark.Ref();
        final MarketDataBenchmark.Kit mk = new MarketDataBenchmark.Kit();
        final String[] names = {"car-encode", "car-decode", "md-encode", "md-decode"};
        final Op[][] ops = {
            {k -> carRefEncode(cr, k), k -> carKitEncode(ck, k)},
            {k -> carRefDecode(cr, k), k -> carKitDecode(ck, k)},
            {k -> mdRefEncode(mr, k), k -> mdKitEncode(mk, k)},
            {k -> mdRefDecode(mr, k), k -> mdKitDecode(mk, k)},
        };
        System.out.println("benchmark   reference ns/op  sbekit ns/op  sbekit / reference (median of rounds)");
        for (int b = 0; b < names.length; b++) {
            if (!names[b].startsWith(only)) continue;
            final Op[] pair = ops[b];
            for (int w = 0; w < 40; w++) for (final Op op : pair) sink += op.run(n / 4);
            final double[][] t = new double[2][rounds];
            for (int r = 0; r < rounds; r++) {
                for (int v = 0; v < 2; v++) {
                    final int j = (v + r) % 2;
                    final long t0 = System.nanoTime();
                    sink += pair[j].run(n);
                    t[j][r] = (System.nanoTime() - t0) / (double) n;
                }
            }
            final double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) ratio[r] = t[1][r] / t[0][r];
            System.out.printf("%-11s %15.1f %13.1f %10.2f%n", names[b], median(t[0]), median(t[1]), median(ratio));
        }
    }

    static double median(final double[] x) {
        final double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
