//! Owned values (`owned.hpp`) in one program built with the strict flags and run under
//! `-fsanitize=address,undefined`:
//! - property: random owned values of `orders-be.xml`'s `Order` (big-endian, composites,
//!   enums, sets, char arrays, optional and versioned fields, nested groups, text and byte var
//!   data) and `versioned-v1.xml`'s `Evolving`, at every acting version, encode to
//!   `computeEncodedLength()` bytes, decode back to equal values (also through `AnyOwned`), are
//!   the bytes the flyweights' `reencode` writes for what they read, are refused by shorter
//!   buffers, and are read by the older schema's owned values where it knows the fields;
//! - an older writer's message keeps its version, and writes back the same bytes; a field newer
//!   than version 0 must be set at a version that has it (`missingValue`), and is not checked
//!   at one that does not;
//! - validation (`tests/schemas/owned-checks.xml`): each rule (a number outside its range,
//!   explicit or default, in a field, an array, a composite and a group entry; an optional
//!   holding its null value; an enum value the schema does not list; text too long for its
//!   array; more entries than the count allows; var data too long) is an error with its kind
//!   and path from `validate()` and from `encodeInto` (which then writes nothing); with
//!   `Checks::Wire` the values the wire can carry are written as they are and read back, and
//!   what it cannot carry is the encoders' own error.
//!
//! The conformance modes through owned values are checked on random messages by `run.rs` and
//! over the 80 reference schemas by `sbekit conformance --lang cpp --owned`.

mod common;

use common::*;
use sbekit_testdata::{run_ok, workspace_file};
use std::path::Path;
use std::process::Command;

const MAIN: &str = r#"
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = ::sbekit::rt;

static int failures = 0;
#define CHECK(cond, what)                                                  \
    do {                                                                   \
        if (!(cond)) {                                                     \
            std::printf("FAIL %s:%d: %s (%s)\n", __FILE__, __LINE__, what, #cond); \
            ++failures;                                                    \
        }                                                                  \
    } while (0)

struct Rng {
    std::mt19937_64 g;
    explicit Rng(std::uint64_t seed) : g(seed) {}
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : g() % n; }
    bool coin() { return (g() & 1u) != 0; }
    template <class T>
    T in(T lo, T hi) {
        std::uniform_int_distribution<T> d(lo, hi);
        return d(g);
    }
    std::uint8_t byte() { return static_cast<std::uint8_t>(g()); }
    // Printable ASCII (no NUL, which ends a char array's text), up to `max` characters.
    std::string text(std::size_t max) {
        std::string s(below(max + 1), ' ');
        for (auto& c : s) c = static_cast<char>(in<int>(0x20, 0x7e));
        return s;
    }
    std::vector<std::uint8_t> bytes(std::size_t max) {
        std::vector<std::uint8_t> b(below(max + 1));
        for (auto& c : b) c = byte();
        return b;
    }
};

// `o` encodes, decodes back to itself, is what the flyweights write for it, and is refused by
// shorter buffers. `Any` is the package's AnyOwned; `dec` its decode_any, `re` its reencode.
template <class O, class Any, class Dec, class Re>
static std::vector<std::uint8_t> round_trip(const O& o, Dec dec, Re re) {
    CHECK(o.validate().kind == rt::ErrorKind::Ok, "a valid value validates");
    const auto e = o.encode();
    CHECK(e.ok(), "encodes");
    if (!e) return {};
    const std::vector<std::uint8_t>& b = e.value();
    CHECK(b.size() == o.computeEncodedLength(), "computeEncodedLength is the length written");
    const auto back = O::decodeFrom(b.data(), b.size());
    CHECK(back.ok() && back.value() == o, "decodes back to an equal value");
    CHECK(!(back.value() != o), "operator!=");
    const auto any = Any::decodeFrom(b.data(), b.size());
    CHECK(any.ok() && any.value() == Any{o}, "AnyOwned decodes it");
    const auto m = dec(b.data(), b.size());
    CHECK(m.ok(), "the flyweights decode it");
    if (m) {
        std::vector<std::uint8_t> again(b.size() + 64);
        const auto k = re(m.value(), again.data(), again.size());
        CHECK(k.ok() && k.value() == b.size() && std::memcmp(again.data(), b.data(), b.size()) == 0,
              "the flyweights write the same bytes for what they read");
    }
    const std::size_t n = b.size();
    for (const std::size_t cap : {std::size_t{0}, n / 2, n - 1}) {
        std::unique_ptr<std::uint8_t[]> small(new std::uint8_t[cap + 1]);
        const auto w = o.encodeInto(small.get(), cap);
        CHECK(!w && w.error().kind == rt::ErrorKind::BufferTooSmall, "a shorter buffer is refused");
    }
    return b;
}
"#;

/// The property, version and validation checks (`main`), after [`MAIN`]'s helpers.
const CHECKS: &str = r#"
static orders::OrderOwned random_order(Rng& r, std::uint64_t v) {
    orders::OrderOwned o;
    o.sbeActingVersion = v;
    o.orderId = r.in<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max() - 1);
    o.symbol = r.text(8);
    o.side = r.coin() ? orders::Side::BUY : orders::Side::SELL;
    o.price.mantissa = r.in<std::int64_t>(std::numeric_limits<std::int64_t>::min() + 1, std::numeric_limits<std::int64_t>::max());
    // `qty`'s null value is 0.
    if (r.coin()) o.qty = r.in<std::uint32_t>(1, std::numeric_limits<std::uint32_t>::max() - 1);
    for (auto& w : o.weights) w = r.in<std::int16_t>(-32767, 32767);
    if (r.coin()) o.ratio = static_cast<double>(r.in<std::int32_t>(-1000000, 1000000)) / 64.0;
    if (v >= 1) o.flags = orders::Flags(static_cast<std::uint32_t>(r.g()));
    if (v >= 2 && r.coin()) {
        const orders::Venue vs[] = {orders::Venue::LIT, orders::Venue::DARK, orders::Venue::AUCTION};
        o.venue = vs[r.below(3)];
    }
    for (std::uint64_t i = r.below(4); i > 0; --i) {
        orders::OrderFillsOwned f;
        f.fillQty = r.in<std::uint32_t>(0, std::numeric_limits<std::uint32_t>::max() - 1);
        if (v >= 1) f.fillPrice = orders::PriceOwned{r.in<std::int64_t>(-1000000, 1000000)};
        for (std::uint64_t j = r.below(3); j > 0; --j) {
            orders::OrderFillsLegsOwned l;
            if (r.coin()) l.ratio = r.in<std::int16_t>(-32767, 32767);
            f.legs.push_back(l);
        }
        f.fillNote = r.text(20);
        o.fills.push_back(f);
    }
    if (v >= 1) {
        for (std::uint64_t i = r.below(4); i > 0; --i) {
            orders::OrderMarksOwned k;
            if (v >= 2) k.mark = r.in<std::uint8_t>(0, 254);
            o.marks.push_back(k);
        }
        o.blob = r.bytes(30);
    }
    o.note = r.text(30);
    return o;
}

static vers1::EvolvingOwned random_evolving(Rng& r, std::uint64_t v) {
    vers1::EvolvingOwned o;
    o.sbeActingVersion = v;
    o.a = r.in<std::uint32_t>(0, std::numeric_limits<std::uint32_t>::max() - 1);
    if (v >= 1) {
        // `b` is optional: its null value (the largest uint32) reads back as absent.
        if (r.coin()) o.b = r.in<std::uint32_t>(0, std::numeric_limits<std::uint32_t>::max() - 1);
        o.c = r.coin() ? vers1::Color::RED : vers1::Color::GREEN;
        o.e = r.text(24);
    }
    for (std::uint64_t i = r.below(6); i > 0; --i) {
        vers1::EvolvingGOwned g;
        g.x = r.in<std::int16_t>(-32767, 32767);
        if (v >= 1) g.y = r.in<std::int64_t>(-1000000000, 1000000000);
        o.g.push_back(g);
    }
    o.d = r.text(24);
    return o;
}

static void properties() {
    Rng r(0x0e11ed);
    int n = 0;
    for (int i = 0; i < 600; ++i) {
        const auto o = random_order(r, static_cast<std::uint64_t>(i % 3));
        round_trip<orders::OrderOwned, orders::AnyOwned>(
            o, [](const std::uint8_t* b, std::size_t k) { return orders::decode_any(b, k); },
            [](const orders::AnyMessage& m, std::uint8_t* b, std::size_t c) { return orders::reencode(m, b, c); });
        ++n;
    }
    for (int i = 0; i < 600; ++i) {
        const auto o = random_evolving(r, static_cast<std::uint64_t>(i % 2));
        const auto b = round_trip<vers1::EvolvingOwned, vers1::AnyOwned>(
            o, [](const std::uint8_t* p, std::size_t k) { return vers1::decode_any(p, k); },
            [](const vers1::AnyMessage& m, std::uint8_t* p, std::size_t c) { return vers1::reencode(m, p, c); });
        // A reader of the older schema sees the fields it knows.
        const auto old = vers0::EvolvingOwned::decodeFrom(b.data(), b.size());
        CHECK(old.ok(), "an older reader decodes it");
        if (old) {
            CHECK(old->a == o.a && old->d == o.d && old->g.size() == o.g.size(), "the older reader's fields");
            for (std::size_t k = 0; k < o.g.size() && k < old->g.size(); ++k) CHECK(old->g[k].x == o.g[k].x, "entries");
        }
        ++n;
    }
    std::printf("properties: %d random owned values\n", n);
}

// An older writer's message comes back as that version and writes back the same bytes; a
// group the older version lacks is not written at it even when the value holds entries.
static void versions() {
    std::uint8_t buf0[512];
    vers0::EvolvingOwned old;
    old.a = 7;
    old.g = {vers0::EvolvingGOwned{-3}, vers0::EvolvingGOwned{9}};
    old.d = {'o', 'l', 'd'};
    CHECK(old.sbeActingVersion == 0, "the older schema's version");
    const auto b = old.encode();
    CHECK(b.ok(), "the older writer encodes");
    const auto o = vers1::EvolvingOwned::decodeFrom(b->data(), b->size());
    CHECK(o.ok() && o->sbeActingVersion == 0 && o->a == 7 && !o->b && !o->c && o->g.size() == 2 && !o->g[0].y && o->e.empty(),
          "the newer reader sees an older message");
    const auto again = o->encode();
    CHECK(again.ok() && again.value() == b.value(), "written back at its version, byte for byte");

    vers1::NewGroupOwned ng;
    ng.sbeActingVersion = 0;
    ng.a = 1;
    ng.g = {vers1::NewGroupGOwned{2}};
    ng.h = {vers1::NewGroupHOwned{3}};
    ng.d = {'x'};
    const auto nb = ng.encode();
    CHECK(nb.ok() && nb->size() == ng.computeEncodedLength(), "an older version's length");
    const auto back = vers1::NewGroupOwned::decodeFrom(nb->data(), nb->size());
    CHECK(back.ok() && back->sbeActingVersion == 0 && back->h.empty() && back->g.size() == 1, "the newer group is left out");
    // A field newer than version 0 must be set at a version that has it; at an older version
    // it is not written, so not checked.
    orders::OrderOwned od;
    od.side = orders::Side::SELL;
    od.flags = orders::Flags{};
    od.fills.push_back({});
    od.fills[0].fillPrice = orders::PriceOwned{1};
    CHECK(od.validate().kind == rt::ErrorKind::Ok, "every field the version has is set");
    auto missing = od;
    missing.flags.reset();
    const rt::Error me = missing.validate();
    CHECK(me.kind == rt::ErrorKind::MissingValue && std::strcmp(me.path, "Order.flags") == 0, "an unset newer field");
    CHECK(!missing.encode() && missing.encode().error().kind == rt::ErrorKind::MissingValue, "encode refuses it");
    missing.sbeActingVersion = 0;
    missing.fills[0].fillPrice.reset();
    CHECK(missing.validate().kind == rt::ErrorKind::Ok && missing.encode().ok(), "an older version lacks it");
    missing.sbeActingVersion = 1;
    const rt::Error fe = missing.validate();
    CHECK(fe.kind == rt::ErrorKind::MissingValue && std::strcmp(fe.path, "Order.flags") == 0, "at version 1");
    missing.flags = orders::Flags{};
    const rt::Error ge = missing.validate();
    CHECK(ge.kind == rt::ErrorKind::MissingValue && std::strcmp(ge.path, "Order.fills.fillPrice") == 0, "in a group entry");
    CHECK(missing.encodeInto(buf0, sizeof buf0, rt::Checks::Wire).ok(), "Checks::Wire writes zeros for it");
    vers1::AnyOwned none;
    std::uint8_t buf[64];
    const auto w = none.encodeInto(buf, sizeof buf);
    CHECK(!w && w.error().kind == rt::ErrorKind::WrongTemplateId, "no message is wrongTemplateId");
}

static checks::CheckedOwned valid() {
    checks::CheckedOwned o;
    o.percent = 50;
    o.ratio = 0.5;
    o.plain = 7;
    o.quantity = 3u;
    o.kind = checks::Kind::SMALL;
    o.code = "AB";
    o.levels = {1, 1000};
    o.band.low = -100;
    o.band.high = 5;
    o.items = {checks::CheckedItemsOwned{1}, checks::CheckedItemsOwned{100}};
    o.note = "hello";
    return o;
}

struct Rule {
    const char* what;
    void (*set)(checks::CheckedOwned&);
    rt::ErrorKind kind;
    const char* path;
    // With Checks::Wire: true when the value is written and read back as it is; false when the
    // encoders refuse it themselves (with the same kind).
    bool wire_carries;
};

static void validation() {
    const Rule rules[] = {
        {"below an explicit minimum", [](checks::CheckedOwned& o) { o.percent = 0; }, rt::ErrorKind::ValueOutOfRange, "Checked.percent", true},
        {"above an explicit maximum", [](checks::CheckedOwned& o) { o.percent = 101; }, rt::ErrorKind::ValueOutOfRange, "Checked.percent", true},
        {"a double above its maximum", [](checks::CheckedOwned& o) { o.ratio = 1.5; }, rt::ErrorKind::ValueOutOfRange, "Checked.ratio", true},
        {"a double below its minimum", [](checks::CheckedOwned& o) { o.ratio = -0.25; }, rt::ErrorKind::ValueOutOfRange, "Checked.ratio", true},
        {"the null value in a required field (default maximum)", [](checks::CheckedOwned& o) { o.plain = 255; }, rt::ErrorKind::ValueOutOfRange, "Checked.plain", true},
        {"an optional holding its null value", [](checks::CheckedOwned& o) { o.quantity = 4294967295u; }, rt::ErrorKind::ValueOutOfRange, "Checked.quantity", false},
        {"an enum value the schema does not list", [](checks::CheckedOwned& o) { o.kind = static_cast<checks::Kind>(9); }, rt::ErrorKind::UnknownEnumValue, "Checked.kind", true},
        {"text too long for its array", [](checks::CheckedOwned& o) { o.code = "ABCDE"; }, rt::ErrorKind::ValueTooLong, "Checked.code", false},
        {"an array element above its maximum", [](checks::CheckedOwned& o) { o.levels[1] = 1001; }, rt::ErrorKind::ValueOutOfRange, "Checked.levels", true},
        {"a composite member out of range", [](checks::CheckedOwned& o) { o.band.low = 101; }, rt::ErrorKind::ValueOutOfRange, "Band.low", true},
        {"a group entry's value out of range", [](checks::CheckedOwned& o) { o.items[1].share = 0; }, rt::ErrorKind::ValueOutOfRange, "Checked.items.share", true},
        {"more entries than the count allows", [](checks::CheckedOwned& o) { o.items.resize(4, checks::CheckedItemsOwned{5}); }, rt::ErrorKind::CountTooLarge, "Checked.items", false},
        {"var data longer than its length allows", [](checks::CheckedOwned& o) { o.note = "too long"; }, rt::ErrorKind::ValueTooLong, "Checked.note", false},
    };
    const auto base = valid();
    CHECK(base.validate().kind == rt::ErrorKind::Ok, "the valid value");
    const auto ok = base.encode();
    CHECK(ok.ok() && checks::CheckedOwned::decodeFrom(ok->data(), ok->size()).value() == base, "the valid value round-trips");
    for (const Rule& rule : rules) {
        auto o = valid();
        rule.set(o);
        const rt::Error e = o.validate();
        if (e.kind != rule.kind || std::strcmp(e.path, rule.path) != 0) {
            std::printf("FAIL %s: validate gave %s at %s\n", rule.what, rt::kind_name(e.kind), e.path);
            ++failures;
        }
        std::uint8_t buf[256];
        std::memset(buf, 0xAA, sizeof buf);
        const auto w = o.encodeInto(buf, sizeof buf);
        bool untouched = true;
        for (const std::uint8_t c : buf) untouched = untouched && c == 0xAA;
        if (w || w.error().kind != rule.kind || std::strcmp(w.error().path, rule.path) != 0 || !untouched) {
            std::printf("FAIL %s: encodeInto gave %s\n", rule.what, w ? "success" : rt::kind_name(w.error().kind));
            ++failures;
        }
        const auto a = o.encode();
        CHECK(!a && a.error().kind == rule.kind, rule.what);
        const auto wire = o.encodeInto(buf, sizeof buf, rt::Checks::Wire);
        if (rule.wire_carries) {
            const auto back = wire ? checks::CheckedOwned::decodeFrom(buf, wire.value()) : rt::Result<checks::CheckedOwned>(wire.error());
            if (!back || !(back.value() == o)) {
                std::printf("FAIL %s: with Checks::Wire it does not come back\n", rule.what);
                ++failures;
            }
        } else if (rule.kind == rt::ErrorKind::ValueOutOfRange) {
            // The null value of an optional: written, and read back as absent.
            const auto back = wire ? checks::CheckedOwned::decodeFrom(buf, wire.value()) : rt::Result<checks::CheckedOwned>(wire.error());
            CHECK(back.ok() && !back->quantity, rule.what);
        } else if (wire || wire.error().kind != rule.kind) {
            std::printf("FAIL %s: with Checks::Wire the encoders gave %s\n", rule.what, wire ? "success" : rt::kind_name(wire.error().kind));
            ++failures;
        }
    }
    std::printf("validation: %zu rules\n", sizeof rules / sizeof rules[0]);
}

int main() {
    properties();
    versions();
    validation();
    if (failures > 0) {
        std::printf("%d failures\n", failures);
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
"#;

#[test]
fn owned_values_under_sanitizers() {
    let test = "owned_values_under_sanitizers";
    let Some(cxx) = compiler("g++", test) else {
        return;
    };
    let root = tempfile::tempdir().expect("tempdir");
    let schemas = [
        (
            "orders",
            "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        ),
        (
            "vers1",
            "crates/sbekit-codegen-tests/schemas/versioned-v1.xml",
        ),
        (
            "vers0",
            "crates/sbekit-codegen-tests/schemas/versioned-v0.xml",
        ),
    ];
    let mut incs = Vec::new();
    let mut src = String::new();
    for (pkg, path) in schemas {
        let dir = generate(root.path(), pkg, &workspace_file(path));
        incs.push(format!("-I{}", dir.join("include").display()));
        src.push_str(&format!(
            "#include \"{pkg}/{pkg}.hpp\"\n#include \"{pkg}/owned.hpp\"\n"
        ));
    }
    let checks = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/owned-checks.xml");
    let dir = generate(root.path(), "checks", &checks);
    incs.push(format!("-I{}", dir.join("include").display()));
    src.push_str("#include \"checks/checks.hpp\"\n#include \"checks/owned.hpp\"\n");
    src.push_str(MAIN);
    src.push_str(CHECKS);
    let file = root.path().join("owned.cpp");
    std::fs::write(&file, src).expect("source");
    let exe = root.path().join("owned");
    run_ok(
        Command::new(&cxx)
            .args(STRICT)
            .args([
                "-O1",
                "-g",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
            ])
            .args(&incs)
            .arg(&file)
            .arg("-o")
            .arg(&exe),
        "compile the owned-value checks",
    );
    let out = Command::new(&exe)
        .output()
        .expect("run the owned-value checks");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.lines().last() == Some("ok"),
        "owned-value checks failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{test}: {}", text.lines().collect::<Vec<_>>().join("; "));
}
