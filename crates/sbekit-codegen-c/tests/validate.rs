//! The owned values' `validate` (`owned.h`) under `-fsanitize=address,undefined` and the strict
//! warnings: owned values of `orders-be.xml`, and of a small schema of float bounds and nested
//! composites written here, built in C, each breaking one rule (or none). Every rule fires with
//! its kind and the element's path: a number out of range, an array element out of range, a
//! composite member out of range (also through a group entry and a nested composite), an enum
//! value the schema does not list, too many group entries, var data too long; a NaN is outside a
//! float's bounds; a field whose `has_` flag is false is not checked; valid values validate, and
//! `encode` writes a value that does not validate as it holds it (it does not call `validate`).
//! Counts and lengths are checked before any entry or byte is read (ASan would see a read past
//! the few entries a huge count points at).

mod common;

use common::*;
use std::path::PathBuf;

/// A schema of the bounds `orders-be.xml` lacks: floats with schema bounds (one with a minimum
/// only), an integer array with both bounds, an enum in a composite, a composite in a composite.
const BOUNDS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="bounds" id="7" version="0" byteOrder="littleEndian">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <enum name="Color" encodingType="uint8">
            <validValue name="Red">1</validValue>
            <validValue name="Blue">2</validValue>
        </enum>
        <composite name="Inner">
            <type name="level" primitiveType="uint8" maxValue="9"/>
            <ref name="color" type="Color"/>
        </composite>
        <composite name="Outer">
            <type name="share" primitiveType="float" minValue="0" maxValue="1"/>
            <ref name="inner" type="Inner"/>
        </composite>
        <type name="Weight" primitiveType="double" minValue="-1.5" maxValue="2.5"/>
        <type name="Positive" primitiveType="float" minValue="0"/>
        <type name="Small" primitiveType="int8" length="2" minValue="-5" maxValue="5"/>
    </types>
    <sbe:message name="Quote" id="1">
        <field name="outer" id="1" type="Outer"/>
        <field name="weight" id="2" type="Weight"/>
        <field name="positive" id="3" type="Positive"/>
        <field name="small" id="4" type="Small"/>
    </sbe:message>
</sbe:messageSchema>
"#;

/// One line per case: `<case> <kind> <path>` (`ok -` when it validates, `-` for no path).
const CHECKS: &str = r#"
static int mismatch = 0;

static void report(const char* what, int r, const sbekit_error* e) {
    if (r != 0 && r != (int)e->kind) mismatch = 1;
    printf("%s %s %s\n", what, r == 0 ? "ok" : sbekit_kind_name(e->kind), r == 0 || e->path[0] == 0 ? "-" : e->path);
}

static orders_order_fills_legs_owned legs[2];
static orders_order_fills_owned fills[65535];
static orders_order_marks_owned marks[2];
static char note[1025];
static uint8_t blob[4];

/* A valid order: every bound at its limit, absent values that would break a rule if checked. */
static void valid_order(orders_order_owned* o) {
    size_t i;
    memset(o, 0, sizeof *o);
    memset(fills, 0, sizeof fills);
    memset(legs, 0, sizeof legs);
    memset(marks, 0, sizeof marks);
    memset(note, 'n', sizeof note);
    o->acting_version = ORDERS_SCHEMA_VERSION;
    o->order_id = UINT64_MAX - 1;
    memcpy(o->symbol, "ABC", 3);
    o->side = ORDERS_SIDE_SELL;
    o->price.mantissa = INT64_MIN + 1;
    o->has_qty = true;
    o->qty = UINT32_MAX - 1;
    o->weights[0] = -32767;
    o->weights[1] = 0;
    o->weights[2] = 32767;
    o->has_ratio = true;
    o->ratio = 0.5;
    o->has_flags = true;
    o->flags = (orders_flags)(ORDERS_FLAGS_HIDDEN | ORDERS_FLAGS_ICEBERG);
    o->has_venue = true;
    o->venue = ORDERS_VENUE_AUCTION;
    legs[0].has_ratio = true;
    legs[0].ratio = -32767;
    legs[1].has_ratio = false;
    legs[1].ratio = INT16_MIN;
    for (i = 0; i < 65535; ++i) fills[i].fill_qty = (uint32_t)i;
    fills[0].has_fill_price = true;
    fills[0].fill_price.mantissa = 5;
    fills[0].legs = legs;
    fills[0].legs_count = 2;
    fills[0].fill_note.data = note;
    fills[0].fill_note.len = 1024;
    fills[1].has_fill_price = true;
    fills[1].fill_price.mantissa = -7;
    o->fills = fills;
    o->fills_count = 2;
    marks[0].has_mark = true;
    marks[0].mark = 254;
    o->marks = marks;
    o->marks_count = 1;
    o->note.data = note;
    o->note.len = 1024;
    o->blob.data = blob;
    o->blob.len = sizeof blob;
}

/* Case NAME: value V made valid by RESET, then CHANGE, checked by VALIDATE. */
#define CHECK(NAME, RESET, VALIDATE, V, CHANGE)      \
    do {                                             \
        RESET(&V);                                   \
        CHANGE;                                      \
        memset(&e, 0, sizeof e);                     \
        report(NAME, VALIDATE(&V, &e), &e);          \
    } while (0)
#define CASE(NAME, CHANGE) CHECK(NAME, valid_order, orders_order_owned_validate, o, CHANGE)

static int orders_checks(void) {
    static uint8_t buf[1 << 17], arena[1 << 17];
    orders_order_owned o, back;
    orders_any_owned any;
    sbekit_error e;
    sbekit_arena a;
    size_t len = 0;
    int r;
    CASE("valid", (void)0);
    CASE("most-entries", o.fills_count = 65534);
    CASE("absent-not-checked", (o.has_qty = false, o.qty = UINT32_MAX, o.has_venue = false, o.venue = 3,
                                marks[0].has_mark = false, marks[0].mark = 255, fills[1].has_fill_price = false,
                                fills[1].fill_price.mantissa = INT64_MIN));
    CASE("number", o.order_id = UINT64_MAX);
    CASE("optional-number", o.qty = UINT32_MAX);
    CASE("optional-null-value", o.qty = 0);
    CASE("optional-nan", o.ratio = NAN);
    CASE("array-element", o.weights[2] = INT16_MIN);
    CASE("composite-member", o.price.mantissa = INT64_MIN);
    CASE("entry-composite-member", fills[1].fill_price.mantissa = INT64_MIN);
    CASE("nested-entry-number", legs[1].has_ratio = true);
    CASE("entry-number", marks[0].mark = 255);
    CASE("enum", o.side = 'X');
    CASE("optional-enum", o.venue = 3);
    CASE("too-many-entries", o.fills_count = 65535);
    /* A count far past the two entries `marks` points at: refused before any entry is read. */
    CASE("too-many-wide-entries", o.marks_count = (size_t)2147483648u);
    CASE("too-long", o.note.len = 1025);
    CASE("entry-too-long", fills[0].fill_note.len = 1025);
    CASE("bytes-too-long", o.blob.len = (size_t)4294967295u);
    CASE("first-rule-broken", (o.note.len = 1025, o.order_id = UINT64_MAX));
    /* No error out: the kind alone. */
    valid_order(&o);
    o.side = 'X';
    printf("no-err %s\n", sbekit_kind_name((sbekit_kind)orders_order_owned_validate(&o, NULL)));
    /* Any message: the message's validate; none held is the wrong template. */
    valid_order(&any.u.m0);
    any.which = ORDERS_ANY_ORDER;
    report("any-valid", orders_any_owned_validate(&any, &e), &e);
    any.u.m0.venue = 7;
    report("any", orders_any_owned_validate(&any, &e), &e);
    any.which = ORDERS_ANY_NONE;
    report("any-none", orders_any_owned_validate(&any, &e), &e);
    /* encode does not validate: an unlisted enum value and a number out of range are written as
       held, and read back as they were written. */
    valid_order(&o);
    o.side = 'X';
    o.order_id = UINT64_MAX;
    r = orders_order_owned_encode(&o, buf, sizeof buf, &len, &e);
    sbekit_arena_init(&a, arena, sizeof arena);
    if (r == 0) r = orders_order_owned_decode(&back, buf, len, &a, &e);
    printf("encode-unchecked %s %s\n", r == 0 ? "ok" : sbekit_kind_name(e.kind),
           r == 0 && orders_order_owned_equal(&o, &back) ? "equal" : "differ");
    report("decoded", orders_order_owned_validate(&back, &e), &e);
    return mismatch;
}

#define BCASE(NAME, CHANGE) CHECK(NAME, valid_quote, bounds_quote_owned_validate, q, CHANGE)

static void valid_quote(bounds_quote_owned* q) {
    memset(q, 0, sizeof *q);
    q->outer.share = 1.0f;
    q->outer.inner.level = 9;
    q->outer.inner.color = BOUNDS_COLOR_BLUE;
    q->weight = -1.5;
    q->positive = INFINITY;
    q->small[0] = -5;
    q->small[1] = 5;
}

static int bounds_checks(void) {
    bounds_quote_owned q;
    sbekit_error e;
    BCASE("bounds-valid", (void)0);
    BCASE("float-high", q.outer.share = 1.5f);
    BCASE("float-nan", q.outer.share = NAN);
    BCASE("nested-composite-member", q.outer.inner.level = 10);
    BCASE("composite-enum", q.outer.inner.color = 3);
    BCASE("double-low", q.weight = -1.75);
    BCASE("min-only-low", q.positive = -0.5f);
    BCASE("min-only-nan", q.positive = NAN);
    BCASE("array-low", q.small[0] = -6);
    BCASE("array-high", q.small[1] = 6);
    return mismatch;
}

int main(void) {
    if (orders_checks() != 0) return 1;
    if (bounds_checks() != 0) return 1;
    return 0;
}
"#;

/// What each case reports.
const EXPECTED: &str = "\
valid ok -
most-entries ok -
absent-not-checked ok -
number valueOutOfRange Order.orderId
optional-number valueOutOfRange Order.qty
optional-null-value valueOutOfRange Order.qty
optional-nan valueOutOfRange Order.ratio
array-element valueOutOfRange Order.weights
composite-member valueOutOfRange Price.mantissa
entry-composite-member valueOutOfRange Price.mantissa
nested-entry-number valueOutOfRange Order.fills.legs.ratio
entry-number valueOutOfRange Order.marks.mark
enum unknownEnumValue Order.side
optional-enum unknownEnumValue Order.venue
too-many-entries countTooLarge Order.fills
too-many-wide-entries countTooLarge Order.marks
too-long valueTooLong Order.note
entry-too-long valueTooLong Order.fills.fillNote
bytes-too-long valueTooLong Order.blob
first-rule-broken valueOutOfRange Order.orderId
no-err unknownEnumValue
any-valid ok -
any unknownEnumValue Order.venue
any-none wrongTemplateId -
encode-unchecked ok equal
decoded valueOutOfRange Order.orderId
bounds-valid ok -
float-high valueOutOfRange Outer.share
float-nan valueOutOfRange Outer.share
nested-composite-member valueOutOfRange Inner.level
composite-enum unknownEnumValue Inner.color
double-low valueOutOfRange Quote.weight
min-only-low valueOutOfRange Quote.positive
min-only-nan valueOutOfRange Quote.positive
array-low valueOutOfRange Quote.small
array-high valueOutOfRange Quote.small
";

#[test]
fn validation_under_sanitizers() {
    let test = "validation_under_sanitizers";
    let root = tempfile::tempdir().expect("tempdir");
    let bounds = root.path().join("bounds.xml");
    std::fs::write(&bounds, BOUNDS).expect("bounds schema");
    let schemas: Vec<(String, PathBuf)> = vec![
        (
            "orders".into(),
            sbekit_testdata::workspace_file("crates/sbekit-codegen-tests/schemas/orders-be.xml"),
        ),
        ("bounds".into(), bounds),
    ];
    let Some(prog) = sanitized_program(root.path(), test, &schemas, CHECKS) else {
        return;
    };
    let out = sbekit_testdata::pipe(&prog, &[], &[]);
    let text = String::from_utf8_lossy(&out);
    assert_eq!(
        text, EXPECTED,
        "each case: its kind and path (the exit code says whether a kind returned differs from err.kind)"
    );
    eprintln!(
        "{test}: {} validation cases of orders-be.xml and a bounds schema under ASan+UBSan",
        EXPECTED.lines().count()
    );
}
