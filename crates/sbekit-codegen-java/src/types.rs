//! Java's own types: `SbeSchema` (ids, version, byte order, header size) and enums (a Java enum
//! per schema enum with `NULL_VAL` and `SBE_UNKNOWN`; the raw accessors keep every value). Sets
//! and composites are the managed renderer's.

use crate::dialect::Java;
use sbekit_codegen_managed::types::schema_constants;
use sbekit_codegen_managed::{Ctx, Values};
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
    o.doc(&format!(
        "The schema `{}`: its id, version, byte order and message header size.",
        p.package
    ));
    o.line("public final class SbeSchema {");
    schema_constants(&mut o, ctx);
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
    let t = Java.ty(e.ty);
    let mut o = ctx.out();
    ctx.head(&mut o, &[]);
    o.doc(e.description.as_deref().unwrap_or(&format!(
        "The `{k}` enum. `get` maps a raw value to its constant: `NULL_VAL` for the null value, `SBE_UNKNOWN` for a value the schema does not list (the fields' raw accessors keep it)."
    )));
    o.line(&format!("public enum {} {{", n.ty));
    for ((name, v, d), id) in e.values.iter().zip(&n.values) {
        o.doc(d.as_deref().unwrap_or(&format!("`{name}`")));
        o.line(&format!("{id}({}),", Java.literal(v, e.ty)));
    }
    o.doc("The null value: the field holds no value.");
    o.line(&format!("NULL_VAL({}),", Java.literal(&e.null, e.ty)));
    o.doc("A value the schema does not list (read the field's raw accessor); written as the null value.");
    o.line(&format!("SBE_UNKNOWN({});", Java.literal(&e.null, e.ty)));
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
    for ((_, v, _), id) in e.values.iter().zip(&n.values) {
        o.line(&format!(
            "if (value == {}) return {id};",
            Java.literal(v, e.ty)
        ));
    }
    o.line(&format!(
        "if (value == {}) return NULL_VAL;",
        Java.literal(&e.null, e.ty)
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
        Java.literal(&e.null, e.ty)
    ));
    for (name, v, _) in &e.values {
        o.line(&format!(
            "if (value == {}) {{ out.append({}); return; }}",
            Java.literal(v, e.ty),
            Java.str_lit(&quote(name))
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
