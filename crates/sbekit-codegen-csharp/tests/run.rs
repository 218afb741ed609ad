//! Generated C# run in one Mono process per mode:
//! - the reference car vectors decode to the reference's JSON goldens (value for value) and
//!   re-encode byte-identically;
//! - random messages (`sbekit_otf::random`, at every version, of our own schemas and the car
//!   schemas) decode to the JSON `sbekit decode` prints, also at an offset inside a larger
//!   buffer, and re-encode to bytes that decode to it again;
//! - every strict prefix of them is refused with the namespace's `SbeDecodeException`, never
//!   another exception (`IndexOutOfRangeException` included);
//! - messages with random bytes changed are accepted (with the same JSON) or refused exactly as
//!   `sbekit decode` accepts or refuses them;
//! - re-encoding into every shorter buffer throws `SbeEncodeException` (`BufferTooSmall`);
//! - the encoders' section order, skipped sections and counts (`orders-be.xml`,
//!   `market-data.xml`);
//! - decoding and encoding the car message allocate nothing (`GC.CollectionCount(0)` and
//!   `GC.GetAllocatedBytesForCurrentThread` over a loop).

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

/// The test driver: `Driver.exe json|reencode|probe|short <ns>`, `Driver.exe order|counted`,
/// `Driver.exe alloc <ns>` (the car schema's namespace).
fn driver(nss: &[String]) -> String {
    let mut s = String::from(
        r#"using System;
using System.IO;
using System.Text;

public static class Driver
{
    static int ReadFully(Stream s, byte[] b, int n)
    {
        int got = 0;
        while (got < n)
        {
            int k = s.Read(b, got, n - got);
            if (k <= 0) break;
            got += k;
        }
        return got;
    }

    static byte[] Read(Stream s)
    {
        var h = new byte[4];
        if (ReadFully(s, h, 4) < 4) return null;
        int n = h[0] | h[1] << 8 | h[2] << 16 | h[3] << 24;
        var m = new byte[n];
        ReadFully(s, m, n);
        return m;
    }
"#,
    );
    for p in nss {
        s.push_str(&format!(
            r#"
    static string Probe_{p}(byte[] msg)
    {{
        var d = new {p}.SbeDispatcher();
        try
        {{
            string a = d.Wrap(msg, 0, msg.Length).AppendJson(new StringBuilder()).ToString();
            // The same message at offset 3 of a larger buffer.
            var big = new byte[msg.Length + 7];
            Array.Copy(msg, 0, big, 3, msg.Length);
            string b = d.Wrap(big, 3, msg.Length).AppendJson(new StringBuilder()).ToString();
            return a == b ? "ok " + a : "offset differs " + b;
        }}
        catch ({p}.SbeDecodeException e)
        {{
            return "error " + {p}.SbeDecodeException.Text(e.Kind);
        }}
        catch (Exception t)
        {{
            return "OTHER " + t.GetType() + " " + t.Message;
        }}
    }}

    static string Short_{p}(byte[] msg)
    {{
        var d = new {p}.SbeDispatcher();
        try
        {{
            var m = d.Wrap(msg, 0, msg.Length);
            var full = new byte[2 * msg.Length + 4096];
            int len = d.Reencode(m, full, 0, full.Length);
            for (int cap = 0; cap <= len; cap++)
            {{
                var b = new byte[cap];
                try
                {{
                    int got = d.Reencode(m, b, 0, cap);
                    if (cap < len) return "capacity " + cap + " of " + len + ": accepted";
                    if (got != len) return "not the same length";
                    for (int i = 0; i < len; i++) if (b[i] != full[i]) return "not the same bytes";
                }}
                catch ({p}.SbeEncodeException e)
                {{
                    if (cap == len || e.Kind != {p}.SbeEncodeErrorKind.BufferTooSmall) return "capacity " + cap + ": " + e.Message;
                }}
            }}
            return "ok";
        }}
        catch (Exception t)
        {{
            return "OTHER " + t.GetType() + " " + t.Message;
        }}
    }}
"#
        ));
    }
    s.push_str(
        r#"
    static int Order()
    {
        var buf = new byte[256];
        try
        {
            new Orders.OrderEncoder().Wrap(buf, 0).Note("x").Fills();
            return 1;
        }
        catch (Orders.SbeEncodeException x)
        {
            if (x.Kind != Orders.SbeEncodeErrorKind.OutOfOrder) return 2;
        }
        // An entry added to a group that a later section closed would land after that section,
        // uncounted: refused.
        var e0 = new Orders.OrderEncoder().Wrap(buf, 0);
        var marks = e0.Marks();
        marks.Next().Mark(1);
        e0.Blob(new byte[] { (byte)'y' }, 0, 1);
        try
        {
            marks.Next();
            return 13;
        }
        catch (Orders.SbeEncodeException x)
        {
            if (x.Kind != Orders.SbeEncodeErrorKind.OutOfOrder) return 14;
        }
        var e = new Orders.OrderEncoder().Wrap(buf, 0);
        e.OrderId(7).Side(Orders.Side.Sell).Symbol("ACME");
        e.Marks().Next().Mark(1).Next().Mark(2);
        e.Blob(new byte[] { (byte)'y', (byte)'z' }, 0, 2);
        int len = e.EncodedLength();
        var d = new Orders.OrderDecoder().Wrap(buf, 0, len);
        if (d.EncodedLength() != len || d.OrderId() != 7 || d.Side() != Orders.Side.Sell) return 3;
        if (d.SymbolString() != "ACME" || d.HasQty() || d.Qty() != Orders.OrderDecoder.QtyNullValue()) return 4;
        if (d.Fills().Count() != 0 || d.Marks().Count() != 2 || d.NoteLength() != 0 || d.BlobString() != "yz") return 5;
        int sum = 0;
        foreach (var m in d.Marks()) sum += m.Mark();
        if (sum != 3) return 6;
        // A failed Wrap leaves the decoder as it was.
        string before = d.ToString();
        try
        {
            d.Wrap(buf, 0, len - 1);
            return 11;
        }
        catch (Orders.SbeDecodeException)
        {
            if (d.ToString() != before || d.EncodedLength() != len) return 12;
        }
        // An unknown enum value is kept.
        e.Wrap(buf, 0).SideRaw((byte)'Q');
        int len2 = e.EncodedLength();
        var d2 = new Orders.OrderDecoder().Wrap(buf, 0, len2);
        if ((byte)d2.Side() != (byte)'Q' || d2.SideRaw() != 'Q' || d2.Side() == Orders.Side.Buy) return 7;
        // Text longer than its array is refused.
        try
        {
            e.Wrap(buf, 0).Symbol("ABCDEFGHI");
            return 8;
        }
        catch (Orders.SbeEncodeException x)
        {
            if (x.Kind != Orders.SbeEncodeErrorKind.ValueTooLong) return 9;
        }
        // Written at version 0: newer fields and sections left out, version 0 in the header.
        var old = new Orders.OrderEncoder().Wrap(buf, 0, 0L);
        old.OrderId(9).Flags().Hidden(true);
        old.Marks();
        int len3 = old.EncodedLength();
        var d3 = new Orders.OrderDecoder().Wrap(buf, 0, len3);
        if (d3.ActingVersion() != 0 || d3.HasFlags() || d3.Marks().Count() != 0 || d3.BlockLength() != 43) return 10;
        return 0;
    }

    static int Counted()
    {
        var buf = new byte[1 << 22];
        var e = new Md.MarketUpdatesEncoder().Wrap(buf, 0);
        e.SequenceNumber(42);
        var t = e.Trades();
        for (int i = 0; i < 3; i++) t.Next().Timestamp(100 + i).Size((uint)i);
        if (t.Count() != 3) return 1;
        int len = e.EncodedLength();
        var d = new Md.MarketUpdatesDecoder().Wrap(buf, 0, len);
        if (d.SequenceNumber() != 42 || d.Trades().Count() != 3 || d.LevelUpdates().Count() != 0) return 2;
        long k = 0;
        foreach (var x in d.Trades())
        {
            if (x.Timestamp() != 100 + k || x.Size() != k) return 3;
            k++;
        }
        // More entries than a uint16 count allows (65534) are refused.
        var many = new Md.MarketUpdatesEncoder().Wrap(buf, 0).Trades();
        try
        {
            for (int j = 0; j < 70000; j++) many.Next();
            return 4;
        }
        catch (Md.SbeEncodeException x)
        {
            if (x.Kind != Md.SbeEncodeErrorKind.CountTooLarge || many.Count() != 65534) return 5;
        }
        return 0;
    }

    // What the caller leaves unset reads as zero whatever the buffer held: the same message
    // written into a buffer of 0xFF bytes and into a zeroed one is the same bytes (message and
    // entry fields, composites, nested groups and empty entries left unset).
    static int Dirty()
    {
        var bufs = new byte[][] { new byte[512], new byte[512] };
        for (int i = 0; i < 512; i++) bufs[0][i] = 0xFF;
        var lens = new int[4];
        for (int k = 0; k < 2; k++)
        {
            var e = new Orders.OrderEncoder().Wrap(bufs[k], 0);
            e.OrderId(7);
            var f = e.Fills();
            f.Next().FillQty(5);
            f.Legs().Next().Next().Ratio(3);
            f.Next();
            e.Marks().Next().Next().Mark(2);
            lens[k] = e.EncodedLength();
            var m = new Md.MarketUpdatesEncoder().Wrap(bufs[k], 256);
            var t = m.Trades();
            t.Next().Size(3);
            t.Next();
            m.LevelUpdates().Next().Flags(1);
            lens[2 + k] = m.EncodedLength();
        }
        if (lens[0] != lens[1] || lens[2] != lens[3]) return 1;
        for (int i = 0; i < lens[0]; i++) if (bufs[0][i] != bufs[1][i]) return 2;
        for (int i = 256; i < 256 + lens[2]; i++) if (bufs[0][i] != bufs[1][i]) return 3;
        var d = new Orders.OrderDecoder().Wrap(bufs[0], 0, lens[0]);
        if (d.OrderId() != 7 || d.Fills().Count() != 2 || d.Marks().Count() != 2) return 4;
        return 0;
    }

    public static int Main(string[] args)
    {
        string mode = args[0];
        if (mode == "order") return Order();
        if (mode == "counted") return Counted();
        if (mode == "dirty") return Dirty();
        string p = args[1];
        var stdin = new BufferedStream(Console.OpenStandardInput());
        var stdout = new BufferedStream(Console.OpenStandardOutput());
        if (mode == "alloc") return Alloc(p, stdin);
        if (mode == "json" || mode == "reencode")
        {
            int rc;
            switch (p)
            {
"#,
    );
    for p in nss {
        s.push_str(&format!(
            "                case \"{p}\": rc = {p}.SbeConformance.Run(mode, stdin, stdout); break;\n"
        ));
    }
    s.push_str(
        r#"                default: return 2;
            }
            stdout.Flush();
            return rc;
        }
        var output = new StringBuilder();
        byte[] msg;
        while ((msg = Read(stdin)) != null)
        {
            switch (mode + " " + p)
            {
"#,
    );
    for p in nss {
        s.push_str(&format!(
            "                case \"probe {p}\": output.Append(Probe_{p}(msg)); break;\n                case \"short {p}\": output.Append(Short_{p}(msg)); break;\n"
        ));
    }
    s.push_str(
        r#"                default: return 2;
            }
            output.Append('\n');
        }
        var bytes = Encoding.UTF8.GetBytes(output.ToString());
        stdout.Write(bytes, 0, bytes.Length);
        stdout.Flush();
        return 0;
    }
"#,
    );
    s
}

/// The allocation check over the car schema's namespace `ns` (the first message of stdin is a
/// car): decodes (every field, group and var-data view) and re-encodes it 1M times each and
/// prints the gen-0 collections and bytes allocated by the loops.
fn alloc_fn(ns: &str) -> String {
    format!(
        r#"
    static int Alloc(string p, Stream stdin)
    {{
        var msg = Read(stdin);
        var d = new {ns}.CarDecoder();
        var e = new {ns}.CarEncoder();
        var outBuf = new byte[msg.Length + 256];
        long sink = 0;
        for (int w = 0; w < 2; w++)
        {{
            long gc0 = GC.CollectionCount(0);
            long b0 = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000000; i++)
            {{
                d.Wrap(msg, 0, msg.Length);
                sink += (long)d.SerialNumber() + d.ModelYear() + d.Engine().Capacity() + d.SomeNumbers(2);
                foreach (var f in d.FuelFigures()) sink += f.Speed() + f.UsageDescription().Count;
                foreach (var pf in d.PerformanceFigures())
                {{
                    foreach (var a in pf.Acceleration()) sink += a.Mph();
                }}
                sink += d.Manufacturer().Count + d.Model().Count;
                d.SbeCopyTo(e.Wrap(outBuf, 0, outBuf.Length, d.ActingVersion()));
                sink += e.EncodedLength();
            }}
            long gc1 = GC.CollectionCount(0);
            long b1 = GC.GetAllocatedBytesForCurrentThread();
            if (w == 1) Console.WriteLine("gc0 " + (gc1 - gc0) + " bytes " + (b1 - b0) + " sink " + sink);
        }}
        return 0;
    }}
"#
    )
}

#[test]
fn generated_csharp_runs() {
    let test = "generated_csharp_runs";
    if !toolchain(test) {
        return;
    }
    let refs = sbekit_testdata::CAR_SCHEMAS;
    let mut schemas: Vec<(String, PathBuf)> = vec![
        (
            "Orders".into(),
            workspace_file("crates/sbekit-codegen-tests/schemas/orders-be.xml"),
        ),
        ("Md".into(), workspace_file("schemas/market-data.xml")),
        (
            "Vers".into(),
            workspace_file("crates/sbekit-codegen-tests/schemas/versioned-v1.xml"),
        ),
    ];
    let have_refs = refs
        .iter()
        .all(|r| sbekit_testdata::require_reference(r, test).is_some());
    if have_refs {
        for (i, r) in refs.iter().enumerate() {
            schemas.push((
                format!("Ref{i}"),
                sbekit_testdata::reference_sbe_dir().join(r),
            ));
        }
    }
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    for (pkg, path) in &schemas {
        cs_files(&generate(root.path(), pkg, path), &mut srcs);
    }
    let pkgs: Vec<String> = schemas.iter().map(|s| s.0.clone()).collect();
    let mut text = driver(&pkgs);
    // The allocation check needs the car schema (Ref0); without it, a stub.
    if have_refs {
        text.push_str(&alloc_fn("Ref0"));
    } else {
        text.push_str("\n    static int Alloc(string p, Stream stdin) { return 2; }\n");
    }
    text.push_str("}\n");
    let drv = root.path().join("Driver.cs");
    std::fs::write(&drv, text).expect("driver");
    srcs.push(drv);
    let exe = root.path().join("Driver.exe");
    mcs(&srcs, &exe, "exe");
    let run = |args: &[&str], input: &[u8]| mono(&exe, args, input);

    let mut checked = 0;
    let mut prefixes = 0;
    let mut shorts = 0;
    let mut mutations = 0;
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
                .unwrap_or_else(|e| panic!("{pkg}: C# prints JSON ({e}): {line}"));
            assert!(
                same(&want, &got),
                "{pkg}: JSON differs\n  otf:  {want}\n  C#:   {got}"
            );
            let (again, _) =
                sbekit_otf::message_to_json(&dec, r, false).expect("re-encoded decodes");
            let again: Value = serde_json::from_str(&again).expect("json");
            assert!(
                same(&want, &again),
                "{pkg}: re-encoded differs\n  otf:  {want}\n  C#:   {again}"
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
        // Mutations: one to three bytes of the first messages set to random values (header
        // slots, block lengths, counts and var-data lengths included). The decoder accepts
        // exactly what `sbekit decode` accepts, prints the same JSON, and throws nothing but
        // `SbeDecodeException`.
        let mut mutated = Vec::new();
        for m in msgs.iter().take(24).filter(|m| !m.is_empty()) {
            for _ in 0..150 {
                let mut x = m.clone();
                for _ in 0..1 + rng.below_or(2) {
                    let at = rng.below_or(x.len() as u64 - 1) as usize;
                    x[at] = rng.next_u64() as u8;
                }
                mutated.push(x);
            }
        }
        let out = run(&["probe", pkg], &frames(&mutated));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(text.lines().count(), mutated.len());
        for (l, x) in text.lines().zip(&mutated) {
            match sbekit_otf::message_to_json(&dec, x, false) {
                Ok((want, _)) => {
                    let got = l.strip_prefix("ok ").unwrap_or_else(|| {
                        panic!("{pkg}: sbekit decode accepts {x:02x?}, C# says {l}")
                    });
                    let want: Value = serde_json::from_str(&want).expect("json");
                    let got: Value = serde_json::from_str(got).expect("C# prints JSON");
                    assert!(
                        same(&want, &got),
                        "{pkg}: {x:02x?}\n  otf: {want}\n  C#:  {got}"
                    );
                }
                Err(e) => assert!(
                    l.starts_with("error "),
                    "{pkg}: sbekit decode refuses {x:02x?} ({e}), C# says {l}"
                ),
            }
        }
        mutations += mutated.len();
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
                serde_json::from_slice(&run(&["json", pkg], &one)).expect("C# prints JSON");
            assert!(
                same(&want, &got),
                "{vector}: golden differs\n  want: {want}\n  C#:   {got}"
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
        // No allocation on the decode and encode paths: the car baseline vector decoded (every
        // field, group and var-data view) and re-encoded 1M times.
        let car = sbekit_testdata::reference_sbe_dir().join("rust/car_example_baseline_data.sbe");
        let car = std::fs::read(car).expect("vector");
        let out = String::from_utf8(run(&["alloc", "Ref0"], &frames(&[car]))).expect("utf8");
        eprintln!(
            "{test}: 1M decodes and re-encodes of the car: {}",
            out.trim()
        );
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(
            words.get(..4),
            Some(&["gc0", "0", "bytes", "0"][..]),
            "allocations: {out}"
        );
    }
    eprintln!(
        "{test}: {checked} random messages equal to sbekit decode and re-encoded, {prefixes} truncations refused with SbeDecodeException only, {mutations} mutated messages accepted or refused as sbekit decode does, {shorts} re-encoded into every shorter buffer and refused"
    );
}

/// A var-data section newer than the message's acting version is absent: every accessor of it
/// reads as empty (length 0, nothing copied, an empty view and string), also when the message
/// ends exactly at the end of its array, where the section's position (the message's end plus
/// its length prefix) is past the array and `Array.Copy`, `ArraySegment` and `GetString` refuse
/// even zero bytes there (the accessors read an absent section at 0).
#[test]
fn absent_var_data_reads_as_empty_at_the_end_of_the_array() {
    let test = "absent_var_data_reads_as_empty_at_the_end_of_the_array";
    if !toolchain(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    let schema = workspace_file("crates/sbekit-codegen-tests/schemas/orders-be.xml");
    cs_files(&generate(root.path(), "Orders", &schema), &mut srcs);
    let main = root.path().join("Absent.cs");
    std::fs::write(
        &main,
        r#"using System;
using System.Text;

public static class Absent
{
    static void Check(StringBuilder output, string what, Func<int> call)
    {
        string result;
        try
        {
            result = " = " + call();
        }
        catch (Exception x)
        {
            result = " threw " + x.GetType().Name;
        }
        output.Append(what).Append(result).Append('\n');
    }

    public static void Main()
    {
        // An Order at version 0: `blob` (since version 1) is left out.
        var w = new byte[64];
        var e = new Orders.OrderEncoder().Wrap(w, 0, 0L);
        e.OrderId(7).Note("n");
        int len = e.EncodedLength();
        var bytes = new byte[len];
        Array.Copy(w, bytes, len);
        var d = new Orders.OrderDecoder().Wrap(bytes, 0, len);
        var output = new StringBuilder();
        Check(output, "ActingVersion", () => (int) d.ActingVersion());
        Check(output, "BlobLength()", () => d.BlobLength());
        Check(output, "GetBlob(byte[], int, 0)", () => d.GetBlob(new byte[8], 0, 0));
        Check(output, "GetBlob(byte[], int, 8)", () => d.GetBlob(new byte[8], 0, 8));
        Check(output, "Blob().Count", () => d.Blob().Count);
        Check(output, "BlobString().Length", () => d.BlobString().Length);
        Console.Write(output);
    }
}
"#,
    )
    .expect("Absent.cs");
    srcs.push(main);
    let exe = root.path().join("Absent.exe");
    mcs(&srcs, &exe, "exe");
    let text = String::from_utf8(mono(&exe, &[], &[])).expect("utf8");
    assert_eq!(text.lines().count(), 6, "{text}");
    let wrong: Vec<&str> = text.lines().filter(|l| !l.ends_with(" = 0")).collect();
    assert!(
        wrong.is_empty(),
        "accessors of an absent var-data section:\n{}",
        wrong.join("\n")
    );
}
