//! Generated Java run in one JVM per mode:
//! - the reference car vectors decode to the reference's JSON goldens (value for value) and
//!   re-encode byte-identically;
//! - random messages (`sbekit_otf::random`, at every version, of our own schemas and the car
//!   schemas) decode to the JSON `sbekit decode` prints, also at an offset inside a larger
//!   buffer, and re-encode to bytes that decode to it again;
//! - every strict prefix of them is refused with the package's `SbeDecodeException`, never
//!   another exception (`IndexOutOfBoundsException` included);
//! - re-encoding into every shorter fixed buffer throws `SbeEncodeException` (`bufferTooSmall`);
//! - the encoders' section order, skipped sections and counts (`orders-be.xml`,
//!   `market-data.xml`), and that bytes left unset are zero whatever the buffer held.

mod common;

use common::*;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_testdata::{frames, unframe, workspace_file};
use serde_json::Value;
use std::path::PathBuf;

/// Numbers compared as values, a top-level `"$version"` ignored; everything else exactly.
fn same(a: &Value, b: &Value) -> bool {
    fn strip(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut m = m.clone();
                m.remove("$version");
                Value::Object(m)
            }
            o => o.clone(),
        }
    }
    sbekit_testdata::same_json(&strip(a), &strip(b))
}

/// The test driver: `Driver json|reencode|probe|short|order|counted <pkg>`.
fn driver(pkgs: &[String]) -> String {
    let mut s = String::from(
        r#"import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

public final class Driver {
    interface Probe { String probe(byte[] msg); }
    interface Short { String check(byte[] msg); }

    static byte[] read(java.io.InputStream in) throws java.io.IOException {
        final byte[] h = in.readNBytes(4);
        if (h.length < 4) return null;
        final int n = (h[0] & 0xFF) | (h[1] & 0xFF) << 8 | (h[2] & 0xFF) << 16 | (h[3] & 0xFF) << 24;
        return in.readNBytes(n);
    }
"#,
    );
    for p in pkgs {
        s.push_str(&format!(
            r#"
    static String probe_{p}(final byte[] msg) {{
        final {p}.SbeDispatcher d = new {p}.SbeDispatcher();
        try {{
            final String a = d.wrap(new UnsafeBuffer(msg), 0, msg.length).appendJson(new StringBuilder()).toString();
            // The same message at offset 3 of a larger buffer.
            final UnsafeBuffer big = new UnsafeBuffer(new byte[msg.length + 7]);
            big.putBytes(3, msg);
            final String b = d.wrap(big, 3, msg.length).appendJson(new StringBuilder()).toString();
            return a.equals(b) ? "ok " + a : "offset differs " + b;
        }} catch (final {p}.SbeDecodeException e) {{
            return "error " + e.kind().text();
        }} catch (final Throwable t) {{
            return "OTHER " + t;
        }}
    }}

    static String short_{p}(final byte[] msg) {{
        final {p}.SbeDispatcher d = new {p}.SbeDispatcher();
        try {{
            final {p}.SbeMessageDecoder m = d.wrap(new UnsafeBuffer(msg), 0, msg.length);
            final ExpandableArrayBuffer full = new ExpandableArrayBuffer(16);
            final int len = d.reencode(m, full, 0);
            for (int cap = 0; cap <= len; cap++) {{
                final UnsafeBuffer b = new UnsafeBuffer(new byte[cap]);
                try {{
                    final int got = d.reencode(m, b, 0);
                    if (cap < len) return "capacity " + cap + " of " + len + ": accepted";
                    if (got != len || !b.equals(new UnsafeBuffer(full.byteArray(), 0, len))) return "not the same bytes";
                }} catch (final {p}.SbeEncodeException e) {{
                    if (cap == len || e.kind() != {p}.SbeEncodeException.Kind.BUFFER_TOO_SMALL) return "capacity " + cap + ": " + e;
                }}
            }}
            return "ok";
        }} catch (final Throwable t) {{
            return "OTHER " + t;
        }}
    }}
"#
        ));
    }
    s.push_str(
        r#"
    static int order() {
        final ExpandableArrayBuffer buf = new ExpandableArrayBuffer(64);
        try {
            new orders.OrderEncoder().wrap(buf, 0).note("x").fills();
            return 1;
        } catch (final orders.SbeEncodeException e) {
            if (e.kind() != orders.SbeEncodeException.Kind.OUT_OF_ORDER) return 2;
        }
        // An entry added to a group that a later section closed would land after that section,
        // uncounted: refused.
        final orders.OrderEncoder e0 = new orders.OrderEncoder().wrap(buf, 0);
        final var marks = e0.marks();
        marks.next().mark((short) 1);
        e0.blob(new byte[] {'y'}, 0, 1);
        try {
            marks.next();
            return 13;
        } catch (final orders.SbeEncodeException x) {
            if (x.kind() != orders.SbeEncodeException.Kind.OUT_OF_ORDER) return 14;
        }
        final orders.OrderEncoder e = new orders.OrderEncoder().wrap(buf, 0);
        e.orderId(7).side(orders.Side.SELL).symbol("ACME");
        e.marks().next().mark((short) 1).next().mark((short) 2);
        e.blob(new byte[] {'y', 'z'}, 0, 2);
        final int len = e.encodedLength();
        final orders.OrderDecoder d = new orders.OrderDecoder().wrap(buf, 0, len);
        if (d.encodedLength() != len || d.orderId() != 7 || d.side() != orders.Side.SELL) return 3;
        if (!d.symbolString().equals("ACME") || d.hasQty() || d.qty() != orders.OrderDecoder.qtyNullValue()) return 4;
        if (d.fills().count() != 0 || d.marks().count() != 2 || d.noteLength() != 0 || !d.blobString().equals("yz")) return 5;
        int sum = 0;
        for (final var m : d.marks()) sum += m.mark();
        if (sum != 3) return 6;
        // A failed wrap leaves the decoder as it was.
        final String before = d.toString();
        try {
            d.wrap(buf, 0, len - 1);
            return 11;
        } catch (final orders.SbeDecodeException x) {
            if (!d.toString().equals(before) || d.encodedLength() != len) return 12;
        }
        // An unknown enum value is kept.
        e.wrap(buf, 0).sideRaw((byte) 'Q');
        final int len2 = e.encodedLength();
        final orders.OrderDecoder d2 = new orders.OrderDecoder().wrap(buf, 0, len2);
        if (d2.side() != orders.Side.SBE_UNKNOWN || d2.sideRaw() != 'Q') return 7;
        // Text longer than its array is refused.
        try {
            e.wrap(buf, 0).symbol("ABCDEFGHI");
            return 8;
        } catch (final orders.SbeEncodeException x) {
            if (x.kind() != orders.SbeEncodeException.Kind.VALUE_TOO_LONG) return 9;
        }
        // Written at version 0: newer fields and sections left out, version 0 in the header.
        final orders.OrderEncoder old = new orders.OrderEncoder().wrap(buf, 0, 0);
        old.orderId(9).flags().hidden(true);
        old.marks();
        final int len3 = old.encodedLength();
        final orders.OrderDecoder d3 = new orders.OrderDecoder().wrap(buf, 0, len3);
        if (d3.actingVersion() != 0 || d3.hasFlags() || d3.marks().count() != 0 || d3.blockLength() != 43) return 10;
        return 0;
    }

    static int counted() {
        final ExpandableArrayBuffer buf = new ExpandableArrayBuffer(64);
        final md.MarketUpdatesEncoder e = new md.MarketUpdatesEncoder().wrap(buf, 0);
        e.sequenceNumber(42);
        final md.MarketUpdatesEncoder.MarketUpdatesTradesEncoder t = e.trades();
        for (int i = 0; i < 3; i++) t.next().timestamp(100 + i).size(i);
        if (t.count() != 3) return 1;
        final int len = e.encodedLength();
        final md.MarketUpdatesDecoder d = new md.MarketUpdatesDecoder().wrap(buf, 0, len);
        if (d.sequenceNumber() != 42 || d.trades().count() != 3 || d.levelUpdates().count() != 0) return 2;
        long i = 0;
        for (final var x : d.trades()) {
            if (x.timestamp() != 100 + i || x.size() != i) return 3;
            i++;
        }
        // More entries than a uint16 count allows (65534) are refused.
        final md.MarketUpdatesEncoder.MarketUpdatesTradesEncoder many = new md.MarketUpdatesEncoder().wrap(buf, 0).trades();
        try {
            for (int k = 0; k < 70000; k++) many.next();
            return 4;
        } catch (final md.SbeEncodeException x) {
            if (x.kind() != md.SbeEncodeException.Kind.COUNT_TOO_LARGE || many.count() != 65534) return 5;
        }
        return 0;
    }

    // What the caller leaves unset reads as zero whatever the buffer held: the same message
    // written into a buffer of 0xFF bytes and into a zeroed one is the same bytes (message and
    // entry fields, composites, nested groups and empty entries left unset). The dirty buffer
    // is direct memory and the clean one an array: the encoders zero both through raw stores.
    static int dirty() {
        final org.agrona.MutableDirectBuffer[] bufs = {
            new org.agrona.concurrent.UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(512)), new ExpandableArrayBuffer(512) };
        bufs[0].setMemory(0, 512, (byte) 0xFF);
        final int[] lens = new int[4];
        for (int k = 0; k < 2; k++) {
            final orders.OrderEncoder e = new orders.OrderEncoder().wrap(bufs[k], 0);
            e.orderId(7);
            final orders.OrderEncoder.OrderFillsEncoder f = e.fills();
            f.next().fillQty(5);
            f.legs().next().next().ratio((short) 3);
            f.next();
            e.marks().next().next().mark((short) 2);
            lens[k] = e.encodedLength();
            final md.MarketUpdatesEncoder m = new md.MarketUpdatesEncoder().wrap(bufs[k], 256);
            final md.MarketUpdatesEncoder.MarketUpdatesTradesEncoder t = m.trades();
            t.next().size(3);
            t.next();
            m.levelUpdates().next().flags((short) 1);
            lens[2 + k] = m.encodedLength();
        }
        if (lens[0] != lens[1] || lens[2] != lens[3]) return 1;
        for (int i = 0; i < lens[0]; i++) if (bufs[0].getByte(i) != bufs[1].getByte(i)) return 2;
        for (int i = 256; i < 256 + lens[2]; i++) if (bufs[0].getByte(i) != bufs[1].getByte(i)) return 3;
        final orders.OrderDecoder d = new orders.OrderDecoder().wrap(bufs[0], 0, lens[0]);
        if (d.orderId() != 7 || d.fills().count() != 2 || d.marks().count() != 2) return 4;
        return 0;
    }

    public static void main(final String[] args) throws Exception {
        final String mode = args[0];
        if (mode.equals("order")) System.exit(order());
        if (mode.equals("counted")) System.exit(counted());
        if (mode.equals("dirty")) System.exit(dirty());
        final String p = args[1];
        if (mode.equals("json") || mode.equals("reencode")) {
            final Class<?> c = Class.forName(p + ".SbeConformance");
            System.exit((Integer) c.getMethod("run", String.class, java.io.InputStream.class, java.io.OutputStream.class)
                .invoke(null, mode, System.in, System.out));
        }
        final java.io.InputStream in = new java.io.BufferedInputStream(System.in);
        final StringBuilder out = new StringBuilder();
        byte[] msg;
        while ((msg = read(in)) != null) {
            switch (mode + " " + p) {
"#,
    );
    for p in pkgs {
        s.push_str(&format!(
            "                case \"probe {p}\": out.append(probe_{p}(msg)); break;\n                case \"short {p}\": out.append(short_{p}(msg)); break;\n"
        ));
    }
    s.push_str(
        r#"                default: System.exit(2);
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
"#,
    );
    s
}

#[test]
fn generated_java_runs() {
    let test = "generated_java_runs";
    let Some(jar) = toolchain(test) else { return };
    let refs = sbekit_testdata::CAR_SCHEMAS;
    let mut schemas: Vec<(String, PathBuf)> = vec![
        (
            "orders".into(),
            workspace_file("crates/sbekit-codegen-tests/schemas/orders-be.xml"),
        ),
        ("md".into(), workspace_file("schemas/market-data.xml")),
        (
            "vers".into(),
            workspace_file("crates/sbekit-codegen-tests/schemas/versioned-v1.xml"),
        ),
    ];
    let have_refs = refs
        .iter()
        .all(|r| sbekit_testdata::require_reference(r, test).is_some());
    if have_refs {
        for (i, r) in refs.iter().enumerate() {
            schemas.push((
                format!("ref{i}"),
                sbekit_testdata::reference_sbe_dir().join(r),
            ));
        }
    }
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    for (pkg, path) in &schemas {
        java_files(&generate(root.path(), pkg, path), &mut srcs);
    }
    let pkgs: Vec<String> = schemas.iter().map(|s| s.0.clone()).collect();
    let drv = root.path().join("Driver.java");
    std::fs::write(&drv, driver(&pkgs)).expect("driver");
    srcs.push(drv);
    let classes = root.path().join("classes");
    javac(&jar, &srcs, &classes);
    let run = |args: &[&str], input: &[u8]| java(&jar, &classes, "Driver", args, input);

    let mut checked = 0;
    let mut prefixes = 0;
    let mut shorts = 0;
    for (i, (pkg, path)) in schemas.iter().enumerate() {
        let ir = sbekit_schema::load_ir(path).expect("schema");
        let dec = sbekit_otf::Decoder::new(&ir).expect("otf");
        let mut rng = Rng::new(0x7a7a + i as u64);
        let version = u32::try_from(ir.version).unwrap_or(0);
        let mut msgs = Vec::new();
        for m in &ir.messages {
            for k in 0..6u32 {
                let o = Options {
                    writer_version: Some(k % (version + 2)),
                    extra_block: if k % (version + 2) > version { 3 } else { 0 },
                    ..Options::default()
                };
                msgs.push(random_message(&ir, m, &mut rng, &o).bytes);
            }
        }
        let json = run(&["json", pkg], &frames(&msgs));
        let re = unframe(&run(&["reencode", pkg], &frames(&msgs)));
        let lines: Vec<&str> = std::str::from_utf8(&json).expect("utf8").lines().collect();
        assert_eq!(lines.len(), msgs.len(), "{pkg}: one line per message");
        assert_eq!(re.len(), msgs.len(), "{pkg}: one frame per message");
        for ((m, line), r) in msgs.iter().zip(&lines).zip(&re) {
            let (want, _) = sbekit_otf::message_to_json(&dec, m, false).expect("otf");
            let want: Value = serde_json::from_str(&want).expect("json");
            let got: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{pkg}: Java prints JSON ({e}): {line}"));
            assert!(
                same(&want, &got),
                "{pkg}: JSON differs\n  otf:  {want}\n  Java: {got}"
            );
            let (again, _) =
                sbekit_otf::message_to_json(&dec, r, false).expect("re-encoded decodes");
            let again: Value = serde_json::from_str(&again).expect("json");
            assert!(
                same(&want, &again),
                "{pkg}: re-encoded differs\n  otf:  {want}\n  Java: {again}"
            );
            checked += 1;
        }
        // Whole messages (also at an offset), then every strict prefix of the first ones.
        let out = run(&["probe", pkg], &frames(&msgs));
        for l in String::from_utf8_lossy(&out).lines() {
            assert!(l.starts_with("ok "), "{pkg}: {l}");
        }
        let mut cut = Vec::new();
        for m in msgs.iter().take(24) {
            for n in 0..m.len() {
                cut.push(m[..n].to_vec());
            }
        }
        let out = run(&["probe", pkg], &frames(&cut));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(text.lines().count(), cut.len());
        for (l, c) in text.lines().zip(&cut) {
            assert!(
                l.starts_with("error "),
                "{pkg}: a prefix of {} bytes: {l}",
                c.len()
            );
        }
        prefixes += cut.len();
        let out = run(&["short", pkg], &frames(&msgs));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(text.lines().count(), msgs.len());
        for l in text.lines() {
            assert_eq!(l, "ok", "{pkg}: re-encoding into short buffers");
        }
        shorts += msgs.len();
    }

    for mode in ["order", "counted", "dirty"] {
        run(&[mode], &[]);
    }

    if have_refs {
        // The car schemas follow the program's own three, in `CAR_SCHEMAS` order.
        for car in sbekit_testdata::CAR_VECTORS {
            let Some((bytes, want)) = car.load(test) else {
                return;
            };
            let (vector, schema) = (car.vector, 3 + car.schema);
            let pkg = &schemas[schema].0;
            let one = frames(std::slice::from_ref(&bytes));
            let got: Value =
                serde_json::from_slice(&run(&["json", pkg], &one)).expect("Java prints JSON");
            assert!(
                same(&want, &got),
                "{vector}: golden differs\n  want: {want}\n  Java: {got}"
            );
            let re = unframe(&run(&["reencode", pkg], &one));
            if car.same_bytes {
                assert_eq!(re[0], bytes, "{vector}: re-encoded bytes differ");
            }
            let cut: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
            let out = run(&["probe", pkg], &frames(&cut));
            let text = String::from_utf8_lossy(&out);
            assert_eq!(text.lines().count(), cut.len());
            for l in text.lines() {
                assert!(l.starts_with("error "), "{vector}: a prefix: {l}");
            }
            prefixes += cut.len();
        }
    }
    eprintln!(
        "{test}: {checked} random messages equal to sbekit decode and re-encoded, {prefixes} truncations refused with SbeDecodeException, {shorts} re-encoded into every shorter buffer and refused"
    );
}

/// A var-data section newer than the message's acting version is absent: every accessor of it
/// reads as empty (length 0, nothing copied), also when the message ends exactly at the end of
/// its buffer, where the section's position (the message's end plus its length prefix) is past
/// the buffer's capacity and Agrona's bounds checks refuse even a zero-length access there (the
/// accessors read an absent section at 0).
#[test]
fn absent_var_data_reads_as_empty_at_the_end_of_the_buffer() {
    let test = "absent_var_data_reads_as_empty_at_the_end_of_the_buffer";
    let Some(jar) = toolchain(test) else { return };
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    let schema = workspace_file("crates/sbekit-codegen-tests/schemas/orders-be.xml");
    java_files(&generate(root.path(), "orders", &schema), &mut srcs);
    let main = root.path().join("Absent.java");
    std::fs::write(
        &main,
        r#"import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

public final class Absent {
    interface Call { int call(); }

    static void check(final StringBuilder out, final String what, final Call c) {
        try {
            final int v = c.call();
            out.append(what).append(" = ").append(v).append('\n');
        } catch (final RuntimeException x) {
            out.append(what).append(" threw ").append(x).append('\n');
        }
    }

    public static void main(final String[] args) {
        // An Order at version 0: `blob` (since version 1) is left out.
        final ExpandableArrayBuffer w = new ExpandableArrayBuffer(64);
        final orders.OrderEncoder e = new orders.OrderEncoder().wrap(w, 0, 0);
        e.orderId(7).note("n");
        final int len = e.encodedLength();
        final byte[] bytes = new byte[len];
        w.getBytes(0, bytes);
        final orders.OrderDecoder d = new orders.OrderDecoder().wrap(new UnsafeBuffer(bytes), 0, len);
        final StringBuilder out = new StringBuilder();
        check(out, "actingVersion", () -> (int) d.actingVersion());
        check(out, "blobLength()", () -> d.blobLength());
        check(out, "getBlob(byte[], int, 0)", () -> d.getBlob(new byte[8], 0, 0));
        check(out, "getBlob(byte[], int, 8)", () -> d.getBlob(new byte[8], 0, 8));
        check(out, "getBlob(MutableDirectBuffer, int)", () -> d.getBlob(new UnsafeBuffer(new byte[8]), 0));
        check(out, "blob().capacity()", () -> d.blob().capacity());
        check(out, "blobString().length()", () -> d.blobString().length());
        System.out.print(out);
    }
}
"#,
    )
    .expect("Absent.java");
    srcs.push(main);
    let classes = root.path().join("classes");
    javac(&jar, &srcs, &classes);
    let out = java(&jar, &classes, "Absent", &[], &[]);
    let text = String::from_utf8(out).expect("utf8");
    assert_eq!(text.lines().count(), 7, "{text}");
    let wrong: Vec<&str> = text.lines().filter(|l| !l.ends_with(" = 0")).collect();
    assert!(
        wrong.is_empty(),
        "accessors of an absent var-data section:\n{}",
        wrong.join("\n")
    );
}
