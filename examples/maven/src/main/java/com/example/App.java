package com.example;

import com.example.orders.OrderDecoder;
import com.example.orders.OrderEncoder;
import com.example.orders.SbeDecodeException;
import com.example.orders.Side;
import org.agrona.ExpandableArrayBuffer;

/** Writes an order with the generated encoder, reads it back, prints its JSON. */
public final class App {
    private App() {
    }

    /** Exits 1 if the order does not read back as written. */
    public static void main(final String[] args) {
        final ExpandableArrayBuffer buf = new ExpandableArrayBuffer(256);
        final OrderEncoder e = new OrderEncoder().wrap(buf, 0);
        e.orderId(1234).symbol("ACME").side(Side.BUY).qty(100);
        e.price().mantissa(1_234_500);
        e.fills().next().fillQty(60).fillNote("first");
        e.note("hello");
        final int len = e.encodedLength();

        final OrderDecoder d = new OrderDecoder().wrap(buf, 0, len);
        int filled = 0;
        for (final var f : d.fills()) {
            filled += (int) f.fillQty();
        }
        System.out.println(d);
        try {
            new OrderDecoder().wrap(buf, 0, len - 1);
            System.exit(1);
        } catch (final SbeDecodeException x) {
            System.out.println("truncated: " + x.getMessage());
        }
        if (d.orderId() != 1234 || filled != 60 || !d.noteString().equals("hello") || !d.symbolString().equals("ACME")) {
            System.exit(1);
        }
    }
}
