// Jazzer target for sbekit's generated Java (run by fuzz/run.sh over the module generated for
// crates/sbekit-codegen-tests/schemas/orders-be.xml: big-endian, versioned, nested groups, var
// data). Any input: `wrap` either throws the package's SbeDecodeException or accepts it; an
// accepted message prints as JSON, re-encodes at its acting version, and the re-encoded message
// decodes to the same JSON. Any other exception is a finding. The input is read twice, through
// views of its length over arrays whose bytes past it are 0x00 in one and 0xFF in the other:
// `wrap` reads without bounds checks once the room is checked, so a read past the message would
// see the two differ, and so would the outcomes.
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

public final class SbeFuzz {
    private static final orders.SbeDispatcher DISPATCHER = new orders.SbeDispatcher();
    private static final orders.SbeDispatcher AGAIN = new orders.SbeDispatcher();
    private static final ExpandableArrayBuffer OUT = new ExpandableArrayBuffer(4096);
    private static final StringBuilder FIRST = new StringBuilder();
    private static final StringBuilder SECOND = new StringBuilder();

    private SbeFuzz() {
    }

    /** Writes seed messages (Order and Cancel at versions 0, 1 and 2) into directory `args[0]`. */
    public static void main(final String[] args) throws java.io.IOException {
        final java.nio.file.Path dir = java.nio.file.Path.of(args[0]);
        final ExpandableArrayBuffer buf = new ExpandableArrayBuffer(256);
        for (int v = 0; v <= 2; v++) {
            final orders.OrderEncoder o = new orders.OrderEncoder().wrap(buf, 0, v);
            o.orderId(7).symbol("ACME").side(orders.Side.SELL).qty(100).ratio(0.5);
            o.price().mantissa(1234);
            o.flags().hidden(true).iceberg(true);
            o.venue(orders.Venue.DARK);
            final orders.OrderEncoder.OrderFillsEncoder f = o.fills();
            f.next().fillQty(3).fillPrice().mantissa(9);
            f.legs().next().ratio((short) 2).next().ratio((short) -1);
            f.fillNote("fill");
            f.next().fillQty(4);
            if (v >= 1) o.marks().next().mark((short) 1);
            o.note("note");
            o.blob(new byte[] {1, 2, 3}, 0, 3);
            java.nio.file.Files.write(dir.resolve("order-v" + v), java.util.Arrays.copyOf(buf.byteArray(), o.encodedLength()));
            final orders.CancelEncoder c = new orders.CancelEncoder().wrap(buf, 0, v);
            c.orderId(8).hints().next().hint(5).next().hint(6);
            java.nio.file.Files.write(dir.resolve("cancel-v" + v), java.util.Arrays.copyOf(buf.byteArray(), c.encodedLength()));
        }
    }

    /** `data`, then 64 bytes of `fill`, viewed as `data.length` bytes. */
    private static UnsafeBuffer padded(final byte[] data, final byte fill) {
        final byte[] a = java.util.Arrays.copyOf(data, data.length + 64);
        java.util.Arrays.fill(a, data.length, a.length, fill);
        return new UnsafeBuffer(a, 0, data.length);
    }

    /** The outcome of reading `b`: its JSON, or the refusal's kind and offset. */
    private static String outcome(final orders.SbeDispatcher d, final UnsafeBuffer b, final StringBuilder out) {
        out.setLength(0);
        try {
            d.wrap(b, 0, b.capacity()).appendJson(out);
            return out.toString();
        } catch (final orders.SbeDecodeException e) {
            return "refused: " + e.getMessage();
        }
    }

    public static void fuzzerTestOneInput(final byte[] data) {
        final String zeros = outcome(AGAIN, padded(data, (byte) 0), SECOND);
        final String ones = outcome(AGAIN, padded(data, (byte) 0xFF), SECOND);
        if (!zeros.equals(ones)) {
            throw new IllegalStateException("the bytes past the message change what is read:\n" + zeros + "\n" + ones);
        }
        final orders.SbeMessageDecoder m;
        try {
            m = DISPATCHER.wrap(new UnsafeBuffer(data), 0, data.length);
        } catch (final orders.SbeDecodeException e) {
            return;
        }
        FIRST.setLength(0);
        m.appendJson(FIRST);
        final int len = DISPATCHER.reencode(m, OUT, 0);
        SECOND.setLength(0);
        AGAIN.wrap(OUT, 0, len).appendJson(SECOND);
        if (!FIRST.toString().contentEquals(SECOND)) {
            throw new IllegalStateException("re-encoded message reads differently:\n" + FIRST + "\n" + SECOND);
        }
    }
}
