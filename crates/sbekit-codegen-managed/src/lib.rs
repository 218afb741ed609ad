//! What the Java and C# generators share: one class-per-type renderer of the codec plan with a
//! dialect table.
//!
//! The renderer walks the plan once: [`names`] spells every identifier (for the plan's naming
//! walk), [`types`] renders sets and composites, [`messages`] the message decoders (a `wrap` that
//! runs the plan's checks once) and fluent encoders, [`dispatcher`] the dispatch on the template
//! id. It is written in Java's words; a [`Dialect`] maps each word to its language
//! ([`Dialect::word`], [`Dialect::member`], [`Dialect::konst`]) and renders what the languages
//! really do differently (buffer access, iteration, text, enums). The generator crates add the
//! files around the codecs.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod dispatcher;
pub mod dto;
pub mod fields;
pub mod json;
pub mod messages;
pub mod names;
mod out;
pub mod types;

pub use out::{DocStyle, Out};

use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::names::{EnumNames, PlanNames, SectionNames};
use sbekit_plan::program::CheckSyntax;
use sbekit_plan::{EnumDef, Plan, Slot};

/// What the emitters share: the plan, the names chosen for it and the dialect.
pub struct Ctx<'a> {
    /// The codec plan.
    pub plan: &'a Plan,
    /// The identifiers.
    pub n: &'a PlanNames,
    /// The language.
    pub d: &'a dyn Dialect,
}

impl Ctx<'_> {
    /// An empty source buffer with the dialect's documentation comments.
    pub fn out(&self) -> Out {
        Out::new(self.d.doc_style())
    }

    /// The first lines of a source file (`imports`: the Java imports it needs).
    pub fn head(&self, o: &mut Out, imports: &[&str]) {
        self.d.head(o, &self.n.package, imports);
    }

    /// The last lines of a source file.
    pub fn tail(&self, o: &mut Out) {
        self.d.tail(o);
    }
}

/// True if byte `k` of a prefix is stored by one of `written` (a slot with a constant is not
/// stored): what [`Dialect::zero_prefix`] may leave.
pub fn slot_covers(written: &[&Slot], k: usize) -> bool {
    written
        .iter()
        .any(|s| s.constant.is_none() && (s.offset..s.offset + s.width()).contains(&k))
}

/// The runs `(start, length)` of the bytes `0..n` that `covered` does not claim, in order: the
/// stretches a reservation zeroes with the widest stores that fit.
pub fn uncovered_runs(n: usize, covered: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut k = 0;
    while k < n {
        if covered(k) {
            k += 1;
            continue;
        }
        let start = k;
        while k < n && !covered(k) {
            k += 1;
        }
        runs.push((start, k - start));
    }
    runs
}

/// `s` with its first letter upper case (`hasX` of `x`; C#'s member of a Java member name).
pub fn upper_first(s: &str) -> String {
    let mut u = s.to_string();
    if let Some(f) = u.get_mut(0..1) {
        f.make_ascii_uppercase();
    }
    u
}

/// True if `p` is dot-separated ASCII identifiers (letters, digits, `_` and the `extra` chars,
/// not starting with a digit), each part `allowed` (a language refuses its keywords).
pub fn dotted_identifiers(p: &str, extra: &[char], allowed: impl Fn(&str) -> bool) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c);
    !p.is_empty()
        && p.split('.').all(|s| {
            s.chars()
                .next()
                .is_some_and(|c| word(c) && !c.is_ascii_digit())
                && s.chars().all(word)
                && allowed(s)
        })
}

/// Text as a Java or C# string literal: ASCII printable kept, quotes, backslashes and line
/// ends escaped, other chars as `\u` escapes of their UTF-16 units, except control chars as
/// octal escapes when `octal_controls` (javac reads `\u` escapes before lexing, so one of a
/// line terminator would end the literal).
pub fn string_literal(s: &str, octal_controls: bool) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c if octal_controls && (c as u32) < 0x20 => {
                out.push_str(&format!("\\{:03o}", c as u32))
            }
            c => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

/// One language's values: the type of each primitive, loads and stores in the schema's byte
/// order, literals, null tests and string literals.
pub trait Values {
    /// The type of one value of `ty`.
    fn ty(&self, ty: P) -> &'static str;
    /// A load of a value of `ty` at `pos` of buffer `b`.
    fn load(&self, ty: P, b: &str, pos: &str) -> String;
    /// A store (no `;`) of `val` of the type of `ty` at `pos` of `b`.
    fn store(&self, ty: P, b: &str, pos: &str, val: &str) -> String;
    /// A store (no `;`) of the `long` expression `val` into an integer of `ty` (its low bits).
    fn store_long(&self, ty: P, b: &str, pos: &str, val: &str) -> String;
    /// A slot's value as a `long` read at `pos` of `b`.
    fn slot_load(&self, s: &Slot, b: &str, pos: &str) -> String;
    /// A store (no `;`) of the `long` expression `val` into a slot at `pos` of `b`.
    fn slot_store(&self, s: &Slot, b: &str, pos: &str, val: &str) -> String;
    /// A constant expression of value `v` of `ty`.
    fn literal(&self, v: &PrimitiveValue, ty: P) -> String;
    /// A test that `x` holds the null value `null` of `ty`.
    fn is_null(&self, x: &str, null: &PrimitiveValue, ty: P) -> String;
    /// The smallest `long` (its literal would overflow as it is read).
    fn long_min(&self) -> &'static str;
    /// A `long` literal of a 64-bit value's bits.
    fn long_lit(&self, v: u64) -> String {
        match v as i64 {
            i64::MIN => self.long_min().into(),
            i => format!("{i}L"),
        }
    }
    /// A string literal of text.
    fn str_lit(&self, s: &str) -> String;
    /// A string literal of bytes, one char per byte (Latin-1).
    fn bytes_lit(&self, b: &[u8]) -> String {
        self.str_lit(&b.iter().map(|&c| char::from(c)).collect::<String>())
    }
}

/// One language's spellings and its own renderings. The shared renderer is written in Java's
/// words: the word methods map them (a Java dialect keeps the defaults); the rest are what a
/// language does its own way.
pub trait Dialect: Values {
    // --- The table: Java's words, mapped. ---

    /// A keyword, type or phrase of Java's, in this language (the default keeps it).
    fn word(&self, java: &'static str) -> &'static str {
        java
    }
    /// A generated or runtime method, spelled in Java's lower camel case, in this language.
    fn member(&self, java: &str) -> String {
        java.to_string()
    }
    /// A generated constant, spelled in Java's upper snake case, in this language.
    fn konst(&self, java: &str) -> String {
        java.to_string()
    }
    /// An error kind, spelled in upper snake case, as generated code names it.
    fn error_kind(&self, java: &str) -> String {
        java.to_string()
    }
    /// How documentation comments are written.
    fn doc_style(&self) -> DocStyle;

    /// The modifier of a local or parameter that does not change (with its space, if any).
    fn fixed(&self) -> &'static str {
        self.word("final ")
    }
    /// The boolean type.
    fn boolean(&self) -> &'static str {
        self.word("boolean")
    }
    /// The string type.
    fn string(&self) -> &'static str {
        self.word("String")
    }
    /// The buffer type decoders read.
    fn reader(&self) -> &'static str {
        self.word("DirectBuffer")
    }
    /// The buffer type encoders write.
    fn writer(&self) -> &'static str {
        self.word("MutableDirectBuffer")
    }
    /// The import of the buffer type decoders read (ignored where there are no imports).
    fn reader_import(&self) -> &'static str {
        "org.agrona.DirectBuffer"
    }
    /// The import of the buffer type encoders write.
    fn writer_import(&self) -> &'static str {
        "org.agrona.MutableDirectBuffer"
    }
    /// The modifier of a field assigned once.
    fn readonly(&self) -> &'static str {
        self.word("final")
    }
    /// The visibility of a flyweight's state.
    fn state(&self) -> &'static str {
        self.word("private")
    }
    /// The declaration of a public integer constant, up to its name.
    fn const_int(&self) -> &'static str {
        self.word("public static final int")
    }
    /// The declaration of a public class, up to its name (`nested` in another class).
    fn class(&self, nested: bool) -> &'static str {
        if nested {
            self.word("public static final class")
        } else {
            self.word("public final class")
        }
    }
    /// The `StringBuilder` parameter JSON is appended to.
    fn builder(&self) -> &'static str {
        self.word("out")
    }
    /// The type of a text parameter.
    fn text_param(&self) -> &'static str {
        self.word("final CharSequence")
    }
    /// An array's length property.
    fn length(&self) -> &'static str {
        self.word("length")
    }
    /// The smaller of two `int`s (a function name).
    fn min(&self) -> &'static str {
        self.word("Math.min")
    }
    /// The name of the character set text is decoded with (UTF-8, else Latin-1).
    fn charset(&self, utf8: bool) -> &'static str {
        self.word(if utf8 { "UTF_8" } else { "ISO_8859_1" })
    }
    /// The byte 0, as a value to store.
    fn zero_byte(&self) -> &'static str {
        self.word("(byte) 0")
    }
    /// The interface every message decoder implements.
    fn decoder_interface(&self) -> &'static str {
        self.word("SbeMessageDecoder")
    }
    /// What a group decoder is to a loop (`iterator`).
    fn iterator_word(&self) -> &'static str {
        self.word("iterator")
    }

    // --- Buffer access beyond single values. ---

    /// A store (no `;`) of the byte `val` at `pos` of `sbe_b`.
    fn put_byte(&self, pos: &str, val: &str) -> String;
    /// A copy (no `;`) of `n` bytes at `pos` of `sbe_b` into array `dst` at `at`.
    fn copy_out(&self, pos: &str, dst: &str, at: &str, n: &str) -> String;
    /// A copy (no `;`) of `n` bytes of `src` at `from` into `sbe_b` at `pos`.
    fn copy_in(&self, pos: &str, src: &str, from: &str, n: &str) -> String;
    /// The statement that refuses an array index `index` not below `len`.
    fn check_index(&self, len: usize) -> String;
    /// The type of a set's bits held in a local.
    fn bits_type(&self) -> &'static str;
    /// A set's raw value `x` as its bits (of [`Dialect::bits_type`]).
    fn as_bits(&self, x: &str) -> String;
    /// The mask of bit `bit` of a set.
    fn bit(&self, bit: u32) -> String;

    // --- Text. ---

    /// The length of text `v`.
    fn text_length(&self, v: &str) -> String;
    /// Char `i` of text `v`.
    fn char_at(&self, v: &str, i: &str) -> String;
    /// The char 0.
    fn nul_char(&self) -> &'static str;
    /// The statement that declares `sbe_t`, the UTF-8 bytes of text `value`.
    fn utf8_bytes(&self) -> &'static str {
        self.word("final byte[] sbe_t = value.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);")
    }
    /// The body of a char array's text getter: the text of up to `len` bytes at `pos`, up to
    /// the first NUL.
    fn fixed_text(&self, o: &mut Out, pos: &str, len: usize, utf8: bool);

    // --- Files, classes and errors. ---

    /// The first lines of a source file of package `package`.
    fn head(&self, o: &mut Out, package: &str, imports: &[&str]);
    /// The last lines of a source file.
    fn tail(&self, o: &mut Out);
    /// Marks the next method as implementing an interface's (nothing where that is unmarked).
    fn override_attr(&self, o: &mut Out);
    /// The opening line of `toString` (with its marks or documentation).
    fn to_string_head(&self, o: &mut Out);
    /// The statement that throws decode error `kind` at offset `off` for element `path`.
    fn decode_error(&self, kind: &str, off: &str, path: &str) -> String;
    /// The statement that throws encode error `kind` for the element whose path literal is
    /// `path`.
    fn encode_error(&self, kind: &str, path: &str) -> String;
    /// The syntax of the plan's check program.
    fn checks(&self) -> &dyn CheckSyntax;
    /// The syntax of the usual message's check program
    /// (`sbekit_plan::program::usual_of_message`), whose every failure leaves the labeled
    /// statement `sbe_usual` for the full program; `None` (the default) when `wrap` runs only
    /// the full program.
    fn usual_checks(&self) -> Option<&dyn CheckSyntax> {
        None
    }
    /// Opens the statement labeled `sbe_usual` run when `cond` holds (Java: `sbe_usual: if
    /// (cond) {`); only called when [`Dialect::usual_checks`] gives a syntax. `cond` does not
    /// test the buffer for null: a dialect whose buffer may be null adds that test here.
    fn open_usual(&self, cond: &str) -> String {
        format!("sbe_usual: if ({cond}) {{")
    }
    /// Closes what [`Dialect::open_usual`] opened, where a failure of the usual checks goes on
    /// (Java: the end of the labeled statement).
    fn close_usual(&self, o: &mut Out) {
        o.line("}");
    }
    /// `buffer` tested for null, with the `||` after it (nothing where it cannot be null).
    fn null_test(&self, buffer: &str) -> &'static str;
    /// The size of buffer `buffer`.
    fn capacity(&self, buffer: &str) -> String;
    /// The bytes of `buffer` from `offset` on.
    fn rest_of(&self, buffer: &str) -> String;
    /// The modifier of a method other classes of the package call (with its space, if any).
    fn internal(&self) -> &'static str;

    /// `SbeSchema`'s byte order of multi-byte values (`big_endian` or little).
    fn byte_order(&self, o: &mut Out, big_endian: bool);
    /// The declaration of `SbeSchema`'s zeros, read by an absent set or composite field.
    fn absent(&self) -> &'static str;

    // --- Enums. ---

    /// The source of an enum's file.
    fn enum_source(&self, ctx: &Ctx, name: &str, e: &EnumDef) -> String;
    /// The value of a constant enum field: listed value number `k`.
    fn enum_constant(&self, e: &EnumDef, n: &EnumNames, k: usize) -> String;
    /// The enum value of raw expression `raw`.
    fn enum_of_raw(&self, ty: &str, raw: &str) -> String;
    /// The raw value of enum parameter `value` of encoding type `ty`.
    fn raw_of_enum(&self, ty: P) -> String;
    /// What the enum getter's documentation says of its values.
    fn enum_getter_doc(&self) -> &'static str {
        self.word("field (`NULL_VAL` for the null value, `SBE_UNKNOWN` for a value the schema does not list)")
    }

    // --- JSON. ---

    /// The statement that appends value `x` of `ty` as JSON.
    fn scalar_json(&self, ty: P, x: &str) -> String;
    /// The statement that appends the enum value of raw expression `raw` as JSON.
    fn enum_json(&self, n: &EnumNames, raw: &str) -> String;
    /// The head of a loop over the entries of group expression `group` as `sbe_x`.
    fn for_each(&self, group: &str) -> String;

    // --- Decoders. ---

    /// The opening line of a message decoder class.
    fn message_decoder_class(&self, name: &str) -> String;
    /// The opening line of a group decoder class.
    fn group_decoder_class(&self, name: &str) -> String;
    /// How a group decoder is iterated, for its documentation.
    fn iterator_usage(&self) -> &'static str {
        self.word("iterator (`for (var e : d.group())`)")
    }
    /// The method that moves a group decoder to its next entry.
    fn next_method(&self) -> &'static str {
        self.word("next")
    }
    /// The field that views var-data section `i` (nothing where the view is a value).
    fn var_view_field(&self, o: &mut Out, i: usize);
    /// The accessors that view var-data section `i` whose bytes start at `at`.
    fn var_view(&self, o: &mut Out, i: usize, at: &str, name: &str, desc: &str, n: &SectionNames);
    /// The text accessor of var data whose bytes start at `at`.
    fn var_text(&self, o: &mut Out, at: &str, n: &SectionNames, utf8: bool);
    /// The group decoder's move to the next entry, up to the move itself.
    fn next_head(&self, o: &mut Out, class: &str);
    /// What the move to the next entry returns.
    fn next_result(&self) -> &'static str {
        self.word("this")
    }
    /// The group decoder's members after the move (the current entry, the iterator).
    fn iteration_tail(&self, o: &mut Out, class: &str);

    // --- Encoders. ---

    /// True if a message encoder keeps itself in `sbe_m` (else `sbe_m` is a property).
    fn message_holds_itself(&self) -> bool;
    /// A message encoder's state beyond the shared (declarations without visibility).
    fn message_encoder_state(&self) -> &'static [&'static str];
    /// A message encoder's `wrap` overloads, up to the opening of the one that writes.
    fn encoder_wraps(&self, o: &mut Out, class: &str);
    /// What the writing `wrap` records of the buffer's size.
    fn wrap_capacity(&self, o: &mut Out);
    /// Marks the method whose signature follows as one the runtime should inline into its
    /// caller (an encoder's setters, reservations and section starts), where its JIT does not
    /// do so by itself. Nothing by default.
    fn hot(&self, _o: &mut Out) {}
    /// `sbeTakeRaw`'s handling of a reservation of `n` bytes at `at` past the buffer's end.
    fn grow_or_fail(&self, o: &mut Out);
    /// The out-of-line methods [`Dialect::grow_or_fail`] calls, if any.
    fn grow_fn(&self, o: &mut Out);
    /// True if a block's numbers and enums are zeroed when the block completes, and only those
    /// the caller left unset (a bit per setter in `sbe_set`), rather than with the rest of the
    /// block when it is reserved. Mono checks bounds per byte stored, so zeroing what is then
    /// written costs more than the bookkeeping; on the JVM the bookkeeping costs more (the
    /// bits live in a field, read again after every Agrona store).
    fn defers_zeroing(&self) -> bool {
        true
    }
    /// Internal helpers in the schema's constants class for the raw reads of `wrap`'s checks
    /// ([`Dialect::walk_prelude`]), if the dialect has them. Nothing by default.
    fn raw_reads(&self, _o: &mut Out) {}
    /// Statements at the start of `wrap`'s checks, once the room is checked against the
    /// buffer: the locals the checks' loads use, if any. Nothing by default.
    fn walk_prelude(&self, _o: &mut Out) {}
    /// `sbeZero`'s body: zeroes `n` bytes at `at`.
    fn zero_body(&self, o: &mut Out);
    /// Zeroes `n` bytes at `base + 0 .. base + n` of `buf` (`sbe_b`, or a local holding it),
    /// at constant offsets.
    fn zero(&self, o: &mut Out, buf: &str, base: &str, n: usize);
    /// Zeroes the `n`-byte prefix at `base` of which `written` are stored next.
    fn zero_prefix(&self, o: &mut Out, base: &str, n: usize, written: &[&Slot]);
    /// The statement that refuses an entry of group `path` the version written lacks.
    fn not_in_version(&self, path: &str) -> String;
    /// The byte sources var data is written from: `(parameter type, what it is)`.
    fn byte_sources(&self) -> &'static [(&'static str, &'static str)];
    /// True if a private method nothing calls may be emitted (else the compiler objects).
    fn emits_unused_private(&self) -> bool;
    /// The name of the encoder's scratch buffer accessor.
    fn scratch_method(&self) -> &'static str {
        self.word("sbe_scratch")
    }
    /// Emits the scratch buffer accessor of an encoder (see [`fields::needs_scratch`]).
    fn scratch(&self, o: &mut Out);

    // --- Owned values (DTOs, [`dto`]); the defaults are Java's. ---

    /// True if the language's type of `ty` is wider than the wire type (Java's unsigned
    /// types): setters then also refuse what the wire type cannot hold.
    fn widened(&self, ty: P) -> bool {
        let _ = ty;
        false
    }
    /// `a op b` for values of `ty` (`op` is `<` or `>`).
    fn compare(&self, ty: P, a: &str, op: &str, b: &str) -> String {
        let _ = ty;
        format!("{a} {op} {b}")
    }
    /// Value `x` of `ty` as text in a string concatenation.
    fn value_text(&self, ty: P, x: &str) -> String {
        let _ = ty;
        x.to_string()
    }
    /// The text of the first `n` bytes of array `bytes`, decoded as UTF-8 or Latin-1.
    fn text_of(&self, bytes: &str, n: &str, utf8: bool) -> String {
        format!(
            "new String({bytes}, 0, {n}, java.nio.charset.StandardCharsets.{})",
            self.charset(utf8)
        )
    }
    /// The statement refusing a null reference `x` (for element `what`), where one can be.
    fn require_non_null(&self, x: &str, what: &str) -> Option<String> {
        Some(format!(
            "java.util.Objects.requireNonNull({x}, {});",
            self.str_lit(what)
        ))
    }
    /// The body of an enum field's setter taking enum `value`: its raw value set through
    /// `raw` (which refuses unlisted values) and `this` returned.
    fn enum_setter(&self, n: &EnumNames, ty: P, raw: &str, what: &str) -> Vec<String> {
        let _ = ty;
        vec![
            format!(
                "if (value == {}.SBE_UNKNOWN) throw new IllegalArgumentException({});",
                n.ty,
                self.str_lit(&format!("{what}: SBE_UNKNOWN is not a value to write"))
            ),
            format!(
                "return {raw}(value == null ? {}.NULL_VAL.value() : value.value());",
                n.ty
            ),
        ]
    }
    /// The list type of elements `e`.
    fn list_of(&self, e: &str) -> String {
        format!("java.util.List<{e}>")
    }
    /// A new empty list of elements `e`.
    fn new_list(&self, e: &str) -> String {
        format!("new java.util.ArrayList<{e}>()")
    }
    /// The number of elements of list `x`.
    fn list_size(&self, x: &str) -> String {
        format!("{x}.size()")
    }
    /// The statement appending `x` to list `l`.
    fn list_add(&self, l: &str, x: &str) -> String {
        format!("{l}.add({x});")
    }
    /// Lists `a` and `b` hold equal elements.
    fn list_equal(&self, a: &str, b: &str) -> String {
        format!("{a}.equals({b})")
    }
    /// The hash of list `x`.
    fn list_hash(&self, x: &str) -> String {
        format!("{x}.hashCode()")
    }
    /// List `x` as text.
    fn list_text(&self, x: &str) -> String {
        x.to_string()
    }
    /// Arrays `a` and `b` hold equal elements.
    fn arrays_equal(&self, a: &str, b: &str) -> String {
        format!("java.util.Arrays.equals({a}, {b})")
    }
    /// The hash of array `x`.
    fn array_hash(&self, x: &str) -> String {
        format!("java.util.Arrays.hashCode({x})")
    }
    /// Array `x` as text.
    fn array_text(&self, x: &str) -> String {
        format!("java.util.Arrays.toString({x})")
    }
    /// Values `a` and `b` of `ty` are equal (floats: the same value, NaNs equal).
    fn value_equal(&self, ty: P, a: &str, b: &str) -> String {
        match ty {
            P::Float => format!("Float.compare({a}, {b}) == 0"),
            P::Double => format!("Double.compare({a}, {b}) == 0"),
            _ => format!("{a} == {b}"),
        }
    }
    /// The `int` hash of value `x` of `ty`.
    fn value_hash(&self, ty: P, x: &str) -> String {
        let cls = match self.ty(ty) {
            "byte" => "Byte",
            "short" => "Short",
            "int" => "Integer",
            "float" => "Float",
            "double" => "Double",
            _ => "Long",
        };
        format!("{cls}.hashCode({x})")
    }
    /// The hash of object `x`.
    fn hash_of(&self, x: &str) -> String {
        format!("{x}.hashCode()")
    }
    /// The opening of `equals`, down to `that`, the other object as a `cls`.
    fn equals_head(&self, o: &mut Out, cls: &str) {
        o.line("@Override");
        o.line("public boolean equals(final Object o) {");
        o.line("if (this == o) return true;");
        o.line(&format!("if (!(o instanceof {cls})) return false;"));
        o.line(&format!("final {cls} that = ({cls}) o;"));
    }
    /// The opening of `hashCode`.
    fn hash_head(&self, o: &mut Out) {
        o.line("@Override");
        o.line("public int hashCode() {");
    }
    /// The opening of a DTO's `toString`.
    fn dto_to_string_head(&self, o: &mut Out) {
        o.doc("The values, readable (not JSON: `sbekit decode` prints the message's JSON).");
        o.line("@Override");
        o.line("public String toString() {");
    }
    /// `x` (an integer expression) as a value of `ty`'s type.
    fn cast(&self, ty: P, x: &str) -> String {
        match self.ty(ty) {
            "long" => x.to_string(),
            t => format!("({t}) ({x})"),
        }
    }
    /// The head of a loop over the elements `var` (of type `ty`) of list `list`.
    fn for_in(&self, var: &str, ty: &str, list: &str) -> String {
        format!("for (final {ty} {var} : {list})")
    }
    /// A new zeroed buffer of `n` bytes encoders write (and decoders read).
    fn new_buffer(&self, n: &str) -> String {
        format!("new org.agrona.concurrent.UnsafeBuffer(new byte[{n}])")
    }
    /// Array `a` as a buffer encoders write.
    fn writer_of_array(&self, a: &str) -> String {
        format!("new org.agrona.concurrent.UnsafeBuffer({a})")
    }
    /// A copy (no `;`) of `n` bytes of buffer `src` at `src_at` into buffer `dst` at `dst_at`.
    fn copy_buffers(&self, dst: &str, dst_at: &str, src: &str, src_at: &str, n: &str) -> String {
        format!("{dst}.putBytes({dst_at}, {src}, {src_at}, {n})")
    }

    // --- The dispatcher. ---

    /// The dispatcher's re-encoding of a decoded message.
    fn reencode(&self, o: &mut Out, ctx: &Ctx);
}

#[cfg(test)]
mod tests {
    use super::{dotted_identifiers, string_literal, upper_first};

    #[test]
    fn upper_first_upper_cases_the_first_letter_only() {
        assert_eq!(upper_first("fooBar"), "FooBar");
        assert_eq!(upper_first("FooBar"), "FooBar");
        assert_eq!(upper_first(""), "");
    }

    #[test]
    fn dotted_identifiers_refuse_empty_parts_digits_first_and_what_is_not_allowed() {
        let any = |_: &str| true;
        assert!(dotted_identifiers("a.b_1", &[], any));
        assert!(!dotted_identifiers("", &[], any));
        assert!(!dotted_identifiers("a..b", &[], any));
        assert!(!dotted_identifiers("a.1b", &[], any));
        assert!(!dotted_identifiers("a$", &[], any));
        assert!(dotted_identifiers("a$", &['$'], any));
        assert!(!dotted_identifiers("a.int", &[], |s| s != "int"));
    }

    #[test]
    fn string_literals_escape_controls_as_the_language_reads_them() {
        assert_eq!(string_literal("a\"b\\c\n", false), r#""a\"b\\c\n""#);
        assert_eq!(
            string_literal("\u{1}é😀", false),
            r#""\u0001\u00e9\ud83d\ude00""#
        );
        assert_eq!(string_literal("\u{1}é", true), r#""\001\u00e9""#);
    }
}
