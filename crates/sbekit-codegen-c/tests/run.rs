//! Generated C run under `-fsanitize=address,undefined` (any report aborts the program):
//! - the reference car vectors decode to the reference's JSON goldens (value for value) and
//!   re-encode byte-identically;
//! - every strict prefix of the car vectors and of random messages (`sbekit_otf::random`, at
//!   every version, of our own schemas and the car schemas) is refused with an error, never a
//!   crash (each message is in a heap block of exactly its length, so ASan sees any read past
//!   it);
//! - random messages decode to the JSON `sbekit decode` prints and re-encode to bytes that
//!   decode to it again, and re-encoding into every shorter buffer is refused;
//! - section order, skipped sections, group counts and JSON truncation, on our own schemas.
//!
//! All the schemas are compiled into one program (one prefix each).

mod common;

use common::*;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_testdata::{frames, pipe, same_json, unframe, workspace_file};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `short` mode of a package: each u32le-framed message is decoded, re-encoded into a
/// buffer of exactly its length (which must give the same bytes), then into heap buffers of every
/// smaller capacity, each of which must be refused with `SBEKIT_BUFFER_TOO_SMALL` (ASan reports
/// any write past the capacity). One line per message: `ok` or what went wrong.
const SHORT: &str = r#"
#define SHORT_BUFFERS(P)                                                                        \
static int short_##P(FILE* in) {                                                                \
    for (;;) {                                                                                  \
        uint8_t h[4];                                                                           \
        size_t n, len = 0, cap;                                                                 \
        uint8_t* msg;                                                                           \
        uint8_t* big;                                                                           \
        P##_any m;                                                                              \
        int ok = 1;                                                                             \
        if (fread(h, 1, 4, in) != 4) return 0;                                                  \
        n = (size_t)h[0] | (size_t)h[1] << 8 | (size_t)h[2] << 16 | (size_t)h[3] << 24;          \
        msg = (uint8_t*)malloc(n > 0 ? n : 1);                                                  \
        if (n > 0 && fread(msg, 1, n, in) != n) return 2;                                       \
        if (P##_decode_any(&m, msg, n, NULL) != 0) { printf("undecodable\n"); free(msg); continue; } \
        big = (uint8_t*)malloc(n + 4096);                                                       \
        if (P##_reencode(&m, big, n + 4096, &len, NULL) != 0) { printf("reencode failed\n"); free(msg); free(big); continue; } \
        for (cap = 0; cap <= len && ok; ++cap) {                                                \
            uint8_t* b = cap > 0 ? (uint8_t*)malloc(cap) : NULL;                                \
            size_t w = 0;                                                                       \
            sbekit_error e;                                                                     \
            int r;                                                                              \
            memset(&e, 0, sizeof e);                                                            \
            r = P##_reencode(&m, b, cap, &w, &e);                                               \
            if (cap == len) {                                                                   \
                if (r != 0 || w != len || (len > 0 && memcmp(b, big, len) != 0)) {              \
                    printf("capacity %zu: not the same bytes\n", cap);                          \
                    ok = 0;                                                                     \
                }                                                                               \
            } else if (r == 0 || e.kind != SBEKIT_BUFFER_TOO_SMALL) {                           \
                printf("capacity %zu of %zu: %s\n", cap, len, r == 0 ? "accepted" : sbekit_kind_name(e.kind)); \
                ok = 0;                                                                         \
            }                                                                                   \
            free(b);                                                                            \
        }                                                                                       \
        if (ok) printf("ok\n");                                                                 \
        free(msg);                                                                              \
        free(big);                                                                              \
    }                                                                                           \
}

/* Section order on `orders-be.xml`'s Order (groups fills, marks; data note, blob): a section
   after a later one is refused; skipped sections are written empty; the group count is kept. */
static int order_checks(void) {
    uint8_t b[512];
    size_t len = 0;
    sbekit_error e;
    {
        orders_order_enc en;
        orders_order_fills_writer w;
        orders_order_enc_init(&en, b, sizeof b, ORDERS_SCHEMA_VERSION);
        orders_order_enc_note(&en, "x", 1);
        orders_order_enc_fills(&en, &w);
        orders_order_fills_writer_end(&w);
        if (orders_order_enc_finish(&en, &len, &e) != SBEKIT_OUT_OF_ORDER || e.kind != SBEKIT_OUT_OF_ORDER) return 1;
    }
    {
        orders_order_enc en;
        orders_order_marks_writer w;
        orders_order_dec d;
        orders_order_fills_iter fi;
        orders_order_marks_iter mi;
        sbekit_str note;
        sbekit_bytes blob;
        orders_order_enc_init(&en, b, sizeof b, ORDERS_SCHEMA_VERSION);
        orders_order_enc_marks(&en, &w);
        (void)orders_order_marks_writer_next(&w);
        (void)orders_order_marks_writer_next(&w);
        orders_order_marks_writer_end(&w);
        orders_order_enc_blob(&en, "yz", 2);
        if (orders_order_enc_finish(&en, &len, &e) != 0) return 2;
        if (orders_order_dec_decode(&d, b, len, &e) != 0 || orders_order_dec_encoded_length(&d) != len) return 3;
        fi = orders_order_dec_fills(&d);
        mi = orders_order_dec_marks(&d);
        note = orders_order_dec_note(&d);
        blob = orders_order_dec_blob(&d);
        if (orders_order_fills_iter_count(&fi) != 0 || orders_order_marks_iter_count(&mi) != 2 || note.len != 0 ||
            blob.len != 2 || memcmp(blob.data, "yz", 2) != 0)
            return 4;
    }
    return 0;
}

/* `market-data.xml`'s MarketUpdates: entries written through the writer decode to what was
   written; every shorter heap buffer is refused; more entries than the count allows are refused;
   JSON into every shorter buffer returns the same length and a NUL-terminated prefix. */
static size_t md_write(uint8_t* b, size_t cap, size_t k, sbekit_error* e) {
    md_market_updates_enc en;
    md_market_updates_trades_writer w;
    size_t i, len = 0;
    md_market_updates_enc_init(&en, b, cap, MD_SCHEMA_VERSION);
    md_market_updates_enc_sequence_number(&en, 42);
    md_market_updates_enc_trades(&en, &w);
    for (i = 0; i < k; ++i) {
        md_market_updates_trades_enc* t = md_market_updates_trades_writer_next(&w);
        md_market_updates_trades_enc_timestamp(t, (int64_t)(100 + i));
        md_market_updates_trades_enc_symbol(t, "ABC", 3);
        md_market_updates_trades_enc_price(t, -5);
        md_market_updates_trades_enc_size(t, (uint32_t)i);
        md_market_updates_trades_enc_flags(t, 7);
    }
    md_market_updates_trades_writer_end(&w);
    if (md_market_updates_enc_finish(&en, &len, e) != 0) return 0;
    return len;
}
/* The same message with the entries reserved at once (`_n`, one capacity check), `k` of them,
   then `more` added through the writer; `bad` asks for entry `k` too (one past those reserved). */
static size_t md_write_n(uint8_t* b, size_t cap, size_t k, size_t more, int bad, sbekit_error* e) {
    md_market_updates_enc en;
    md_market_updates_trades_writer w;
    size_t i, len = 0;
    md_market_updates_enc_init(&en, b, cap, MD_SCHEMA_VERSION);
    md_market_updates_enc_sequence_number(&en, 42);
    md_market_updates_enc_trades_n(&en, &w, k);
    for (i = 0; i < k + more + (size_t)(bad != 0); ++i) {
        md_market_updates_trades_enc* t =
            i < k || (bad && i == k) ? md_market_updates_trades_writer_entry(&w, i) : md_market_updates_trades_writer_next(&w);
        md_market_updates_trades_enc_timestamp(t, (int64_t)(100 + i));
        md_market_updates_trades_enc_symbol(t, "ABC", 3);
        md_market_updates_trades_enc_price(t, -5);
        md_market_updates_trades_enc_size(t, (uint32_t)i);
        md_market_updates_trades_enc_flags(t, 7);
    }
    if (more > 0) md_market_updates_trades_writer_end(&w);
    if (md_market_updates_enc_finish(&en, &len, e) != 0) return 0;
    return len;
}
/* The counted form: the same bytes as the writer's; every shorter heap buffer refused (ASan sees
   any write past it), whether the room runs out at the block or at the entries; an index past
   those reserved refused, writing nothing; too many entries refused before anything is written. */
static int counted_n_checks(const uint8_t* want, size_t len) {
    uint8_t got[256];
    sbekit_error e;
    size_t cap, n;
    memset(got, 0xAB, sizeof got);
    if (md_write_n(got, sizeof got, 3, 0, 0, &e) != len || memcmp(got, want, len) != 0) return 20;
    memset(got, 0xAB, sizeof got);
    if (md_write_n(got, sizeof got, 1, 2, 0, &e) != len || memcmp(got, want, len) != 0) return 21;
    for (cap = 0; cap < len; ++cap) {
        for (n = 0; n < 2; ++n) {
            uint8_t* b = cap > 0 ? (uint8_t*)malloc(cap) : NULL;
            memset(&e, 0, sizeof e);
            if (md_write_n(b, cap, n == 0 ? 3 : 1, n == 0 ? 0 : 2, 0, &e) != 0 || e.kind != SBEKIT_BUFFER_TOO_SMALL) return 22;
            free(b);
        }
    }
    {
        uint8_t* b = (uint8_t*)malloc(len);
        memset(&e, 0, sizeof e);
        memset(b, 0xCD, len);
        if (md_write_n(b, len, 3, 0, 1, &e) != 0 || e.kind != SBEKIT_COUNT_TOO_LARGE) return 23;
        free(b);
        b = (uint8_t*)malloc(1u << 23);
        memset(&e, 0, sizeof e);
        if (md_write_n(b, 1u << 23, 65535, 0, 0, &e) != 0 || e.kind != SBEKIT_COUNT_TOO_LARGE) return 24;
        memset(&e, 0, sizeof e);
        if (md_write_n(b, 1u << 23, 65534, 0, 0, &e) == 0) return 25;
        free(b);
    }
    return 0;
}
static int counted_checks(void) {
    uint8_t want[256];
    sbekit_error e;
    size_t len = md_write(want, sizeof want, 3, &e), cap, i = 0, need;
    md_market_updates_dec d;
    md_market_updates_trades_iter it;
    md_market_updates_trades_dec t;
    md_market_updates_level_updates_iter lv;
    char json[1024];
    uint8_t* huge;
    if (len == 0) return 1;
    if (md_market_updates_dec_decode(&d, want, len, &e) != 0 || md_market_updates_dec_sequence_number(&d) != 42) return 2;
    it = md_market_updates_dec_trades(&d);
    lv = md_market_updates_dec_level_updates(&d);
    if (md_market_updates_trades_iter_count(&it) != 3 || md_market_updates_level_updates_iter_count(&lv) != 0) return 2;
    while (md_market_updates_trades_iter_next(&it, &t)) {
        sbekit_str s = md_market_updates_trades_dec_symbol(&t);
        if (md_market_updates_trades_dec_timestamp(&t) != (int64_t)(100 + i) || s.len != 3 || memcmp(s.data, "ABC", 3) != 0 ||
            md_market_updates_trades_dec_size(&t) != i)
            return 3;
        ++i;
    }
    if (i != 3) return 3;
    for (cap = 0; cap < len; ++cap) {
        uint8_t* b = cap > 0 ? (uint8_t*)malloc(cap) : NULL;
        memset(&e, 0, sizeof e);
        if (md_write(b, cap, 3, &e) != 0 || e.kind != SBEKIT_BUFFER_TOO_SMALL) return 4;
        free(b);
    }
    need = md_market_updates_dec_to_json(&d, json, sizeof json);
    if (need == 0 || need >= sizeof json || json[need] != 0 || strlen(json) != need) return 5;
    for (cap = 0; cap <= need; ++cap) {
        char* b = cap > 0 ? (char*)malloc(cap) : NULL;
        if (md_market_updates_dec_to_json(&d, b, cap) != need) return 6;
        if (cap > 0 && (b[cap - 1] != 0 || memcmp(b, json, cap - 1) != 0)) return 7;
        free(b);
    }
    /* 65535 entries (the count's null value) are one too many. */
    huge = (uint8_t*)malloc((size_t)1 << 23);
    memset(&e, 0, sizeof e);
    if (md_write(huge, (size_t)1 << 23, 65535, &e) != 0 || e.kind != SBEKIT_COUNT_TOO_LARGE) return 8;
    memset(&e, 0, sizeof e);
    if (md_write(huge, (size_t)1 << 23, 65534, &e) == 0) return 9;
    free(huge);
    return counted_n_checks(want, len);
}
"#;

/// Builds one sanitized program over `schemas` (`pkg`, path); `prog json|reencode|short <index>`.
fn build(root: &Path, schemas: &[(String, PathBuf)]) -> Option<PathBuf> {
    let mut code = String::from(SHORT);
    for (pkg, _) in schemas {
        code.push_str(&format!("SHORT_BUFFERS({pkg})\n"));
    }
    code.push_str("int main(int argc, char** argv) {\n    int is_short;\n    if (argc != 3) return 2;\n    is_short = strcmp(argv[1], \"short\") == 0;\n    if (strcmp(argv[1], \"order\") == 0) return order_checks();\n    if (strcmp(argv[1], \"counted\") == 0) return counted_checks();\n    switch (atoi(argv[2])) {\n");
    for (i, (pkg, _)) in schemas.iter().enumerate() {
        code.push_str(&format!(
            "        case {i}: return is_short ? short_{pkg}(stdin) : {pkg}_sbe_conformance(argv[1], stdin, stdout);\n"
        ));
    }
    code.push_str("        default: return 2;\n    }\n}\n");
    sanitized_program(root, "generated_c_under_sanitizers", schemas, &code)
}

#[test]
fn generated_c_under_sanitizers() {
    let test = "generated_c_under_sanitizers";
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
    let cars = car_schemas(test);
    let have_refs = cars.is_some();
    schemas.extend(cars.unwrap_or_default());
    let root = tempfile::tempdir().expect("tempdir");
    let Some(prog) = build(root.path(), &schemas) else {
        return;
    };

    // Random messages at every version, and all their strict prefixes.
    let mut checked = 0;
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
            // `sbekit decode`'s JSON, `"$version"` included for an older writer's message.
            let mut printer = sbekit_otf::JsonPrinter::new(false).with_versions(u64::from(version));
            dec.decode(m, &mut printer).expect("otf");
            let want: Value = serde_json::from_slice(&printer.take()).expect("json");
            let got: Value = serde_json::from_str(line).expect("C prints JSON");
            assert!(
                same_json(&want, &got),
                "{pkg}: JSON differs\n  otf: {want}\n  C:   {got}"
            );
            let mut printer = sbekit_otf::JsonPrinter::new(false).with_versions(u64::from(version));
            dec.decode(r, &mut printer).expect("re-encoded decodes");
            let again: Value = serde_json::from_slice(&printer.take()).expect("json");
            assert!(
                same_json(&want, &again),
                "{pkg}: re-encoded differs\n  otf: {want}\n  C:   {again}"
            );
            checked += 1;
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
            let mut got: Value = serde_json::from_slice(&json).expect("C prints JSON");
            // The reference's JSON has no `"$version"` member (`sbekit decode` prints it for an
            // older writer's message, and so does the C printer).
            if let Some(o) = got.as_object_mut() {
                o.remove("$version");
            }
            assert!(
                same_json(&want, &got),
                "{vector}: golden differs\n  want: {want}\n  C:    {got}"
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
        "{test}: {checked} random messages equal to sbekit decode and re-encoded, {prefixes} truncations refused, {shorts} re-encoded into every shorter buffer and refused, under ASan+UBSan"
    );
}
