//! The generated Java owned values (DTOs), run in one JVM:
//! - property: random `OrderDto`s of `orders-be.xml` (every field kind: numbers in range, null
//!   values, a char array, enums, a set, a composite, arrays, nested groups, text and byte var
//!   data) at every version of the schema encode, decode back to equal values (equal hashes),
//!   are the bytes the flyweights' `reencode` writes for them, and agree with `bytes`,
//!   `bytesWithHeader`, `encodeWith(dto, buffer, offset)` (no header) and `decodeFrom`;
//! - validation: each rule (a number outside its range, an array too long or holding one, text
//!   too long or not Latin-1, an unlisted enum value, var data too long, a group longer than its
//!   count type allows, set or grown after) is refused with `IllegalArgumentException`;
//! - an older writer's message (`versioned-v0.xml`) read by the newer schema's DTO keeps its
//!   version and writes the older bytes back.

mod common;

use common::*;
use sbekit_testdata::workspace_file;

const DRIVER: &str = r#"import java.util.*;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import ob.*;

public final class OwnedDriver {
    static int checks;

    static void check(final boolean ok, final String what) {
        if (!ok) throw new AssertionError(what);
        checks++;
    }

    static void refused(final String what, final Runnable r) {
        try {
            r.run();
        } catch (final IllegalArgumentException e) {
            check(e.getMessage() != null && !e.getMessage().isEmpty(), what + ": a message");
            return;
        }
        throw new AssertionError(what + ": not refused");
    }

    static String text(final SplittableRandom r, final int max) {
        final StringBuilder s = new StringBuilder();
        final int n = r.nextInt(max + 1);
        for (int i = 0; i < n; i++) s.append((char) ('A' + r.nextInt(26)));
        return s.toString();
    }

    static PriceDto price(final SplittableRandom r) {
        return new PriceDto().mantissa(r.nextLong(Long.MIN_VALUE + 1, Long.MAX_VALUE));
    }

    static OrderDto order(final SplittableRandom r) {
        final long v = r.nextInt((int) SbeSchema.SCHEMA_VERSION + 1);
        final OrderDto o = new OrderDto().actingVersion(v);
        o.orderId(r.nextLong(Long.MIN_VALUE, -1L) & Long.MAX_VALUE);
        o.symbol(text(r, 8));
        o.side(new Side[] {Side.BUY, Side.SELL, Side.NULL_VAL}[r.nextInt(3)]);
        o.price(price(r));
        o.qty(r.nextLong(0, 0xFFFF_FFFFL));
        o.weights(new short[] {(short) r.nextInt(-32767, 32768), (short) r.nextInt(-32767, 32768)});
        o.ratio(r.nextBoolean() ? Double.NaN : r.nextDouble(-1e9, 1e9));
        if (v >= 1) {
            o.flags().hidden(r.nextBoolean()).iceberg(r.nextBoolean());
            for (int i = r.nextInt(3); i > 0; i--) {
                final OrderDto.MarksDto m = new OrderDto.MarksDto();
                if (v >= 2) m.mark((short) r.nextInt(255));
                o.marks().add(m);
            }
            o.blob(new byte[r.nextInt(20)]);
            r.nextBytes(o.blob());
        }
        if (v >= 2) o.venue(new Venue[] {Venue.LIT, Venue.DARK, Venue.AUCTION, null}[r.nextInt(4)]);
        for (int i = r.nextInt(4); i > 0; i--) {
            final OrderDto.FillsDto f = new OrderDto.FillsDto().fillQty(r.nextLong(0, 0xFFFF_FFFFL));
            if (v >= 1) f.fillPrice(price(r));
            for (int j = r.nextInt(3); j > 0; j--) {
                f.legs().add(new OrderDto.FillsDto.LegsDto().ratio((short) r.nextInt(-32768, 32768)));
            }
            f.fillNote(text(r, 12) + "\u00e9\u20ac");
            o.fills().add(f);
        }
        o.note(text(r, 30));
        return o;
    }

    static void property(final int runs) {
        final SplittableRandom r = new SplittableRandom(20260401L);
        final SbeDispatcher dispatcher = new SbeDispatcher();
        final int hl = SbeSchema.HEADER_LENGTH;
        for (int k = 0; k < runs; k++) {
            final OrderDto o = order(r);
            final ExpandableArrayBuffer buf = new ExpandableArrayBuffer(16);
            final int n = OrderDto.encodeWithHeaderWith(o, buf, 0);
            check(n == hl + o.computeEncodedLength(), "computed length");
            final OrderDto back = new OrderDto();
            OrderDto.decodeWith(new OrderDecoder().wrap(buf, 0, n), back);
            check(back.equals(o) && back.hashCode() == o.hashCode(), "round trip:\n" + o + "\n" + back);
            check(back.actingVersion() == o.actingVersion(), "version kept");
            final byte[] wire = Arrays.copyOf(buf.byteArray(), n);
            final ExpandableArrayBuffer again = new ExpandableArrayBuffer(16);
            final int m = dispatcher.reencode(dispatcher.wrap(buf, 0, n), again, 0);
            check(Arrays.equals(Arrays.copyOf(again.byteArray(), m), wire), "the flyweights write the same bytes");
            check(Arrays.equals(OrderDto.bytesWithHeader(o), wire), "bytesWithHeader");
            final byte[] body = OrderDto.bytes(o);
            check(Arrays.equals(body, Arrays.copyOfRange(wire, hl, n)), "bytes: no header");
            final UnsafeBuffer at = new UnsafeBuffer(new byte[body.length + 5]);
            check(OrderDto.encodeWith(o, at, 5) == body.length, "encodeWith(dto, buffer, offset)");
            check(Arrays.equals(Arrays.copyOfRange(at.byteArray(), 5, 5 + body.length), body), "at an offset");
            final OrderDto from = OrderDto.decodeFrom(at, 5,
                OrderEncoder.sbeBlockLength(o.actingVersion()), (int) o.actingVersion());
            check(from.equals(o), "decodeFrom");
            check(!o.equals(new OrderDto()) || o.toString().equals(new OrderDto().toString()), "unequal");
            check(o.toString().startsWith("OrderDto{actingVersion=") && o.toString().contains("fills=["), "toString");
        }
    }

    static void validation() {
        final OrderDto o = new OrderDto();
        refused("uint64 above its maximum", () -> o.orderId(-1L));
        refused("uint32 below 0", () -> o.qty(-1L));
        refused("uint32 above its maximum", () -> o.qty(0xFFFF_FFFFL));
        o.qty(0L);
        check(!o.hasQty(), "an optional field's null value is allowed and means no value");
        o.qty(5L);
        check(o.hasQty() && o.qty() == 5L, "set");
        refused("a composite's member below its minimum", () -> o.price().mantissa(Long.MIN_VALUE));
        o.ratio(Double.POSITIVE_INFINITY);
        check(o.ratio() == Double.POSITIVE_INFINITY, "a double without schema bounds takes any value");
        o.ratio(Double.NaN);
        check(!o.hasRatio(), "NaN is the optional double's null value");
        refused("an array too long", () -> o.weights(new short[4]));
        refused("an array element below its minimum", () -> o.weights(new short[] {Short.MIN_VALUE}));
        o.weights(new short[] {1, 2});
        check(Arrays.equals(o.weights(), new short[] {1, 2, 0}), "short arrays padded with 0");
        refused("text too long for a char array", () -> o.symbol("ABCDEFGHI"));
        refused("bytes too long for a char array", () -> o.symbolBytes(new byte[9]));
        refused("a char with no Latin-1 byte", () -> o.symbol("\u0100"));
        o.symbol("ABC");
        check(o.symbol().equals("ABC") && o.symbolBytes()[3] == 0, "text padded with NULs");
        refused("SBE_UNKNOWN", () -> o.side(Side.SBE_UNKNOWN));
        refused("an unlisted raw enum value", () -> o.sideRaw((byte) 'X'));
        refused("an unlisted raw enum value (uint16)", () -> o.venueRaw(3));
        o.side(null);
        check(o.side() == Side.NULL_VAL, "null is the enum's null value");
        final String longNote = "x".repeat(1025);
        refused("text var data too long", () -> o.note(longNote));
        refused("var data bytes too long", () -> o.noteBytes(new byte[1025]));
        o.note("x".repeat(1024));
        final List<OrderDto.FillsDto> many = new ArrayList<>(Collections.nCopies(65535, new OrderDto.FillsDto()));
        refused("a group longer than its count type allows", () -> o.fills(many));
        o.fills(new ArrayList<>(many.subList(0, 65534)));
        o.fills().add(new OrderDto.FillsDto());
        refused("a group grown past its count type, at encode time",
            () -> OrderDto.encodeWithHeaderWith(o, new ExpandableArrayBuffer(16), 0));
        refused("a negative acting version", () -> o.actingVersion(-1));
    }

    static void olderWriter() {
        final v0.EvolvingDto old = new v0.EvolvingDto().a(7L).d("older");
        old.g().add(new v0.EvolvingDto.GDto().x((short) -3));
        final byte[] wire = v0.EvolvingDto.bytesWithHeader(old);
        final v1.EvolvingDto o = new v1.EvolvingDto();
        v1.EvolvingDto.decodeWith(new v1.EvolvingDecoder().wrap(new UnsafeBuffer(wire), 0, wire.length), o);
        check(o.actingVersion() == 0, "the older version is kept");
        check(o.a() == 7L && !o.hasB() && !o.hasC() && o.e().isEmpty(), "newer fields absent");
        check(o.g().size() == 1 && o.g().get(0).x() == -3 && !o.g().get(0).hasY(), "entries");
        check(Arrays.equals(v1.EvolvingDto.bytesWithHeader(o), wire), "written back as the older version");
        o.actingVersion(v1.SbeSchema.SCHEMA_VERSION).b(9L);
        final byte[] newer = v1.EvolvingDto.bytesWithHeader(o);
        check(newer.length > wire.length, "written at the schema's version");
    }

    public static void main(final String[] args) {
        property(Integer.parseInt(args[0]));
        validation();
        olderWriter();
        System.out.println("ok " + checks);
    }
}
"#;

#[test]
fn java_owned_values_round_trip_validate_and_keep_versions() {
    let test = "java_owned_values_round_trip_validate_and_keep_versions";
    let Some(jar) = toolchain(test) else { return };
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    for (pkg, schema) in [
        ("ob", "crates/sbekit-codegen-tests/schemas/orders-be.xml"),
        ("v0", "crates/sbekit-codegen-tests/schemas/versioned-v0.xml"),
        ("v1", "crates/sbekit-codegen-tests/schemas/versioned-v1.xml"),
    ] {
        let dir = generate(root.path(), pkg, &workspace_file(schema));
        java_files(&dir, &mut srcs);
    }
    let driver = root.path().join("OwnedDriver.java");
    std::fs::write(&driver, DRIVER).expect("driver");
    srcs.push(driver);
    let classes = root.path().join("classes");
    javac(&jar, &srcs, &classes);
    let out = java(&jar, &classes, "OwnedDriver", &["400"], &[]);
    let out = String::from_utf8_lossy(&out);
    eprintln!("{test}: {}", out.trim());
    assert!(out.starts_with("ok "), "{out}");
}
