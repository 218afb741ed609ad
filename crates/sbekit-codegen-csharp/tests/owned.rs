//! The generated C# owned values (DTOs), run in one Mono process:
//! - property: random `OrderDto`s of `orders-be.xml` (every field kind: numbers in range, null
//!   values, a char array, enums, a set, a composite, arrays, nested groups, text and byte var
//!   data) at every version of the schema encode, decode back to equal values (equal hashes),
//!   are the bytes the flyweights' `Reencode` writes for them, and agree with `Bytes`,
//!   `BytesWithHeader`, `EncodeWith(dto, buffer, offset)` (no header) and `DecodeFrom`;
//! - validation: each rule (a number outside its range, an array too long or holding one, text
//!   too long or not Latin-1, an unlisted enum value, null text, var data too long, a group
//!   longer than its count type allows, set or grown after) is refused with
//!   `System.ArgumentException`;
//! - an older writer's message (`versioned-v0.xml`) read by the newer schema's DTO keeps its
//!   version and writes the older bytes back.

mod common;

use common::*;
use sbekit_testdata::workspace_file;

const DRIVER: &str = r#"using System;
using System.Collections.Generic;
using System.Text;
using Ob;

public static class OwnedDriver
{
    static int checks;

    static void Check(bool ok, string what)
    {
        if (!ok) throw new Exception(what);
        checks++;
    }

    static void Refused(string what, Action a)
    {
        try
        {
            a();
        }
        catch (ArgumentException e)
        {
            Check(!string.IsNullOrEmpty(e.Message), what + ": a message");
            return;
        }
        throw new Exception(what + ": not refused");
    }

    static string Text(Random r, int max)
    {
        var s = new StringBuilder();
        int n = r.Next(max + 1);
        for (int i = 0; i < n; i++) s.Append((char) ('A' + r.Next(26)));
        return s.ToString();
    }

    static long NextLong(Random r)
    {
        var b = new byte[8];
        r.NextBytes(b);
        return BitConverter.ToInt64(b, 0);
    }

    static bool Slice(byte[] a, int at, byte[] b, int bat, int n)
    {
        if (a.Length < at + n || b.Length < bat + n) return false;
        for (int i = 0; i < n; i++) if (a[at + i] != b[bat + i]) return false;
        return true;
    }

    static PriceDto Price(Random r)
    {
        long m = NextLong(r);
        return new PriceDto().Mantissa(m == long.MinValue ? 0 : m);
    }

    static OrderDto Order(Random r)
    {
        long v = r.Next((int) SbeSchema.SchemaVersion + 1);
        var o = new OrderDto().ActingVersion(v);
        o.OrderId(unchecked((ulong) NextLong(r)) >> 1);
        o.Symbol(Text(r, 8));
        o.Side(new[] { Side.Buy, Side.Sell, Side.NullValue }[r.Next(3)]);
        o.Price(Price(r));
        o.Qty((uint) r.Next());
        o.Weights(new short[] { (short) r.Next(-32767, 32768), (short) r.Next(-32767, 32768) });
        o.Ratio(r.Next(2) == 0 ? double.NaN : r.NextDouble() * 2e9 - 1e9);
        if (v >= 1)
        {
            o.Flags().Hidden(r.Next(2) == 0).Iceberg(r.Next(2) == 0);
            for (int i = r.Next(3); i > 0; i--)
            {
                var m = new OrderDto.MarksDto();
                if (v >= 2) m.Mark((byte) r.Next(255));
                o.Marks().Add(m);
            }
            var blob = new byte[r.Next(20)];
            r.NextBytes(blob);
            o.Blob(blob);
        }
        if (v >= 2) o.Venue(new[] { Venue.Lit, Venue.Dark, Venue.Auction, Venue.NullValue }[r.Next(4)]);
        for (int i = r.Next(4); i > 0; i--)
        {
            var f = new OrderDto.FillsDto().FillQty((uint) r.Next());
            if (v >= 1) f.FillPrice(Price(r));
            for (int j = r.Next(3); j > 0; j--)
            {
                f.Legs().Add(new OrderDto.FillsDto.LegsDto().Ratio((short) r.Next(-32768, 32768)));
            }
            f.FillNote(Text(r, 12) + "\u00e9\u20ac");
            o.Fills().Add(f);
        }
        o.Note(Text(r, 30));
        return o;
    }

    static void Property(int runs)
    {
        var r = new Random(20260401);
        var dispatcher = new SbeDispatcher();
        int hl = SbeSchema.HeaderLength;
        for (int k = 0; k < runs; k++)
        {
            var o = Order(r);
            var buf = new byte[hl + o.ComputeEncodedLength()];
            int n = OrderDto.EncodeWithHeaderWith(o, buf, 0);
            Check(n == buf.Length, "computed length");
            var back = new OrderDto();
            OrderDto.DecodeWith(new OrderDecoder().Wrap(buf, 0, n), back);
            Check(back.Equals(o) && back.GetHashCode() == o.GetHashCode(), "round trip:\n" + o + "\n" + back);
            Check(back.ActingVersion() == o.ActingVersion(), "version kept");
            var again = new byte[2 * n + 64];
            int m = dispatcher.Reencode(dispatcher.Wrap(buf, 0, n), again, 0, again.Length);
            Check(m == n && Slice(again, 0, buf, 0, n), "the flyweights write the same bytes");
            Check(SbeDto.Equal(OrderDto.BytesWithHeader(o), buf), "BytesWithHeader");
            var body = OrderDto.Bytes(o);
            Check(body.Length == n - hl && Slice(body, 0, buf, hl, body.Length), "Bytes: no header");
            var at = new byte[body.Length + 5];
            Check(OrderDto.EncodeWith(o, at, 5) == body.Length, "EncodeWith(dto, buffer, offset)");
            Check(Slice(at, 5, body, 0, body.Length), "at an offset");
            var from = OrderDto.DecodeFrom(at, 5, OrderEncoder.SbeBlockLength(o.ActingVersion()), (int) o.ActingVersion());
            Check(from.Equals(o), "DecodeFrom");
            Check(!o.Equals(new OrderDto()) || o.ToString() == new OrderDto().ToString(), "unequal");
            Check(o.ToString().StartsWith("OrderDto{actingVersion=", StringComparison.Ordinal) && o.ToString().Contains("fills=["), "ToString: " + o);
        }
    }

    static void Validation()
    {
        var o = new OrderDto();
        Refused("uint64 above its maximum", () => o.OrderId(ulong.MaxValue));
        Refused("uint32 above its maximum", () => o.Qty(uint.MaxValue));
        o.Qty(0);
        Check(!o.HasQty(), "an optional field's null value is allowed and means no value");
        o.Qty(5);
        Check(o.HasQty() && o.Qty() == 5, "set");
        Refused("a composite's member below its minimum", () => o.Price().Mantissa(long.MinValue));
        o.Ratio(double.PositiveInfinity);
        Check(double.IsPositiveInfinity(o.Ratio()), "a double without schema bounds takes any value");
        o.Ratio(double.NaN);
        Check(!o.HasRatio(), "NaN is the optional double's null value");
        Refused("an array too long", () => o.Weights(new short[4]));
        Refused("an array element below its minimum", () => o.Weights(new short[] { short.MinValue }));
        Refused("a null array", () => o.Weights(null));
        o.Weights(new short[] { 1, 2 });
        Check(SbeDto.Equal(o.Weights(), new short[] { 1, 2, 0 }), "short arrays padded with 0");
        Refused("text too long for a char array", () => o.Symbol("ABCDEFGHI"));
        Refused("bytes too long for a char array", () => o.SymbolBytes(new byte[9]));
        Refused("a char with no Latin-1 byte", () => o.Symbol("\u0100"));
        o.Symbol("ABC");
        Check(o.Symbol() == "ABC" && o.SymbolBytes()[3] == 0, "text padded with NULs");
        Refused("an unlisted enum value", () => o.Side((Side) 'X'));
        Refused("an unlisted raw enum value", () => o.SideRaw((byte) 'X'));
        Refused("an unlisted raw enum value (uint16)", () => o.VenueRaw(3));
        o.Side(Side.NullValue);
        Check(o.Side() == Side.NullValue && o.SideRaw() == 0, "the enum's null value is allowed");
        Refused("null text", () => o.Note(null));
        Refused("text var data too long", () => o.Note(new string('x', 1025)));
        Refused("var data bytes too long", () => o.NoteBytes(new byte[1025]));
        o.Note(new string('x', 1024));
        var many = new List<OrderDto.FillsDto>();
        for (int i = 0; i < 65535; i++) many.Add(new OrderDto.FillsDto());
        Refused("a group longer than its count type allows", () => o.Fills(many));
        o.Fills(many.GetRange(0, 65534));
        o.Fills().Add(new OrderDto.FillsDto());
        Refused("a group grown past its count type, at encode time",
            () => OrderDto.EncodeWithHeaderWith(o, new byte[1 << 22], 0));
        Refused("a negative acting version", () => o.ActingVersion(-1));
    }

    static void OlderWriter()
    {
        var old = new V0.EvolvingDto().A(7).D("older");
        old.G().Add(new V0.EvolvingDto.GDto().X(-3));
        var wire = V0.EvolvingDto.BytesWithHeader(old);
        var o = new V1.EvolvingDto();
        V1.EvolvingDto.DecodeWith(new V1.EvolvingDecoder().Wrap(wire, 0, wire.Length), o);
        Check(o.ActingVersion() == 0, "the older version is kept");
        Check(o.A() == 7 && !o.HasB() && !o.HasC() && o.E().Length == 0, "newer fields absent");
        Check(o.G().Count == 1 && o.G()[0].X() == -3 && !o.G()[0].HasY(), "entries");
        Check(SbeDto.Equal(V1.EvolvingDto.BytesWithHeader(o), wire), "written back as the older version");
        o.ActingVersion(V1.SbeSchema.SchemaVersion).B(9);
        Check(V1.EvolvingDto.BytesWithHeader(o).Length > wire.Length, "written at the schema's version");
    }

    public static int Main(string[] args)
    {
        Property(int.Parse(args[0]));
        Validation();
        OlderWriter();
        Console.WriteLine("ok " + checks);
        return 0;
    }
}
"#;

#[test]
fn csharp_owned_values_round_trip_validate_and_keep_versions() {
    let test = "csharp_owned_values_round_trip_validate_and_keep_versions";
    if !toolchain(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    for (ns, schema) in [
        ("Ob", "crates/sbekit-codegen-tests/schemas/orders-be.xml"),
        ("V0", "crates/sbekit-codegen-tests/schemas/versioned-v0.xml"),
        ("V1", "crates/sbekit-codegen-tests/schemas/versioned-v1.xml"),
    ] {
        let dir = generate(root.path(), ns, &workspace_file(schema));
        let mut lib = Vec::new();
        cs_files(&dir, &mut lib);
        // Each project a library of its own (with its XML documentation, so that a DTO member
        // without a comment fails), as a user builds it.
        let dll = root.path().join(format!("{ns}.dll"));
        mcs(&lib, &dll, "library");
        srcs.push(dll);
    }
    let driver = root.path().join("OwnedDriver.cs");
    std::fs::write(&driver, DRIVER).expect("driver");
    let exe = root.path().join("OwnedDriver.exe");
    mcs_with_refs(&[driver], &srcs, &exe, "exe");
    let out = mono(&exe, &["400"], &[]);
    let out = String::from_utf8_lossy(&out);
    eprintln!("{test}: {}", out.trim());
    assert!(out.starts_with("ok "), "{out}");
}
