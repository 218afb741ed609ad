//! Java's own types: `SbeSchema` (ids, version, byte order, header size) and enums (a Java enum
//! per schema enum with `NULL_VAL` and `SBE_UNKNOWN`; the raw accessors keep every value). Sets
//! and composites are the managed renderer's.

use crate::prim::{jty, literal};
use sbekit_codegen_managed::Ctx;
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::quote;
use sbekit_plan::EnumDef;

/// `SbeSchema.java`.
pub fn schema(ctx: &Ctx) -> String {
    let p = ctx.plan;
    let mut o = ctx.out();
    ctx.head(
        &mut o,
        &[
            "org.agrona.DirectBuffer",
            "org.agrona.concurrent.UnsafeBuffer",
        ],
    );
    let max = p
        .composites
        .values()
        .map(|c| c.size)
        .chain(p.sets.values().map(|s| s.ty.size()))
        .max()
        .unwrap_or(0)
        .max(8);
    o.doc(&format!(
        "The schema `{}`: its id, version, byte order and message header size.",
        p.package
    ));
    o.line("public final class SbeSchema {");
    o.doc("The schema's id (`messageSchema id`).");
    o.line(&format!("public static final long SCHEMA_ID = {}L;", p.id));
    o.doc("The schema's version: what encoders write unless told otherwise.");
    o.line(&format!(
        "public static final long SCHEMA_VERSION = {}L;",
        p.version
    ));
    o.doc("The schema's `semanticVersion` (empty when it has none).");
    o.line(&format!(
        "public static final String SEMANTIC_VERSION = {};",
        crate::prim::java_str(p.semantic_version.as_deref().unwrap_or(""))
    ));
    o.doc("The byte order of every multi-byte value.");
    let bo = if p.byte_order == sbekit_ir::ByteOrder::BigEndian {
        "BIG_ENDIAN"
    } else {
        "LITTLE_ENDIAN"
    };
    o.line(&format!(
        "public static final java.nio.ByteOrder BYTE_ORDER = java.nio.ByteOrder.{bo};"
    ));
    o.doc("Size of the message header in bytes.");
    o.line(&format!(
        "public static final int HEADER_LENGTH = {};",
        p.header.size
    ));
    o.doc("Entries of groups whose entries take no bytes that one message may declare in all (work stays bounded by the input, as in `sbekit decode`).");
    o.line("public static final long MAX_EMPTY_ENTRIES = 1048576L;");
    o.doc("The largest set or composite, in bytes.");
    o.line(&format!("static final int MAX_TYPE_SIZE = {max};"));
    o.doc("Zeros, read by the flyweight of a set or composite field absent at the acting version.");
    o.line("static final DirectBuffer ABSENT = new UnsafeBuffer(new byte[MAX_TYPE_SIZE]);");
    o.line("");
    o.line("private SbeSchema() {");
    o.line("}");
    o.line("}");
    o.s
}

/// An enum's file: a Java enum with `NULL_VAL` and `SBE_UNKNOWN`, `get` from a raw value and
/// its JSON printer (`sbeJson`).
pub(crate) fn enum_src(ctx: &Ctx, k: &str, e: &EnumDef) -> String {
    let n = &ctx.n.enums[k];
    let t = jty(e.ty);
    let mut o = ctx.out();
    ctx.head(&mut o, &[]);
    o.doc(e.description.as_deref().unwrap_or(&format!(
        "The `{k}` enum. `get` maps a raw value to its constant: `NULL_VAL` for the null value, `SBE_UNKNOWN` for a value the schema does not list (the fields' raw accessors keep it)."
    )));
    o.line(&format!("public enum {} {{", n.ty));
    for ((name, v, d), id) in e.values.iter().zip(&n.variants) {
        o.doc(d.as_deref().unwrap_or(&format!("`{name}`")));
        o.line(&format!("{id}({}),", literal(v, e.ty)));
    }
    o.doc("The null value: the field holds no value.");
    o.line(&format!("NULL_VAL({}),", literal(&e.null, e.ty)));
    o.doc("A value the schema does not list (read the field's raw accessor); written as the null value.");
    o.line(&format!("SBE_UNKNOWN({});", literal(&e.null, e.ty)));
    o.line("");
    o.line(&format!("private final {t} value;"));
    o.line("");
    o.line(&format!("{}(final {t} value) {{", n.ty));
    o.line("this.value = value;");
    o.line("}");
    o.line("");
    o.doc("The raw value on the wire.");
    o.line(&format!("public {t} value() {{"));
    o.line("return value;");
    o.line("}");
    o.line("");
    o.doc("The constant of raw value `value` (no allocation).");
    o.line(&format!("public static {} get(final {t} value) {{", n.ty));
    for ((_, v, _), id) in e.values.iter().zip(&n.variants) {
        o.line(&format!("if (value == {}) return {id};", literal(v, e.ty)));
    }
    o.line(&format!(
        "if (value == {}) return NULL_VAL;",
        literal(&e.null, e.ty)
    ));
    o.line("return SBE_UNKNOWN;");
    o.line("}");
    o.line("");
    o.doc("Appends raw value `value` as `sbekit decode` prints it: `null` for the null value, the name of a listed value, otherwise the number.");
    o.line(&format!(
        "public static void sbeJson(final StringBuilder out, final {t} value) {{"
    ));
    o.line(&format!(
        "if (value == {}) {{ out.append(\"null\"); return; }}",
        literal(&e.null, e.ty)
    ));
    for (name, v, _) in &e.values {
        o.line(&format!(
            "if (value == {}) {{ out.append({}); return; }}",
            literal(v, e.ty),
            crate::prim::java_str(&quote(name))
        ));
    }
    // As `sbekit decode`: chars zero-extended, uint64 as a signed 64-bit number.
    if e.ty == P::Char {
        o.line("out.append(value & 0xFF);");
    } else {
        o.line("out.append(value);");
    }
    o.line("}");
    o.line("}");
    o.s
}
