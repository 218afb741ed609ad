//! C# as a dialect of the managed renderer: Java's words mapped (`bool`, `readonly`, `internal`
//! state, upper camel case members and constants), loads and stores through `SbeWire` over a
//! `byte[]`, C# enums over their encoding type, allocation-free `foreach` enumerators.

use crate::prim::{self, cs_bytes, cs_str, cty, literal, long_lit, slot_load, ulong_lit};
use sbekit_codegen_managed::names::{EnumNames, SectionNames};
use sbekit_codegen_managed::{Ctx, Dialect, DocStyle, Out};
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::names::camel;
use sbekit_plan::program::{CheckSyntax, Fail};
use sbekit_plan::{EnumDef, Slot};

/// The C# dialect.
pub(crate) struct CSharp;

impl Dialect for CSharp {
    fn word(&self, java: &'static str) -> &'static str {
        match java {
            "final " => "",
            "boolean" => "bool",
            "String" => "string",
            "DirectBuffer" | "MutableDirectBuffer" => "byte[]",
            "final" => "readonly",
            // Internal rather than private: mcs warns (an error here) about private state a
            // body without fields or sections never reads.
            "private" => "internal",
            "public static final int" => "public const int",
            "public final class" | "public static final class" => "public sealed class",
            "out" => "sb",
            "final CharSequence" => "string",
            "length" => "Length",
            "Math.min" => "System.Math.Min",
            "UTF_8" => "UTF-8",
            "ISO_8859_1" => "Latin-1",
            "(byte) 0" => "0",
            "SbeMessageDecoder" => "ISbeMessageDecoder",
            "iterator" => "enumerator",
            "public static final long" => "public const long",
            "public static final String" => "public const string",
            "static final int" => "internal const int",
            other => other,
        }
    }
    fn member(&self, java: &str) -> String {
        let mut c = java.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    }
    fn konst(&self, java: &str) -> String {
        match java {
            "SIZE" => "SbeSize".into(),
            "BLOCK_LENGTH" => "SbeSchemaBlockLength".into(),
            other => camel(other),
        }
    }
    fn error_kind(&self, java: &str) -> String {
        camel(java)
    }
    fn doc_style(&self) -> DocStyle {
        DocStyle::XmlDoc
    }

    fn ty(&self, ty: P) -> &'static str {
        cty(ty)
    }
    fn load(&self, ty: P, b: &str, pos: &str) -> String {
        prim::load(ty, b, pos)
    }
    fn store(&self, ty: P, b: &str, pos: &str, val: &str) -> String {
        prim::store(ty, b, pos, val)
    }
    fn store_long(&self, ty: P, b: &str, pos: &str, val: &str) -> String {
        prim::store_long(ty, b, pos, val)
    }
    fn slot_load(&self, s: &Slot, b: &str, pos: &str) -> String {
        slot_load(s, b, pos)
    }
    fn slot_store(&self, s: &Slot, b: &str, pos: &str, val: &str) -> String {
        prim::slot_store(s, b, pos, val)
    }
    fn literal(&self, v: &PrimitiveValue, ty: P) -> String {
        literal(v, ty)
    }
    fn is_null(&self, x: &str, null: &PrimitiveValue, ty: P) -> String {
        prim::is_null(x, null, ty)
    }
    fn long_lit(&self, v: u64) -> String {
        long_lit(v)
    }
    fn str_lit(&self, s: &str) -> String {
        cs_str(s)
    }
    fn bytes_lit(&self, b: &[u8]) -> String {
        cs_bytes(b)
    }
    fn put_byte(&self, pos: &str, val: &str) -> String {
        format!("sbe_b[{pos}] = {val}")
    }
    fn copy_out(&self, pos: &str, dst: &str, at: &str, n: &str) -> String {
        format!("System.Array.Copy(sbe_b, {pos}, {dst}, {at}, {n})")
    }
    fn copy_in(&self, pos: &str, src: &str, from: &str, n: &str) -> String {
        format!("System.Array.Copy({src}, {from}, sbe_b, {pos}, {n})")
    }
    fn check_index(&self, len: usize) -> String {
        format!("if ((uint) index >= {len}) throw new System.ArgumentOutOfRangeException(nameof(index));")
    }
    fn bits_type(&self) -> &'static str {
        "ulong"
    }
    fn as_bits(&self, x: &str) -> String {
        format!("unchecked((ulong) {x})")
    }
    fn bit(&self, bit: u32) -> String {
        format!("(1UL << {bit})")
    }

    fn text_length(&self, v: &str) -> String {
        format!("{v}.Length")
    }
    fn char_at(&self, v: &str, i: &str) -> String {
        format!("{v}[{i}]")
    }
    fn nul_char(&self) -> &'static str {
        "'\\0'"
    }
    fn utf8_bytes(&self) -> &'static str {
        "byte[] sbe_t = System.Text.Encoding.UTF8.GetBytes(value);"
    }
    fn fixed_text(&self, o: &mut Out, pos: &str, len: usize, utf8: bool) {
        o.line(&format!(
            "int sbe_n = SbeJson.UntilNul(sbe_b, {pos}, {len});"
        ));
        o.line(&format!("return {};", text(pos, "sbe_n", utf8)));
    }

    fn head(&self, o: &mut Out, namespace: &str, _: &[&str]) {
        o.line("// Generated by sbekit. Do not edit.");
        o.line(&format!("namespace {namespace} {{"));
        o.line("using System.Text;");
        o.line("");
    }
    fn tail(&self, o: &mut Out) {
        o.line("}");
    }
    fn override_attr(&self, _: &mut Out) {}
    fn to_string_head(&self, o: &mut Out) {
        o.doc("The JSON `AppendJson` appends (allocates).");
        o.line("public override string ToString() {");
    }
    fn decode_error(&self, kind: &str, off: &str, path: &str) -> String {
        format!(
            "throw new SbeDecodeException(SbeDecodeErrorKind.{}, {off}, {});",
            camel(kind),
            cs_str(path)
        )
    }
    fn encode_error(&self, kind: &str, path: &str) -> String {
        format!(
            "throw new SbeEncodeException(SbeEncodeErrorKind.{}, {path});",
            camel(kind)
        )
    }
    fn checks(&self) -> &dyn CheckSyntax {
        &CsChecks
    }
    fn null_test(&self, _: &str) -> &'static str {
        "buffer == null || "
    }
    fn capacity(&self, buffer: &str) -> String {
        format!("{buffer}.Length")
    }
    fn rest_of(&self, buffer: &str) -> String {
        format!("{buffer} == null ? 0 : {buffer}.Length - offset")
    }
    fn internal(&self) -> &'static str {
        "internal "
    }

    fn byte_order(&self, o: &mut Out, big_endian: bool) {
        o.doc("True if multi-byte values are big-endian (the schema's `byteOrder`).");
        o.line(&format!("public const bool BigEndian = {big_endian};"));
    }
    fn absent(&self) -> &'static str {
        "internal static readonly byte[] Absent = new byte[MaxTypeSize];"
    }

    fn enum_source(&self, ctx: &Ctx, name: &str, e: &EnumDef) -> String {
        crate::types::enum_src(ctx, name, e)
    }
    fn enum_constant(&self, e: &EnumDef, n: &EnumNames, k: usize) -> String {
        // The same value as every other generator renders (the first one, were the name not
        // listed; C# once rendered the null value there).
        let v = e.values.get(k).map_or(e.null.clone(), |v| v.1.clone());
        format!("({}) {}", n.ty, literal(&v, e.ty))
    }
    fn enum_of_raw(&self, ty: &str, raw: &str) -> String {
        format!("({ty}) {raw}")
    }
    fn raw_of_enum(&self, ty: P) -> String {
        format!("({}) value", cty(ty))
    }
    fn enum_getter_doc(&self) -> &'static str {
        "field (any value is kept: one the schema does not list is a value of no name)"
    }

    fn scalar_json(&self, ty: P, x: &str) -> String {
        match ty {
            P::Char => format!("SbeJson.AppendChar(sb, {x});"),
            P::Float => format!("SbeJson.AppendFloat(sb, {x});"),
            P::Double => format!("SbeJson.AppendDouble(sb, {x});"),
            _ if prim::signed(ty) => format!("SbeJson.AppendLong(sb, {x});"),
            _ => format!("SbeJson.AppendULong(sb, {x});"),
        }
    }
    fn enum_json(&self, n: &EnumNames, raw: &str) -> String {
        format!("SbeEnums.{}(sb, {raw});", n.json)
    }
    fn for_each(&self, group: &str) -> String {
        format!("foreach (var sbe_x in {group})")
    }

    fn message_decoder_class(&self, name: &str) -> String {
        format!("public sealed class {name} : ISbeMessageDecoder {{")
    }
    fn group_decoder_class(&self, name: &str) -> String {
        format!("public sealed class {name} {{")
    }
    fn iterator_usage(&self) -> &'static str {
        "enumerator (`foreach (var e in d.Group())`, no allocation)"
    }
    fn next_method(&self) -> &'static str {
        "MoveNext"
    }
    fn var_view_field(&self, _: &mut Out, _: usize) {}
    fn var_view(&self, o: &mut Out, _: usize, at: &str, name: &str, desc: &str, n: &SectionNames) {
        o.doc(&format!(
            "{desc}\nThe `{name}` data as a view of the buffer (a struct: no allocation)."
        ));
        o.line(&format!(
            "public System.ArraySegment<byte> {}() {{ return new System.ArraySegment<byte>(sbe_b, {at}, {}()); }}",
            n.name, n.length
        ));
    }
    fn var_text(&self, o: &mut Out, at: &str, n: &SectionNames, utf8: bool) {
        let len = format!("{}()", n.length);
        o.line(&format!(
            "public string {}() {{ return {}; }}",
            n.string,
            text(at, &len, utf8)
        ));
    }
    fn next_head(&self, o: &mut Out, _: &str) {
        o.doc("Moves to the next entry (this flyweight); false when none is left.");
        o.line("public bool MoveNext() {");
        o.line("if (sbe_index >= sbe_count) return false;");
    }
    fn next_result(&self) -> &'static str {
        "true"
    }
    fn iteration_tail(&self, o: &mut Out, class: &str) {
        o.doc("The current entry (this flyweight).");
        o.line(&format!(
            "public {class} Current {{ get {{ return this; }} }}"
        ));
        o.doc("This flyweight, as its own enumerator (`foreach` without allocation).");
        o.line(&format!(
            "public {class} GetEnumerator() {{ return this; }}"
        ));
    }

    fn message_holds_itself(&self) -> bool {
        false
    }
    fn message_encoder_state(&self) -> &'static [&'static str] {
        &["int sbe_cap"]
    }
    fn encoder_wraps(&self, o: &mut Out, e: &str) {
        o.doc("Starts a message at `offset` of `buffer` at the schema's version.");
        o.line(&format!(
            "public {e} Wrap(byte[] buffer, int offset) {{ return Wrap(buffer, offset, buffer.Length - offset, SbeSchema.SchemaVersion); }}"
        ));
        o.doc("Starts a message at `offset` of `buffer` at `version`, with the rest of the buffer available.");
        o.line(&format!(
            "public {e} Wrap(byte[] buffer, int offset, long version) {{ return Wrap(buffer, offset, buffer.Length - offset, version); }}"
        ));
        o.doc("Starts a message at `offset` of `buffer` (`length` bytes available), written at `version` (an older one writes its block lengths and leaves newer elements out): writes the header and reserves the block, zeroed.");
        o.line(&format!(
            "public {e} Wrap(byte[] buffer, int offset, int length, long version) {{"
        ));
        o.line("if (offset < 0 || length < 0 || length > buffer.Length - offset) throw new System.ArgumentOutOfRangeException(nameof(length));");
    }
    fn wrap_capacity(&self, o: &mut Out) {
        o.line("sbe_cap = offset + length;");
    }
    fn grow_or_fail(&self, o: &mut Out) {
        o.line("if (end > sbe_cap) throw new SbeEncodeException(SbeEncodeErrorKind.BufferTooSmall, path);");
    }
    fn zero_body(&self, o: &mut Out) {
        o.line("if (n > 16) {");
        o.line("System.Array.Clear(sbe_b, at, n);");
        o.line("return;");
        o.line("}");
        o.line("for (int i = at; i < at + n; i++) sbe_b[i] = 0;");
    }
    /// Straight-line stores when `n` is small, `System.Array.Clear` otherwise.
    fn zero(&self, o: &mut Out, base: &str, n: usize) {
        if n > 16 {
            o.line(&format!("System.Array.Clear(sbe_b, {base}, {n});"));
            return;
        }
        for k in 0..n {
            o.line(&format!("sbe_b[{base} + {k}] = 0;"));
        }
    }
    /// Only the gaps: every byte of each slot in `written` is stored next.
    fn zero_prefix(&self, o: &mut Out, base: &str, n: usize, written: &[&Slot]) {
        for k in 0..n {
            let covered = written
                .iter()
                .any(|s| s.constant.is_none() && (s.offset..s.offset + s.width()).contains(&k));
            if !covered {
                o.line(&format!("sbe_b[{base} + {k}] = 0;"));
            }
        }
    }
    fn prefix_zeroes_slots(&self) -> bool {
        false
    }
    fn not_in_version(&self, path: &str) -> String {
        self.encode_error("NOT_IN_VERSION", &cs_str(path))
    }
    fn byte_sources(&self) -> &'static [(&'static str, &'static str)] {
        &[("byte[]", "`src`")]
    }
    fn emits_unused_private(&self) -> bool {
        false
    }
    fn scratch_method(&self) -> &'static str {
        "SbeScratch"
    }
    fn scratch(&self, o: &mut Out) {
        o.line("internal byte[] sbe_scratch;");
        o.line("private byte[] SbeScratch() {");
        o.line("if (sbe_scratch == null) sbe_scratch = new byte[SbeSchema.MaxTypeSize];");
        o.line("return sbe_scratch;");
        o.line("}");
    }

    fn reencode(&self, o: &mut Out, ctx: &Ctx) {
        o.doc("Writes decoded message `m` again at its acting version at `offset` of `dst` (`length` bytes available); its length. Throws `SbeEncodeException` when `dst` is too small.");
        o.line("public int Reencode(ISbeMessageDecoder m, byte[] dst, int offset, int length) {");
        for (i, n) in ctx.n.msgs.iter().enumerate() {
            o.line(&format!("var sbe_m{i} = m as {};", n.dec));
            o.line(&format!("if (sbe_m{i} != null) {{"));
            o.line(&format!(
                "sbe_e{i}.Wrap(dst, offset, length, sbe_m{i}.ActingVersion());"
            ));
            o.line(&format!("sbe_m{i}.SbeCopyTo(sbe_e{i});"));
            o.line(&format!("return sbe_e{i}.EncodedLength();"));
            o.line("}");
        }
        o.line("throw new System.ArgumentException(\"not a message of this schema\");");
        o.line("}");
    }
}

/// The text of `len` bytes at `at` of `sbe_b`, decoded as UTF-8 or Latin-1.
fn text(at: &str, len: &str, utf8: bool) -> String {
    if utf8 {
        format!("System.Text.Encoding.UTF8.GetString(sbe_b, {at}, {len})")
    } else {
        format!("SbeJson.Latin1(sbe_b, {at}, {len})")
    }
}

/// `a op b` compared as unsigned 64-bit integers.
fn ucmp(a: &str, op: &str, b: &str) -> String {
    format!("unchecked((ulong) ({a})) {op} unchecked((ulong) ({b}))")
}

/// C#'s syntax for the plan's check program (`sbekit_plan::program`): unsigned comparisons
/// through `ulong` casts.
struct CsChecks;

impl CheckSyntax for CsChecks {
    fn fail_at(&self, f: &Fail, at: &str) -> String {
        CSharp.decode_error(f.error.screaming(), at, &f.path)
    }
    fn unsigned(&self, a: &str, op: &str, b: &str) -> String {
        ucmp(a, op, b)
    }
    fn unsigned_div(&self, a: &str, b: &str) -> String {
        format!("unchecked((ulong) ({a})) / unchecked((ulong) {b})")
    }
    fn literal(&self, v: u64) -> String {
        long_lit(v)
    }
    fn unsigned_literal(&self, v: u64) -> String {
        ulong_lit(v)
    }
    fn load_at(&self, slot: &Slot, pos: &str) -> String {
        slot_load(slot, "sbe_b", pos)
    }
    fn signed_lengths(&self) -> bool {
        true
    }
    fn budget_max(&self) -> String {
        "SbeSchema.MaxEmptyEntries".into()
    }
}
