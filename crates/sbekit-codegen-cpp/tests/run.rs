//! Generated C++ run under `-fsanitize=address,undefined` (any report aborts the program):
//! - the reference car vectors decode to the reference's JSON goldens (value for value) and
//!   re-encode byte-identically;
//! - every strict prefix of the car vectors and of random messages (`sbekit_otf::random`, at
//!   every version, of our own schemas and the car schemas) is refused with an error, never a
//!   crash;
//! - random messages decode to the JSON `sbekit decode` prints and re-encode to bytes that
//!   decode to it again, through the flyweights and through owned values (the conformance
//!   program's `json-owned` and `reencode-owned` modes).
//!
//! All the schemas are compiled into one program (one package namespace each).

mod common;

use common::*;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_testdata::{frames, pipe, run_ok, same_json, unframe, workspace_file};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `short` mode: each u32le-framed message is decoded, re-encoded into a buffer of exactly
/// its length (which must give the same length), then into heap buffers of every smaller
/// capacity, each of which must be refused with `bufferTooSmall` (ASan reports any write past
/// the capacity). One line per message: `ok` or what went wrong.
const SHORT: &str = r#"#include <memory>
#include <string>
#include <vector>
template <class D, class R>
static int short_buffers(std::FILE* in, D dec, R re) {
    for (;;) {
        std::uint8_t h[4];
        if (std::fread(h, 1, 4, in) != 4) return 0;
        const std::size_t n = std::size_t{h[0]} | std::size_t{h[1]} << 8 | std::size_t{h[2]} << 16 | std::size_t{h[3]} << 24;
        std::vector<std::uint8_t> msg(n);
        if (n > 0 && std::fread(msg.data(), 1, n, in) != n) return 2;
        const auto r = dec(msg.data(), n);
        if (!r) { std::printf("undecodable\n"); continue; }
        std::vector<std::uint8_t> big(n + 4096);
        const auto full = re(r.value(), big.data(), big.size());
        if (!full) { std::printf("reencode failed\n"); continue; }
        const std::size_t len = full.value();
        bool ok = true;
        for (std::size_t cap = 0; cap <= len && ok; ++cap) {
            std::unique_ptr<std::uint8_t[]> b(new std::uint8_t[cap]);
            const auto w = re(r.value(), b.get(), cap);
            if (cap == len) {
                if (!w || w.value() != len || std::memcmp(b.get(), big.data(), len) != 0) {
                    std::printf("capacity %zu: not the same bytes\n", cap);
                    ok = false;
                }
            } else if (w || w.error().kind != ::sbekit::rt::ErrorKind::BufferTooSmall) {
                std::printf("capacity %zu of %zu: %s\n", cap, len, w ? "accepted" : ::sbekit::rt::kind_name(w.error().kind));
                ok = false;
            }
        }
        if (ok) std::printf("ok\n");
    }
}
// Section order on `orders-be.xml`'s Order (groups fills, marks; data note, blob): a section
// after a later one is refused; skipped sections are written empty; the group count is kept.
static int order_checks() {
    std::uint8_t b[512];
    {
        orders::OrderEncoder e(b, sizeof b);
        e.note("x").fills([](orders::OrderFillsWriter&) {});
        const auto r = e.finish();
        if (r || r.error().kind != ::sbekit::rt::ErrorKind::OutOfOrder) return 1;
    }
    {
        orders::OrderEncoder e(b, sizeof b);
        e.marks([](orders::OrderMarksWriter& w) {
            w.entry([](orders::OrderMarksEncoder&) {}).entry([](orders::OrderMarksEncoder&) {});
        });
        e.blob(std::string_view("yz"));
        const auto r = e.finish();
        if (!r) return 2;
        const auto d = orders::OrderDecoder::decode(b, r.value());
        if (!d || d->sbeEncodedLength() != r.value()) return 3;
        if (d->fills().count() != 0 || d->marks().count() != 2 || !d->note().empty() ||
            d->blob().view() != "yz")
            return 4;
    }
    return 0;
}

// `market-data.xml`'s MarketUpdates written three ways (entries one at a time, counted up
// front on the writer, counted up front on the group) gives the same bytes, which decode to
// what was written; in every shorter heap buffer the counted forms are refused.
static void md_trade(md::MarketUpdatesTradesEncoder& e, std::size_t i) {
    e.timestamp(static_cast<std::int64_t>(100 + i)).symbol("ABC").price(-5).size(static_cast<std::uint32_t>(i)).flags(7);
}
template <class W>
static ::sbekit::rt::Result<std::size_t> md_write(int how, std::uint8_t* b, std::size_t cap) {
    md::MarketUpdatesEncoder e(b, cap);
    e.sequenceNumber(42);
    if (how == 0) {
        e.trades([](W& w) {
            for (std::size_t i = 0; i < 3; ++i) w.entry([i](md::MarketUpdatesTradesEncoder& t) { md_trade(t, i); });
        });
    } else if (how == 1) {
        e.trades([](W& w) { w.entries(3, md_trade); });
    } else {
        e.trades(3, md_trade);
    }
    return e.finish();
}
static int counted_checks() {
    using W = md::MarketUpdatesTradesWriter;
    std::uint8_t want[256];
    const auto r0 = md_write<W>(0, want, sizeof want);
    if (!r0) return 1;
    const std::size_t len = r0.value();
    const auto d = md::MarketUpdatesDecoder::decode(want, len);
    if (!d || d->sequenceNumber() != 42 || d->trades().count() != 3 || d->levelUpdates().count() != 0) return 2;
    std::size_t i = 0;
    for (auto t : d->trades()) {
        if (t.timestamp() != static_cast<std::int64_t>(100 + i) || t.symbol() != "ABC" || t.size() != i) return 3;
        ++i;
    }
    for (int how = 1; how <= 2; ++how) {
        std::uint8_t got[256];
        const auto r = md_write<W>(how, got, sizeof got);
        if (!r || r.value() != len || std::memcmp(got, want, len) != 0) return 10 + how;
        for (std::size_t cap = 0; cap < len; ++cap) {
            std::unique_ptr<std::uint8_t[]> b(new std::uint8_t[cap]);
            const auto w = md_write<W>(how, b.get(), cap);
            if (w || w.error().kind != ::sbekit::rt::ErrorKind::BufferTooSmall) return 20 + how;
        }
    }
    // More entries than the count allows (65534 for a uint16 count) are refused.
    std::uint8_t small[64];
    md::MarketUpdatesEncoder e(small, sizeof small);
    e.trades(70000, md_trade);
    const auto r = e.finish();
    if (r || r.error().kind != ::sbekit::rt::ErrorKind::CountTooLarge) return 30;
    return 0;
}
"#;

/// Builds one sanitized program over `schemas` (`pkg`, path); `prog json|reencode <index>`.
fn build(root: &Path, schemas: &[(String, PathBuf)]) -> Option<PathBuf> {
    let cxx = compiler("g++", "generated_cpp_under_sanitizers")?;
    let mut incs = Vec::new();
    let mut main = String::from("#include <cstdlib>\n");
    for (pkg, path) in schemas {
        let dir = generate(root, pkg, path);
        incs.push(format!("-I{}", dir.join("include").display()));
        main.push_str(&format!("#include \"{pkg}/conformance.hpp\"\n"));
    }
    main.push_str(SHORT);
    main.push_str("int main(int argc, char** argv) {\n if (argc != 3) return 2;\n const bool sbe_short = std::string(argv[1]) == \"short\";\n if (std::string(argv[1]) == \"order\") return order_checks();\nif (std::string(argv[1]) == \"counted\") return counted_checks();\n switch (std::atoi(argv[2])) {\n");
    for (i, (pkg, _)) in schemas.iter().enumerate() {
        main.push_str(&format!(
            "  case {i}: return sbe_short ? short_buffers(stdin, [](const std::uint8_t* b, std::size_t n) {{ return {pkg}::decode_any(b, n); }}, [](const auto& m, std::uint8_t* b, std::size_t c) {{ return {pkg}::reencode(m, b, c); }}) : {pkg}::sbe_conformance(argv[1], stdin, stdout);\n"
        ));
    }
    main.push_str("  default: return 2;\n }\n}\n");
    let src = root.join("main.cpp");
    std::fs::write(&src, main).expect("main");
    let exe = root.join("prog");
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
            .arg(&src)
            .arg("-o")
            .arg(&exe),
        "compile the sanitized program",
    );
    Some(exe)
}

#[test]
fn generated_cpp_under_sanitizers() {
    let test = "generated_cpp_under_sanitizers";
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
    let Some(prog) = build(root.path(), &schemas) else {
        return;
    };

    // Random messages at every version, and all their strict prefixes.
    let mut checked = 0;
    let mut owned_checked = 0;
    let mut prefixes = 0;
    let mut shorts = 0;
    for (i, (pkg, path)) in schemas.iter().enumerate() {
        let ir = sbekit_schema::load_ir(path).expect("schema");
        let dec = sbekit_otf::Decoder::new(&ir).expect("otf");
        let mut rng = Rng::new(0xc0ffee + i as u64);
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
        let idx = i.to_string();
        let json = pipe(&prog, &["json", &idx], &frames(&msgs));
        let re = unframe(&pipe(&prog, &["reencode", &idx], &frames(&msgs)));
        let lines: Vec<&str> = std::str::from_utf8(&json).expect("utf8").lines().collect();
        assert_eq!(lines.len(), msgs.len(), "{pkg}: one line per message");
        for ((m, line), r) in msgs.iter().zip(&lines).zip(&re) {
            let (want, _) = sbekit_otf::message_to_decode_json(&dec, m, false).expect("otf");
            let want: Value = serde_json::from_str(&want).expect("json");
            let got: Value = serde_json::from_str(line).expect("C++ prints JSON");
            assert!(
                same_json(&want, &got),
                "{pkg}: JSON differs\n  otf: {want}\n  C++: {got}"
            );
            let (again, _) =
                sbekit_otf::message_to_decode_json(&dec, r, false).expect("re-encoded decodes");
            let again: Value = serde_json::from_str(&again).expect("json");
            assert!(
                same_json(&want, &again),
                "{pkg}: re-encoded differs\n  otf: {want}\n  C++: {again}"
            );
            checked += 1;
        }
        // The same through owned values: decoded into them, written again by them.
        let json = pipe(&prog, &["json-owned", &idx], &frames(&msgs));
        let re = unframe(&pipe(&prog, &["reencode-owned", &idx], &frames(&msgs)));
        let owned: Vec<&str> = std::str::from_utf8(&json).expect("utf8").lines().collect();
        assert_eq!(owned.len(), msgs.len(), "{pkg}: one owned line per message");
        for ((m, line), r) in msgs.iter().zip(&owned).zip(&re) {
            let (want, _) = sbekit_otf::message_to_decode_json(&dec, m, false).expect("otf");
            let want: Value = serde_json::from_str(&want).expect("json");
            let got: Value = serde_json::from_str(line).expect("C++ prints JSON");
            assert!(
                same_json(&want, &got),
                "{pkg}: owned JSON differs\n  otf: {want}\n  C++: {got}"
            );
            let (again, _) = sbekit_otf::message_to_decode_json(&dec, r, false)
                .expect("the owned re-encoding decodes");
            let again: Value = serde_json::from_str(&again).expect("json");
            assert!(
                same_json(&want, &again),
                "{pkg}: owned re-encoding differs\n  otf: {want}\n  C++: {again}"
            );
            owned_checked += 1;
        }
        let mut cut = Vec::new();
        for m in msgs.iter().take(24) {
            for n in 0..m.len() {
                cut.push(m[..n].to_vec());
            }
        }
        let out = pipe(&prog, &["json", &idx], &frames(&cut));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(text.lines().count(), cut.len());
        for (l, c) in text.lines().zip(&cut) {
            assert!(
                l.starts_with("{\"error\":"),
                "{pkg}: a prefix of {} bytes was not refused: {l}",
                c.len()
            );
        }
        prefixes += cut.len();
        let out = pipe(&prog, &["short", &idx], &frames(&msgs));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(
            text.lines().count(),
            msgs.len(),
            "{pkg}: one line per message"
        );
        for l in text.lines() {
            assert_eq!(l, "ok", "{pkg}: re-encoding into short buffers");
        }
        shorts += msgs.len();
    }

    // Section order and skipped sections (orders-be.xml, index 0); groups counted up front
    // (market-data.xml, index 1). The exit code names the check that failed.
    for (mode, idx) in [("order", "0"), ("counted", "1")] {
        let st = Command::new(&prog)
            .args([mode, idx])
            .status()
            .unwrap_or_else(|e| panic!("run the {mode} checks: {e}"));
        assert_eq!(st.code(), Some(0), "{mode} checks failed");
    }

    // The reference car vectors: goldens, byte-identical re-encoding, every prefix refused.
    if have_refs {
        // The car schemas follow the program's own three, in `CAR_SCHEMAS` order.
        for car in sbekit_testdata::CAR_VECTORS {
            let Some((bytes, want)) = car.load(test) else {
                return;
            };
            let (vector, schema) = (car.vector, 3 + car.schema);
            let idx = schema.to_string();
            let json = pipe(
                &prog,
                &["json", &idx],
                &frames(std::slice::from_ref(&bytes)),
            );
            let mut got: Value = serde_json::from_slice(&json).expect("C++ prints JSON");
            // `sbekit decode` (and the C++ printer) mark an older writer's message with
            // `"$version"`; the reference's goldens do not. Only the car written at version 0
            // is older than its schema.
            if let Value::Object(o) = &mut got {
                if let Some(v) = o.remove("$version") {
                    assert_eq!(v, 0, "{vector}: $version");
                }
            }
            assert!(
                same_json(&want, &got),
                "{vector}: golden differs\n  want: {want}\n  C++:  {got}"
            );
            let re = unframe(&pipe(
                &prog,
                &["reencode", &idx],
                &frames(std::slice::from_ref(&bytes)),
            ));
            if car.same_bytes {
                assert_eq!(re[0], bytes, "{vector}: re-encoded bytes differ");
            }
            let cut: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
            let out = pipe(&prog, &["json", &idx], &frames(&cut));
            let text = String::from_utf8_lossy(&out);
            assert_eq!(text.lines().count(), cut.len());
            assert!(
                text.lines().all(|l| l.starts_with("{\"error\":")),
                "{vector}: a prefix was not refused"
            );
            prefixes += cut.len();
        }
    }
    eprintln!(
        "{test}: {checked} random messages equal to sbekit decode and re-encoded ({owned_checked} also through owned values), {prefixes} truncations refused, {shorts} re-encoded into every shorter buffer and refused, under ASan+UBSan"
    );
}
