//! C#'s own types: `SbeSchema` (ids, version, byte order, header size), `SbeWire` (loads and
//! stores in the schema's byte order) and enums (a C# enum per schema enum over its encoding
//! type, so every value is kept, with `NullValue`). Sets and composites are the managed
//! renderer's.

use crate::dialect::CSharp;
use crate::prim::signed;
use sbekit_codegen_managed::types::schema_constants;
use sbekit_codegen_managed::{Ctx, Out, Values};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::quote;
use sbekit_plan::EnumDef;

/// The body of an `SbeWire` load of the 8-byte, 4-byte or 2-byte integer at `p` of `b`, in
/// the schema's byte order, as an `ulong`, `uint` or `int` expression.
fn wire_load(be: bool, width: usize) -> String {
    let byte = |k: usize, shift: usize| {
        let k = if be { width - 1 - k } else { k };
        let ty = if width == 8 {
            "(ulong) "
        } else if width == 4 {
            "(uint) "
        } else {
            ""
        };
        if shift == 0 {
            format!("{ty}b[p + {k}]")
        } else {
            format!("{ty}b[p + {k}] << {shift}")
        }
    };
    (0..width)
        .map(|k| byte(k, k * 8))
        .collect::<Vec<_>>()
        .join(" | ")
        .replace("b[p + 0]", "b[p]")
}

/// The statements of an `SbeWire` store of the integer `v` at `p` of `b`.
fn wire_store(be: bool, width: usize) -> String {
    (0..width)
        .map(|k| {
            let at = if be { width - 1 - k } else { k };
            let shift = if k == 0 {
                "v".to_string()
            } else {
                format!("v >> {}", k * 8)
            };
            format!("b[p + {at}] = (byte) ({shift});").replace("b[p + 0]", "b[p]")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Mono inlines only tiny methods unless told: every load and store is asked to be inlined.
pub(crate) const INLINE: &str = "[System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]";

/// `SbeSchema.cs`: ids, version, byte order and header size (`SbeSchema`), the loads and
/// stores in the schema's byte order (`SbeWire`) and the enums' JSON printers (`SbeEnums`).
pub fn schema(ctx: &Ctx) -> String {
    let p = ctx.plan;
    let be = p.byte_order == sbekit_ir::ByteOrder::BigEndian;
    let mut o = ctx.out();
    ctx.head(&mut o, &[]);
    o.doc(&format!(
        "The schema `{}`: its id, version, byte order and message header size.",
        p.package
    ));
    o.line("public static class SbeSchema {");
    schema_constants(&mut o, ctx);
    o.line("}");
    o.line("");
    o.doc(&format!(
        "Loads and stores of multi-byte values in the schema's byte order ({}), with explicit shifts over a `byte[]` (whatever the host's order).",
        if be { "big-endian" } else { "little-endian" }
    ));
    o.line("public static class SbeWire {");
    for (t, w, name, conv) in [
        ("short", 2, "I16", "(short) ("),
        ("ushort", 2, "U16", "(ushort) ("),
        ("int", 4, "I32", "(int) ("),
        ("uint", 4, "U32", "("),
        ("long", 8, "I64", "(long) ("),
        ("ulong", 8, "U64", "("),
    ] {
        o.doc(&format!("The `{t}` at `p` of `b`."));
        o.line(INLINE);
        o.line(&format!(
            "public static {t} {name}(byte[] b, int p) {{ return unchecked({conv}{})); }}",
            wire_load(be, w)
        ));
        o.doc("Stores `v` at `p` of `b`.");
        o.line(INLINE);
        o.line(&format!(
            "public static void Put{name}(byte[] b, int p, {t} v) {{ unchecked {{ {} }} }}",
            wire_store(be, w)
        ));
    }
    o.doc("The `float` at `p` of `b`.");
    o.line(INLINE);
    o.line("public static float F32(byte[] b, int p) { return SbeFloatBits.ToFloat(I32(b, p)); }");
    o.doc("Stores `v` at `p` of `b`.");
    o.line(INLINE);
    o.line("public static void PutF32(byte[] b, int p, float v) { PutI32(b, p, SbeFloatBits.ToBits(v)); }");
    o.doc("The `double` at `p` of `b`.");
    o.line(INLINE);
    o.line("public static double F64(byte[] b, int p) { return System.BitConverter.Int64BitsToDouble(I64(b, p)); }");
    o.doc("Stores `v` at `p` of `b`.");
    o.line(INLINE);
    o.line("public static void PutF64(byte[] b, int p, double v) { PutI64(b, p, System.BitConverter.DoubleToInt64Bits(v)); }");
    o.line("}");
    o.line("");
    o.doc("A float's bits without allocation (.NET Standard 2.0 has no `BitConverter.Int32BitsToSingle`).");
    o.line("[System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Explicit)]");
    o.line("internal struct SbeFloatBits {");
    o.line("[System.Runtime.InteropServices.FieldOffset(0)] private int i;");
    o.line("[System.Runtime.InteropServices.FieldOffset(0)] private float f;");
    o.line(INLINE);
    o.line("internal static float ToFloat(int v) { var u = default(SbeFloatBits); u.i = v; return u.f; }");
    o.line(INLINE);
    o.line("internal static int ToBits(float v) { var u = default(SbeFloatBits); u.f = v; return u.i; }");
    o.line("}");
    o.line("");
    o.doc("The JSON `sbekit decode` prints for each enum's raw values.");
    o.line("public static class SbeEnums {");
    for (k, e) in &p.enums {
        enum_json(&mut o, ctx, k, e);
    }
    o.line("}");
    ctx.tail(&mut o);
    o.s
}

/// An enum's file: a C# enum over its encoding type with `NullValue` (its JSON printer is in
/// `SbeEnums`).
pub(crate) fn enum_src(ctx: &Ctx, k: &str, e: &EnumDef) -> String {
    let n = &ctx.n.enums[k];
    let t = CSharp.ty(e.ty);
    let mut o = ctx.out();
    ctx.head(&mut o, &[]);
    o.doc(e.description.as_deref().unwrap_or(&format!(
        "The `{k}` enum: a C# enum over its encoding type, so a value the schema does not list is kept (it has no name)."
    )));
    o.line(&format!("public enum {} : {t} {{", n.ty));
    for ((name, v, d), id) in e.values.iter().zip(&n.values) {
        o.doc(d.as_deref().unwrap_or(&format!("`{name}`")));
        o.line(&format!("{id} = {},", CSharp.literal(v, e.ty)));
    }
    o.doc("The null value: the field holds no value.");
    o.line(&format!("NullValue = {},", CSharp.literal(&e.null, e.ty)));
    o.line("}");
    ctx.tail(&mut o);
    o.s
}

/// `SbeEnums.AppendX`: raw value `value` as `sbekit decode` prints it.
fn enum_json(o: &mut Out, ctx: &Ctx, k: &str, e: &EnumDef) {
    let n = &ctx.n.enums[k];
    let t = CSharp.ty(e.ty);
    o.doc(&format!("Appends raw `{k}` value `value` as `sbekit decode` prints it: `null` for the null value, the name of a listed value, otherwise the number."));
    o.line(&format!(
        "public static void {}(StringBuilder sb, {t} value) {{",
        n.json
    ));
    o.line(&format!(
        "if (value == {}) {{ sb.Append(\"null\"); return; }}",
        CSharp.literal(&e.null, e.ty)
    ));
    for (name, v, _) in &e.values {
        o.line(&format!(
            "if (value == {}) {{ sb.Append({}); return; }}",
            CSharp.literal(v, e.ty),
            CSharp.str_lit(&quote(name))
        ));
    }
    // As `sbekit decode`: chars zero-extended, uint64 as a signed 64-bit number.
    if e.ty == P::Uint64 {
        o.line("SbeJson.AppendLong(sb, unchecked((long) value));");
    } else if signed(e.ty) {
        o.line("SbeJson.AppendLong(sb, value);");
    } else {
        o.line("SbeJson.AppendULong(sb, value);");
    }
    o.line("}");
}
