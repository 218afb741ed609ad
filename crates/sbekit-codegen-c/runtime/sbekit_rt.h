/* sbekit C runtime: error codes, byte-order-aware loads and stores through memcpy, the encoder's
 * cursor and the JSON text helpers generated printers use. C11, libc only, no malloc. Every
 * package sbekit generates carries an identical copy, so the include guard lets several
 * packages share one translation unit. */
#ifndef SBEKIT_RT_V1_H
#define SBEKIT_RT_V1_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many entries of empty-block groups (entries that take no bytes) one message may declare in
 * all its groups together; decoding refuses more (SBEKIT_EMPTY_ENTRY_BUDGET), so work stays
 * bounded by the input. The default is `sbekit decode`'s; define it before including to change
 * it. */
#ifndef SBEKIT_MAX_EMPTY_ENTRIES
#define SBEKIT_MAX_EMPTY_ENTRIES 1048576u
#endif

/* What went wrong while decoding or encoding (0: nothing). */
typedef enum sbekit_kind {
    /* No error. */
    SBEKIT_OK = 0,
    /* The buffer ends before the structure does. */
    SBEKIT_TRUNCATED,
    /* The header's schema id is not the schema's. */
    SBEKIT_WRONG_SCHEMA_ID,
    /* The header's template id is not the message's (or no message has it). */
    SBEKIT_WRONG_TEMPLATE_ID,
    /* A block length is shorter than the acting version's fields need. */
    SBEKIT_BLOCK_LENGTH_TOO_SHORT,
    /* A count or length is larger than its slot allows. */
    SBEKIT_INVALID_DIMENSION,
    /* More entries of empty-block groups than the decoder's budget allows. */
    SBEKIT_EMPTY_ENTRY_BUDGET,
    /* The encoder's buffer is too small. */
    SBEKIT_BUFFER_TOO_SMALL,
    /* A group has more entries than its count slot allows (or an entry past those reserved is asked
     * for). */
    SBEKIT_COUNT_TOO_LARGE,
    /* Var data longer than its length slot allows, or text longer than its array. */
    SBEKIT_VALUE_TOO_LONG,
    /* A group or var-data section written after a later one. */
    SBEKIT_OUT_OF_ORDER,
    /* The arena an owned value's groups and var data are copied into is too small. */
    SBEKIT_ARENA_TOO_SMALL,
    /* An owned value's number outside its field's valid range (`validate`). */
    SBEKIT_VALUE_OUT_OF_RANGE,
    /* An owned value's enum value the schema does not list (`validate`). */
    SBEKIT_UNKNOWN_ENUM_VALUE
} sbekit_kind;

/* The name of an error kind (`truncated`, `wrongSchemaId`, ...), as the other languages spell it. */
static inline const char* sbekit_kind_name(sbekit_kind k) {
    switch (k) {
        case SBEKIT_OK: return "ok";
        case SBEKIT_TRUNCATED: return "truncated";
        case SBEKIT_WRONG_SCHEMA_ID: return "wrongSchemaId";
        case SBEKIT_WRONG_TEMPLATE_ID: return "wrongTemplateId";
        case SBEKIT_BLOCK_LENGTH_TOO_SHORT: return "blockLengthTooShort";
        case SBEKIT_INVALID_DIMENSION: return "invalidDimension";
        case SBEKIT_EMPTY_ENTRY_BUDGET: return "emptyEntryBudget";
        case SBEKIT_BUFFER_TOO_SMALL: return "bufferTooSmall";
        case SBEKIT_COUNT_TOO_LARGE: return "countTooLarge";
        case SBEKIT_VALUE_TOO_LONG: return "valueTooLong";
        case SBEKIT_OUT_OF_ORDER: return "outOfOrder";
        case SBEKIT_ARENA_TOO_SMALL: return "arenaTooSmall";
        case SBEKIT_VALUE_OUT_OF_RANGE: return "valueOutOfRange";
        case SBEKIT_UNKNOWN_ENUM_VALUE: return "unknownEnumValue";
    }
    return "unknown";
}

/* An error: its kind, the byte offset it was found at (from the start of the message; 0 for an
 * owned value's `validate`, which reads no bytes) and the schema path of the element
 * (`Car.fuelFigures`, a string literal). */
typedef struct sbekit_error {
    /* What went wrong. */
    sbekit_kind kind;
    /* Byte offset from the start of the message. */
    size_t offset;
    /* Element path (never NULL once set). */
    const char* path;
} sbekit_error;

/* Records an error in `e` (when not NULL); returns the kind as an int, what decoders return. */
static inline int sbekit_fail(sbekit_error* e, sbekit_kind k, size_t off, const char* path) {
    if (e != NULL) {
        e->kind = k;
        e->offset = off;
        e->path = path;
    }
    return (int)k;
}

/* Text in the buffer: `len` bytes at `data` (not NUL-terminated). */
typedef struct sbekit_str {
    /* First byte. */
    const char* data;
    /* Number of bytes. */
    size_t len;
} sbekit_str;

/* Bytes in the buffer: `len` bytes at `data`. */
typedef struct sbekit_bytes {
    /* First byte. */
    const uint8_t* data;
    /* Number of bytes. */
    size_t len;
} sbekit_bytes;

/* ---- loads and stores ---- */

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SBEKIT_HOST_BIG 1
#else
#define SBEKIT_HOST_BIG 0
#endif

/* Byte reversal of unsigned integers. */
static inline uint8_t sbekit_bswap8(uint8_t x) { return x; }
/* Byte reversal of unsigned integers. */
static inline uint16_t sbekit_bswap16(uint16_t x) { return (uint16_t)(((unsigned)x << 8) | ((unsigned)x >> 8)); }
/* Byte reversal of unsigned integers. */
static inline uint32_t sbekit_bswap32(uint32_t x) {
    return ((x & 0xFFu) << 24) | ((x & 0xFF00u) << 8) | ((x >> 8) & 0xFF00u) | (x >> 24);
}
/* Byte reversal of unsigned integers. */
static inline uint64_t sbekit_bswap64(uint64_t x) {
    return ((uint64_t)sbekit_bswap32((uint32_t)x) << 32) | sbekit_bswap32((uint32_t)(x >> 32));
}

/* sbekit_get_<t>_<le|be>(p) reads a T stored in that byte order at p (no alignment needed, no
 * aliasing); sbekit_put_<t>_<le|be>(p, v) writes one. */
#define SBEKIT_LOAD_STORE(NAME, T, U, SWAP)                                            \
    static inline T sbekit_get_##NAME##_le(const uint8_t* p) {                        \
        U u;                                                                           \
        T v;                                                                           \
        memcpy(&u, p, sizeof u);                                                       \
        if (SBEKIT_HOST_BIG) u = SWAP(u);                                              \
        memcpy(&v, &u, sizeof v);                                                      \
        return v;                                                                      \
    }                                                                                  \
    static inline T sbekit_get_##NAME##_be(const uint8_t* p) {                        \
        U u;                                                                           \
        T v;                                                                           \
        memcpy(&u, p, sizeof u);                                                       \
        if (!SBEKIT_HOST_BIG) u = SWAP(u);                                             \
        memcpy(&v, &u, sizeof v);                                                      \
        return v;                                                                      \
    }                                                                                  \
    static inline void sbekit_put_##NAME##_le(uint8_t* p, T v) {                      \
        U u;                                                                           \
        memcpy(&u, &v, sizeof u);                                                      \
        if (SBEKIT_HOST_BIG) u = SWAP(u);                                              \
        memcpy(p, &u, sizeof u);                                                       \
    }                                                                                  \
    static inline void sbekit_put_##NAME##_be(uint8_t* p, T v) {                      \
        U u;                                                                           \
        memcpy(&u, &v, sizeof u);                                                      \
        if (!SBEKIT_HOST_BIG) u = SWAP(u);                                             \
        memcpy(p, &u, sizeof u);                                                       \
    }

SBEKIT_LOAD_STORE(char, char, uint8_t, sbekit_bswap8)
SBEKIT_LOAD_STORE(i8, int8_t, uint8_t, sbekit_bswap8)
SBEKIT_LOAD_STORE(u8, uint8_t, uint8_t, sbekit_bswap8)
SBEKIT_LOAD_STORE(i16, int16_t, uint16_t, sbekit_bswap16)
SBEKIT_LOAD_STORE(u16, uint16_t, uint16_t, sbekit_bswap16)
SBEKIT_LOAD_STORE(i32, int32_t, uint32_t, sbekit_bswap32)
SBEKIT_LOAD_STORE(u32, uint32_t, uint32_t, sbekit_bswap32)
SBEKIT_LOAD_STORE(i64, int64_t, uint64_t, sbekit_bswap64)
SBEKIT_LOAD_STORE(u64, uint64_t, uint64_t, sbekit_bswap64)
SBEKIT_LOAD_STORE(f32, float, uint32_t, sbekit_bswap32)
SBEKIT_LOAD_STORE(f64, double, uint64_t, sbekit_bswap64)

/* The text of a fixed char array: up to its first NUL. */
static inline sbekit_str sbekit_until_nul(const uint8_t* p, size_t n) {
    size_t k = 0;
    sbekit_str s;
    s.data = (const char*)p;
#if defined(__GNUC__)
    /* Up to 8 bytes (n is a constant once inlined): the lowest zero byte of one word, instead of
     * a branch per byte. The word is built from loads of 4, 2 and 1 bytes (one copy through
     * memory would stall on store forwarding); bytes past n are 0xFF, never a NUL. */
    if (n <= 8) {
        uint64_t x = 0, z;
        if (n == 8) {
            x = sbekit_get_u64_le(p);
        } else {
            if (n - k >= 4) {
                x = sbekit_get_u32_le(p);
                k = 4;
            }
            if (n - k >= 2) {
                x |= (uint64_t)sbekit_get_u16_le(p + k) << (8u * k);
                k += 2;
            }
            if (n - k >= 1) {
                x |= (uint64_t)p[k] << (8u * k);
                k += 1;
            }
            x |= ~(uint64_t)0 << (8u * k);
        }
        z = (x - 0x0101010101010101u) & ~x & 0x8080808080808080u;
        s.len = z == 0 ? n : (size_t)__builtin_ctzll(z) / 8u;
        return s;
    }
#endif
    while (k < n && p[k] != 0) ++k;
    s.len = k;
    return s;
}

/* ---- the encoder's cursor ---- */

/* The bytes an encoder writes into; shared by a message encoder and its groups' entries. The
 * first error is kept (sticky) and reported by `finish`; recording it also empties the cursor
 * (no room left), so later reservations fail by the room test alone. The position is a pointer
 * (not an offset into `buf`): a reservation then loads two fields, not three. */
typedef struct sbekit_cursor {
    /* Start of the message. */
    uint8_t* buf;
    /* Where the next write goes (`buf` plus the bytes written so far). */
    uint8_t* at;
    /* The end of the room (`at` once an error is recorded). */
    uint8_t* end;
    /* The first error (kind SBEKIT_OK while there is none). */
    sbekit_error err;
    /* The acting version written. */
    uint64_t version;
} sbekit_cursor;

/* What a cursor over no buffer points at (pointers are never NULL, so `end - at` is defined);
 * nothing is written there (it has no room). */
static uint8_t sbekit_no_bytes[1];

/* Starts a cursor over `cap` bytes at `buf` (`buf` may be NULL only when `cap` is 0) and reserves
 * its first `n` bytes (`n` above 0, zeroed): a pointer to them, or NULL (an error recorded, no
 * room left). One test of `cap` (no NULL test: a NULL `buf` has no room, so `n` does not fit). */
static inline uint8_t* sbekit_cursor_start(sbekit_cursor* c, uint8_t* buf, size_t cap, uint64_t version, size_t n,
                                           const char* path) {
    c->version = version;
    c->err.kind = SBEKIT_OK;
    c->err.offset = 0;
    c->err.path = NULL;
    if (n > cap) {
        c->buf = sbekit_no_bytes;
        c->at = sbekit_no_bytes;
        c->end = sbekit_no_bytes;
        c->err.kind = SBEKIT_BUFFER_TOO_SMALL;
        c->err.path = path;
        return NULL;
    }
    c->buf = buf;
    c->at = buf + n;
    c->end = buf + cap;
    memset(buf, 0, n);
    return buf;
}

/* Starts `d` as a cursor of no room (a group that is not written), at `c`'s version. */
static inline void sbekit_cursor_dead(sbekit_cursor* d, const sbekit_cursor* c) {
    memset(&d->err, 0, sizeof d->err);
    d->buf = c->buf;
    d->at = c->buf;
    d->end = c->buf;
    d->version = c->version;
}

/* Records `k` at the cursor unless an error is already kept, and leaves no room. */
static inline void sbekit_cursor_fail(sbekit_cursor* c, sbekit_kind k, const char* path) {
    if (c->err.kind == SBEKIT_OK) {
        c->err.kind = k;
        c->err.offset = (size_t)(c->at - c->buf);
        c->err.path = path;
    }
    c->at = c->buf;
    c->end = c->buf;
}

/* Records `k` at the cursor unless an error is already kept, leaving its room as it is (for an
 * error that writes nothing: later writes go on, and `finish` reports the error). */
static inline void sbekit_cursor_note(sbekit_cursor* c, sbekit_kind k, const char* path) {
    if (c->err.kind == SBEKIT_OK) {
        c->err.kind = k;
        c->err.offset = (size_t)(c->at - c->buf);
        c->err.path = path;
    }
}

/* Reserves `n` bytes without zeroing them; a pointer to them, or NULL (an error recorded). */
static inline uint8_t* sbekit_cursor_take_raw(sbekit_cursor* c, size_t n, const char* path) {
    uint8_t* p = c->at;
    if (n > (size_t)(c->end - p)) {
        sbekit_cursor_fail(c, SBEKIT_BUFFER_TOO_SMALL, path);
        return NULL;
    }
    c->at = p + n;
    return p;
}

/* Reserves `n` zeroed bytes; a pointer to them, or NULL (an error recorded). */
static inline uint8_t* sbekit_cursor_take(sbekit_cursor* c, size_t n, const char* path) {
    uint8_t* p = c->at;
    if (n > (size_t)(c->end - p)) {
        sbekit_cursor_fail(c, SBEKIT_BUFFER_TOO_SMALL, path);
        return NULL;
    }
    c->at = p + n;
    memset(p, 0, n);
    return p;
}

/* Tells the compiler that `p`, a pointer into a cursor's buffer, is not NULL (true by
 * construction: a cursor's pointers never are), so that the setters' NULL tests of a block
 * located inside room already reserved fold away. */
#if defined(__GNUC__)
#define SBEKIT_NOT_NULL(p)                      \
    do {                                        \
        if ((p) == NULL) __builtin_unreachable(); \
    } while (0)
#else
#define SBEKIT_NOT_NULL(p) ((void)0)
#endif

/* Reserves `head` bytes and `n` entries of `size` bytes after them, zeroed, in one capacity check
 * (`n` below 2^32 and `size` below 2^31: the product cannot overflow); a pointer to them, or NULL
 * (an error recorded). The check compares where the run would end, from the start, with the
 * capacity: in straight-line code both offsets are constants, one comparison with no subtraction. */
static inline uint8_t* sbekit_cursor_take_n(sbekit_cursor* c, size_t head, uint64_t n, size_t size, const char* path) {
    uint8_t* p = c->at;
    const uint64_t need = (uint64_t)head + n * (uint64_t)size;
    if ((uint64_t)(p - c->buf) + need > (uint64_t)(c->end - c->buf)) {
        sbekit_cursor_fail(c, SBEKIT_BUFFER_TOO_SMALL, path);
        return NULL;
    }
    c->at = p + need;
    memset(p, 0, (size_t)need);
    return p;
}

/* Writes `s` (`len` bytes) into the `n` bytes at `dst`, padded with NULs; false if too long. */
static inline bool sbekit_put_fixed(uint8_t* dst, size_t n, const char* s, size_t len) {
    if (len > n) return false;
    if (len > 0) memcpy(dst, s, len);
    if (n > len) memset(dst + len, 0, n - len);
    return true;
}

/* ---- the arena of owned values ---- */

/* Caller-supplied memory that decoding into an owned value copies groups' entries and var data
 * into (nothing is allocated). `used` counts every byte asked for, also those that did not fit
 * (as the JSON printers count): after SBEKIT_ARENA_TOO_SMALL it is what the decode needed, from
 * `base`, so an arena of `used` bytes at a `max_align_t`-aligned address (as `malloc` returns)
 * is enough, and `used + _Alignof(max_align_t) - 1` bytes anywhere. Nothing is written past
 * `cap`. */
typedef struct sbekit_arena {
    /* The first byte (aligned for any type), or NULL. */
    uint8_t* base;
    /* Bytes at `base`. */
    size_t cap;
    /* Bytes taken so far, including those that did not fit. */
    size_t used;
} sbekit_arena;

/* Starts an arena over `cap` bytes at `mem` (none when NULL); the bytes before the first address
 * aligned for any type are skipped. */
static inline void sbekit_arena_init(sbekit_arena* a, void* mem, size_t cap) {
    const size_t align = _Alignof(max_align_t);
    const size_t skip = mem == NULL ? 0 : (align - (size_t)((uintptr_t)mem % align)) % align;
    a->used = 0;
    if (mem == NULL || cap < skip) {
        a->base = NULL;
        a->cap = 0;
        return;
    }
    a->base = (uint8_t*)mem + skip;
    a->cap = cap - skip;
}

/* Forgets everything taken (the owned values in the arena are no longer valid). */
static inline void sbekit_arena_reset(sbekit_arena* a) { a->used = 0; }

/* True when everything asked for so far fit. */
static inline bool sbekit_arena_ok(const sbekit_arena* a) { return a->used <= a->cap; }

/* Takes `n` elements of `size` bytes aligned to `align` (a power of two up to
 * `_Alignof(max_align_t)`): a pointer to them, or NULL when `n` is 0 or they do not fit (then
 * counted in `used` all the same, which saturates at SIZE_MAX). */
static inline void* sbekit_arena_take(sbekit_arena* a, size_t n, size_t size, size_t align) {
    const size_t at = a->used + ((align - a->used % align) % align);
    size_t bytes;
    if (n == 0 || size == 0) return NULL;
    if (at < a->used || n > (SIZE_MAX - at) / size) {
        a->used = SIZE_MAX;
        return NULL;
    }
    bytes = n * size;
    a->used = at + bytes;
    if (a->used > a->cap) return NULL;
    return a->base + at;
}

/* ---- JSON text, as `sbekit decode` prints it ---- */

/* A caller-provided output buffer: `len` counts every byte written, also those that did not
 * fit in `cap` (so a printer returns the length it needs, as snprintf does). */
typedef struct sbekit_json {
    /* The output (may be NULL when `cap` is 0). */
    char* buf;
    /* Capacity of `buf`. */
    size_t cap;
    /* Bytes written so far, including those past `cap`. */
    size_t len;
} sbekit_json;

/* Appends `n` bytes (those past the capacity are counted, not written). */
static inline void sbekit_json_put(sbekit_json* j, const char* s, size_t n) {
    if (j->len < j->cap) {
        const size_t room = j->cap - j->len;
        memcpy(j->buf + j->len, s, n < room ? n : room);
    }
    j->len += n;
}

/* Ends the text: NUL-terminates inside the capacity (truncating if needed); the length needed,
 * without the NUL (the output is complete when it is below the capacity). */
static inline size_t sbekit_json_finish(sbekit_json* j) {
    if (j->cap > 0) j->buf[j->len < j->cap ? j->len : j->cap - 1] = 0;
    return j->len;
}

/* Appends `true` or `false`. */
static inline void sbekit_json_bool(sbekit_json* j, bool b) {
    if (b) {
        sbekit_json_put(j, "true", 4);
    } else {
        sbekit_json_put(j, "false", 5);
    }
}

/* True if `p[0..n)` is valid UTF-8 (no overlong forms, surrogates or values above U+10FFFF). */
static inline bool sbekit_valid_utf8(const uint8_t* p, size_t n) {
    size_t i = 0;
    while (i < n) {
        const uint8_t c = p[i];
        size_t len, k;
        uint32_t cp;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07u;
        } else {
            return false;
        }
        if (n - i < len) return false;
        for (k = 1; k < len; ++k) {
            const uint8_t d = p[i + k];
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        i += len;
    }
    return true;
}

/* Appends bytes as a JSON string: kept as UTF-8 when `utf8` and valid, otherwise each byte becomes
 * the code point of the same value (Latin-1), so no byte is lost. */
static inline void sbekit_json_text(sbekit_json* j, const uint8_t* p, size_t n, bool utf8) {
    static const char hex[] = "0123456789abcdef";
    const bool keep = utf8 && sbekit_valid_utf8(p, n);
    size_t i;
    sbekit_json_put(j, "\"", 1);
    for (i = 0; i < n; ++i) {
        const uint8_t c = p[i];
        if (c >= 0x80) {
            if (keep) {
                sbekit_json_put(j, (const char*)&p[i], 1);
            } else {
                char b[2];
                b[0] = (char)(0xC0 | (c >> 6));
                b[1] = (char)(0x80 | (c & 0x3F));
                sbekit_json_put(j, b, 2);
            }
        } else if (c >= 0x20 && c != '"' && c != '\\') {
            sbekit_json_put(j, (const char*)&p[i], 1);
        } else {
            switch (c) {
                case '"': sbekit_json_put(j, "\\\"", 2); break;
                case '\\': sbekit_json_put(j, "\\\\", 2); break;
                case '\n': sbekit_json_put(j, "\\n", 2); break;
                case '\r': sbekit_json_put(j, "\\r", 2); break;
                case '\t': sbekit_json_put(j, "\\t", 2); break;
                case 0x08: sbekit_json_put(j, "\\b", 2); break;
                case 0x0c: sbekit_json_put(j, "\\f", 2); break;
                default: {
                    char u[6];
                    u[0] = '\\';
                    u[1] = 'u';
                    u[2] = '0';
                    u[3] = '0';
                    u[4] = hex[c >> 4];
                    u[5] = hex[c & 0xF];
                    sbekit_json_put(j, u, 6);
                }
            }
        }
    }
    sbekit_json_put(j, "\"", 1);
}

/* Appends a char value as JSON text (one character, NUL included). */
static inline void sbekit_json_char(sbekit_json* j, char c) {
    uint8_t b;
    memcpy(&b, &c, 1);
    sbekit_json_text(j, &b, 1, true);
}

/* Appends a signed integer in decimal. */
static inline void sbekit_json_i64(sbekit_json* j, int64_t v) {
    char b[24];
    /* Digits from the magnitude, computed in unsigned arithmetic (INT64_MIN included). */
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    size_t k = sizeof b;
    do {
        b[--k] = (char)('0' + (int)(m % 10u));
        m /= 10u;
    } while (m != 0);
    if (v < 0) b[--k] = '-';
    sbekit_json_put(j, b + k, sizeof b - k);
}

/* Appends an unsigned integer in decimal. */
static inline void sbekit_json_u64(sbekit_json* j, uint64_t v) {
    char b[24];
    size_t k = sizeof b;
    do {
        b[--k] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    sbekit_json_put(j, b + k, sizeof b - k);
}

/* `%.<p>g` text `b` (of `n` chars) of `v` rewritten without an exponent when the exponent is in
 * [-5, 17), the same digits in plain notation (`4e+01` -> `40`), as Rust's Display and
 * `sbekit decode` print them; the new length. */
static inline int sbekit_plain(char* b, size_t cap, int n, int p, double v) {
    const char* e = strchr(b, 'e');
    long x;
    if (e == NULL) return n;
    x = strtol(e + 1, NULL, 10);
    if (x < -5 || x >= 17) return n;
    return snprintf(b, cap, "%.*f", (int)(p - 1 - x > 0 ? p - 1 - x : 0), v);
}

/* Appends a double: the shortest `%.Ng` text that reads back as the same value (what C++'s
 * std::to_chars and Rust's Display give, up to the choice of notation); `null` if not finite.
 * Assumes the "C" locale's decimal point. */
static inline void sbekit_json_f64(sbekit_json* j, double v) {
    char b[40];
    int n = 0, p;
    if (!isfinite(v)) {
        sbekit_json_put(j, "null", 4);
        return;
    }
    for (p = 1; p <= 17; ++p) {
        n = snprintf(b, sizeof b, "%.*g", p, v);
        if (strtod(b, NULL) == v) break;
    }
    n = sbekit_plain(b, sizeof b, n, p, v);
    sbekit_json_put(j, b, n > 0 ? (size_t)n : 0);
}

/* Appends a float: the shortest `%.Ng` text that reads back (as a float) as the same value;
 * `null` if not finite. */
static inline void sbekit_json_f32(sbekit_json* j, float v) {
    char b[40];
    int n = 0, p;
    if (!isfinite(v)) {
        sbekit_json_put(j, "null", 4);
        return;
    }
    for (p = 1; p <= 9; ++p) {
        n = snprintf(b, sizeof b, "%.*g", p, (double)v);
        if (strtof(b, NULL) == v) break;
    }
    n = sbekit_plain(b, sizeof b, n, p, (double)v);
    sbekit_json_put(j, b, n > 0 ? (size_t)n : 0);
}

#endif /* SBEKIT_RT_V1_H */
