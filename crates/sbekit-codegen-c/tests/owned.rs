//! Owned values (`owned.h`) under `-fsanitize=address,undefined` and the strict warnings:
//! - random messages (`sbekit_otf::random`, at every version) of our own schemas, the keyword
//!   and hostile-name schemas and the car schemas: each decoded into its owned value, which
//!   writes the bytes `reencode` writes, decodes back to an equal value, and refuses every
//!   shorter buffer; with no arena the decode reports `SBEKIT_ARENA_TOO_SMALL` and the bytes it
//!   needs, every smaller arena (a heap block of exactly its size, so ASan sees a write past it)
//!   is refused with the same count, and one of exactly that size is enough;
//! - random owned values of `versioned-v1.xml` built in C (groups and var data in the caller's
//!   memory), at acting versions 0 and 1: written, they decode back to equal values and are the
//!   bytes the flyweights' `reencode` writes; a reader of `versioned-v0.xml` sees the fields it
//!   knows; a group with more entries than its count allows and var data longer than its length
//!   allows are refused.

mod common;

use common::*;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_testdata::{frames, pipe, workspace_file};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `owned` mode of a package: one line per u32le-framed message, `ok` or what went wrong.
const OWNED: &str = r#"
/* Exactly `n` bytes on the heap (at least one for malloc), so ASan sees any access past them. */
static void* exact(size_t n) { return malloc(n > 0 ? n : 1); }

#define OWNED_CHECKS(P)                                                                          \
static int owned_##P(FILE* in) {                                                                 \
    for (;;) {                                                                                   \
        uint8_t h[4];                                                                            \
        size_t n, len = 0, len2 = 0, need, cap, step, big;                                       \
        uint8_t *msg, *want, *got, *again;                                                       \
        void *mem, *mem2;                                                                        \
        P##_any m;                                                                               \
        P##_any_owned o, o2;                                                                     \
        sbekit_arena a, a2;                                                                      \
        sbekit_error e;                                                                          \
        const char* bad = NULL;                                                                  \
        int r;                                                                                   \
        if (fread(h, 1, 4, in) != 4) return 0;                                                   \
        n = (size_t)h[0] | (size_t)h[1] << 8 | (size_t)h[2] << 16 | (size_t)h[3] << 24;           \
        msg = (uint8_t*)exact(n);                                                                \
        if (n > 0 && fread(msg, 1, n, in) != n) return 2;                                        \
        if (P##_decode_any(&m, msg, n, NULL) != 0) { printf("undecodable\n"); free(msg); continue; } \
        big = n + 4096;                                                                          \
        want = (uint8_t*)malloc(big);                                                            \
        got = (uint8_t*)malloc(big);                                                             \
        again = (uint8_t*)malloc(big);                                                           \
        if (P##_reencode(&m, want, big, &len, NULL) != 0) bad = "reencode failed";               \
        /* No arena: what it needs is counted (nothing at all for a message of no entries and  \
           no var data). */                                                                      \
        sbekit_arena_init(&a, NULL, 0);                                                          \
        memset(&e, 0, sizeof e);                                                                 \
        r = P##_any_owned_from_any(&o, &m, &a, &e);                                              \
        need = a.used;                                                                           \
        if (!bad && (need == 0 ? r != 0 : (r != SBEKIT_ARENA_TOO_SMALL || e.kind != SBEKIT_ARENA_TOO_SMALL))) \
            bad = "no arena: not refused as too small";                                          \
        /* Every smaller arena is refused with the same count (some of them for large needs). */ \
        step = need <= 512 ? 1 : need / 256;                                                     \
        for (cap = 0; cap < need && !bad; cap = (cap + step < need || cap == need - 1) ? cap + step : need - 1) { \
            mem = exact(cap);                                                                    \
            sbekit_arena_init(&a, mem, cap);                                                     \
            if (P##_any_owned_from_any(&o, &m, &a, NULL) != SBEKIT_ARENA_TOO_SMALL || a.used != need) \
                bad = "a smaller arena: not refused with the bytes needed";                      \
            free(mem);                                                                           \
        }                                                                                        \
        mem = exact(need);                                                                       \
        sbekit_arena_init(&a, mem, need);                                                        \
        if (!bad && (P##_any_owned_from_any(&o, &m, &a, &e) != 0 || a.used != need))             \
            bad = "an arena of the bytes needed: refused";                                       \
        /* Written by the owned value: the bytes reencode writes. */                             \
        if (!bad && (P##_any_owned_encode(&o, got, big, &len2, &e) != 0 || len2 != len || memcmp(got, want, len) != 0)) \
            bad = "owned encode: not the bytes reencode writes";                                 \
        /* Decoded again: an equal value, which writes the same bytes. */                        \
        mem2 = exact(need);                                                                      \
        sbekit_arena_init(&a2, mem2, need);                                                      \
        if (!bad && P##_any_owned_decode(&o2, got, len2, &a2, &e) != 0) bad = "owned bytes: not decoded"; \
        if (!bad && !P##_any_owned_equal(&o, &o2)) bad = "decoded again: not equal";             \
        if (!bad && (P##_any_owned_encode(&o2, again, big, &len2, &e) != 0 || len2 != len || memcmp(again, want, len) != 0)) \
            bad = "decoded again: written differently";                                          \
        /* Every shorter buffer is refused (ASan sees a write past it). */                        \
        for (cap = 0; cap < len && !bad; ++cap) {                                                \
            uint8_t* b = cap > 0 ? (uint8_t*)malloc(cap) : NULL;                                  \
            memset(&e, 0, sizeof e);                                                             \
            if (P##_any_owned_encode(&o, b, cap, &len2, &e) == 0 || e.kind != SBEKIT_BUFFER_TOO_SMALL) \
                bad = "a shorter buffer: not refused";                                           \
            free(b);                                                                             \
        }                                                                                        \
        printf("%s\n", bad != NULL ? bad : "ok");                                                \
        free(mem);                                                                               \
        free(mem2);                                                                              \
        free(msg);                                                                               \
        free(want);                                                                              \
        free(got);                                                                               \
        free(again);                                                                             \
    }                                                                                            \
}

/* Random owned values of versioned-v1.xml (`vers`), built here. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Writes `o`, decodes it back (owned and flyweight), and compares: 0, or the check that failed. */
static int evolving_round_trip(const vers_evolving_owned* o) {
    static uint8_t buf[4096], re[4096], arena[4096];
    size_t len = 0, len2 = 0, i;
    sbekit_arena a;
    vers_evolving_owned back;
    vers_any m;
    vers_any_owned any, want_any;
    vold_evolving_owned old;
    sbekit_error e;
    if (vers_evolving_owned_encode(o, buf, sizeof buf, &len, &e) != 0) return 10;
    sbekit_arena_init(&a, arena, sizeof arena);
    if (vers_evolving_owned_decode(&back, buf, len, &a, &e) != 0) return 11;
    if (!vers_evolving_owned_equal(&back, o)) return 12;
    /* Any message: the same value. */
    sbekit_arena_reset(&a);
    if (vers_any_owned_decode(&any, buf, len, &a, &e) != 0 || any.which != VERS_ANY_EVOLVING) return 13;
    want_any.which = VERS_ANY_EVOLVING;
    want_any.u.m0 = *o;
    if (!vers_any_owned_equal(&any, &want_any)) return 14;
    /* The flyweights write the same bytes for what they read. */
    if (vers_decode_any(&m, buf, len, &e) != 0 || vers_reencode(&m, re, sizeof re, &len2, &e) != 0) return 15;
    if (len2 != len || memcmp(re, buf, len) != 0) return 16;
    /* A reader of the older schema sees the fields it knows. */
    sbekit_arena_reset(&a);
    if (vold_evolving_owned_decode(&old, buf, len, &a, &e) != 0) return 17;
    if (old.acting_version != o->acting_version || old.a != o->a || old.g_count != o->g_count) return 18;
    for (i = 0; i < o->g_count; ++i) if (old.g[i].x != o->g[i].x) return 19;
    if (old.d.len != o->d.len || (o->d.len > 0 && memcmp(old.d.data, o->d.data, o->d.len) != 0)) return 20;
    /* Every arena smaller than the bytes the decode needs is refused, with that count. */
    sbekit_arena_init(&a, NULL, 0);
    memset(&e, 0, sizeof e);
    if (vers_evolving_owned_decode(&back, buf, len, &a, &e) == 0) {
        if (o->g_count > 0 || o->d.len > 0 || o->e.len > 0) return 21;
    } else {
        const size_t need = a.used;
        size_t cap;
        if (e.kind != SBEKIT_ARENA_TOO_SMALL || need > sizeof arena) return 22;
        for (cap = 0; cap < need; ++cap) {
            void* mem = malloc(cap > 0 ? cap : 1);
            sbekit_arena_init(&a, mem, cap);
            if (vers_evolving_owned_decode(&back, buf, len, &a, NULL) != SBEKIT_ARENA_TOO_SMALL || a.used != need) return 23;
            free(mem);
        }
    }
    return 0;
}

static int random_checks(int rounds) {
    static vers_evolving_g_owned g[8];
    static vers_new_group_g_owned ng[8];
    static vers_new_group_h_owned nh[8];
    static char d[24], ev[24];
    int k;
    for (k = 0; k < rounds; ++k) {
        const uint64_t v = (uint64_t)k % 2u;
        vers_evolving_owned o;
        vers_new_group_owned n, back;
        uint8_t buf[1024], re[1024], arena[1024];
        size_t i, len = 0, len2 = 0;
        sbekit_arena a;
        vers_any m;
        int r;
        memset(&o, 0, sizeof o);
        o.acting_version = v;
        o.a = (uint32_t)rnd();
        if (v >= 1) {
            /* `b` is optional: its null value (UINT32_MAX) would read back as absent. */
            o.has_b = rnd() % 3u != 0;
            o.b = o.has_b ? (uint32_t)(rnd() % UINT32_MAX) : 0;
            o.has_c = true;
            o.c = (vers_color)rnd();
        }
        o.g_count = (size_t)(rnd() % 7u);
        for (i = 0; i < o.g_count; ++i) {
            g[i].x = (int16_t)rnd();
            g[i].has_y = v >= 1;
            g[i].y = v >= 1 ? (int64_t)rnd() : 0;
        }
        o.g = o.g_count > 0 ? g : NULL;
        o.d.len = (size_t)(rnd() % sizeof d);
        for (i = 0; i < o.d.len; ++i) d[i] = (char)rnd();
        o.d.data = d;
        o.e.len = v >= 1 ? (size_t)(rnd() % sizeof ev) : 0;
        for (i = 0; i < o.e.len; ++i) ev[i] = (char)rnd();
        o.e.data = ev;
        r = evolving_round_trip(&o);
        if (r != 0) return r;

        memset(&n, 0, sizeof n);
        n.acting_version = v;
        n.a = (uint32_t)rnd();
        n.g_count = (size_t)(rnd() % 7u);
        for (i = 0; i < n.g_count; ++i) ng[i].x = (int16_t)rnd();
        n.g = ng;
        n.h_count = v >= 1 ? (size_t)(rnd() % 7u) : 0;
        for (i = 0; i < n.h_count; ++i) nh[i].z = (uint8_t)rnd();
        n.h = nh;
        n.d.len = (size_t)(rnd() % sizeof d);
        n.d.data = d;
        if (vers_new_group_owned_encode(&n, buf, sizeof buf, &len, NULL) != 0) return 30;
        sbekit_arena_init(&a, arena, sizeof arena);
        if (vers_new_group_owned_decode(&back, buf, len, &a, NULL) != 0) return 31;
        if (!vers_new_group_owned_equal(&back, &n)) return 32;
        if (vers_decode_any(&m, buf, len, NULL) != 0 || vers_reencode(&m, re, sizeof re, &len2, NULL) != 0) return 33;
        if (len2 != len || memcmp(re, buf, len) != 0) return 34;
    }
    return 0;
}

/* What the owned values refuse to write: more entries than the count allows (65535, the
   count's null value, is one too many), var data longer than its length allows, and a message
   of an older version keeps out what is newer. */
static int refusals(void) {
    static vers_new_group_g_owned many[65535];
    static char text[70000];
    static uint8_t buf[1 << 20];
    vers_new_group_owned n;
    vers_evolving_owned o, back;
    vers_evolving_g_owned g;
    uint8_t arena[256];
    sbekit_arena a;
    sbekit_error e;
    size_t len = 0;
    memset(&n, 0, sizeof n);
    n.acting_version = VERS_SCHEMA_VERSION;
    n.g = many;
    n.g_count = 65535;
    memset(&e, 0, sizeof e);
    if (vers_new_group_owned_encode(&n, buf, sizeof buf, &len, &e) != SBEKIT_COUNT_TOO_LARGE || e.kind != SBEKIT_COUNT_TOO_LARGE) return 40;
    n.g_count = 65534;
    if (vers_new_group_owned_encode(&n, buf, sizeof buf, &len, &e) != 0) return 41;
    n.g_count = 0;
    n.d.data = text;
    n.d.len = sizeof text;
    memset(&e, 0, sizeof e);
    if (vers_new_group_owned_encode(&n, buf, sizeof buf, &len, &e) != SBEKIT_VALUE_TOO_LONG || e.kind != SBEKIT_VALUE_TOO_LONG) return 42;
    /* Acting version 0: `b`, `c`, `g.y` and `e` are newer and not written, so not read back. */
    memset(&o, 0, sizeof o);
    o.acting_version = 0;
    o.a = 7;
    o.has_b = true;
    o.b = 9;
    o.has_c = true;
    o.c = VERS_COLOR_GREEN;
    g.x = 3;
    g.has_y = true;
    g.y = 4;
    o.g = &g;
    o.g_count = 1;
    o.e.data = "new";
    o.e.len = 3;
    if (vers_evolving_owned_encode(&o, buf, sizeof buf, &len, &e) != 0) return 43;
    sbekit_arena_init(&a, arena, sizeof arena);
    if (vers_evolving_owned_decode(&back, buf, len, &a, &e) != 0) return 44;
    if (back.acting_version != 0 || back.a != 7 || back.has_b || back.has_c || back.g_count != 1 || back.g[0].x != 3 ||
        back.g[0].has_y || back.e.len != 0)
        return 45;
    return 0;
}
"#;

/// Builds the sanitized program over `schemas` (`pkg`, path): `prog owned <index>`,
/// `prog random <rounds>`, `prog refusals 0`.
fn build(root: &Path, schemas: &[(String, PathBuf)]) -> Option<PathBuf> {
    let mut code = String::from(OWNED);
    for (pkg, _) in schemas {
        code.push_str(&format!("OWNED_CHECKS({pkg})\n"));
    }
    code.push_str("int main(int argc, char** argv) {\n    if (argc != 3) return 2;\n    if (strcmp(argv[1], \"random\") == 0) return random_checks(atoi(argv[2]));\n    if (strcmp(argv[1], \"refusals\") == 0) return refusals();\n    switch (atoi(argv[2])) {\n");
    for (i, (pkg, _)) in schemas.iter().enumerate() {
        code.push_str(&format!("        case {i}: return owned_{pkg}(stdin);\n"));
    }
    code.push_str("        default: return 2;\n    }\n}\n");
    sanitized_program(root, "owned_values_under_sanitizers", schemas, &code)
}

#[test]
fn owned_values_under_sanitizers() {
    let test = "owned_values_under_sanitizers";
    let own = |p: &str| workspace_file(&format!("crates/sbekit-codegen-tests/schemas/{p}"));
    let mut schemas: Vec<(String, PathBuf)> = vec![
        ("vers".into(), own("versioned-v1.xml")),
        ("vold".into(), own("versioned-v0.xml")),
        ("orders".into(), own("orders-be.xml")),
        ("md".into(), workspace_file("schemas/market-data.xml")),
        ("kw".into(), own("keywords.xml")),
        ("hostile".into(), own("hostile-names.xml")),
    ];
    schemas.extend(car_schemas(test).unwrap_or_default());
    let root = tempfile::tempdir().expect("tempdir");
    let Some(prog) = build(root.path(), &schemas) else {
        return;
    };

    let mut checked = 0;
    for (i, (pkg, path)) in schemas.iter().enumerate() {
        let ir = sbekit_schema::load_ir(path).expect("schema");
        let mut rng = Rng::new(0x0c0ffee + i as u64);
        let version = u32::try_from(ir.version).unwrap_or(0);
        let mut msgs = Vec::new();
        for m in &ir.messages {
            for k in 0..8u32 {
                let o = Options {
                    writer_version: Some(k % (version + 2)),
                    extra_block: if k % (version + 2) > version { 3 } else { 0 },
                    ..Options::default()
                };
                msgs.push(random_message(&ir, m, &mut rng, &o).bytes);
            }
        }
        let out = pipe(&prog, &["owned", &i.to_string()], &frames(&msgs));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(
            text.lines().count(),
            msgs.len(),
            "{pkg}: one line per message"
        );
        for (l, m) in text.lines().zip(&msgs) {
            assert_eq!(l, "ok", "{pkg}: a message of {} bytes", m.len());
        }
        checked += msgs.len();
    }
    for (mode, arg) in [("random", "400"), ("refusals", "0")] {
        let st = Command::new(&prog)
            .args([mode, arg])
            .status()
            .unwrap_or_else(|e| panic!("run the {mode} checks: {e}"));
        assert_eq!(
            st.code(),
            Some(0),
            "{mode} checks failed (the exit code names the check)"
        );
    }
    eprintln!(
        "{test}: {checked} random messages through owned values (every smaller arena and shorter buffer refused), 400 random owned values of versioned-v1.xml, and the refusals, under ASan+UBSan"
    );
}
