/* libFuzzer target on generated C decoders (run by hand: ./run.sh; figures in
 * docs/BENCHMARKS.md). Two packages: `orders` (crates/sbekit-codegen-tests/schemas/orders-be.xml:
 * big-endian, versioned, nested groups, var data in groups) and `car` (the reference's
 * example-schema.xml, when ../shared is present; otherwise market-data.xml).
 *
 * For any input: decode_any either refuses it or accepts it; an accepted message is printed as
 * JSON (into a buffer too small half of the time: the length needed must not change) and
 * re-encoded, and what the encoders write must decode again to the same JSON (a trap
 * otherwise); re-encoding into a block of exactly the length written must write the same
 * bytes, and into a shorter block (a capacity picked by the input's last byte) must be refused
 * (the encoders' capacity checks: one per reservation, or one for a group's dimensions and all
 * its fixed-size entries). The input is copied into a heap block of exactly its size, so ASan reports any
 * read past it; UBSan any undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "car/car.h"
#include "orders/orders.h"

/* Re-encodes `m` (`len` bytes, `want`) into heap blocks of exactly `len` bytes (the same bytes)
 * and of a capacity below it chosen by `pick` (refused; ASan reports any write past the block). */
#define SHORT(P)                                                                              \
    static void short_##P(const P##_any* m, const uint8_t* want, size_t len, uint8_t pick) {  \
        size_t cap = len > 0 ? (size_t)pick * 257u % len : 0, got = 0;                        \
        uint8_t* exact = (uint8_t*)malloc(len > 0 ? len : 1);                                 \
        uint8_t* b = (uint8_t*)malloc(cap > 0 ? cap : 1);                                     \
        sbekit_error e;                                                                       \
        if (P##_reencode(m, exact, len, &got, NULL) != 0 || got != len || memcmp(exact, want, len) != 0) \
            __builtin_trap();                                                                 \
        if (len > 0) {                                                                        \
            memset(&e, 0, sizeof e);                                                          \
            if (P##_reencode(m, cap > 0 ? b : NULL, cap, &got, &e) == 0) __builtin_trap();    \
            if (e.kind != SBEKIT_BUFFER_TOO_SMALL && e.kind != SBEKIT_COUNT_TOO_LARGE) __builtin_trap(); \
        }                                                                                     \
        free(b);                                                                              \
        free(exact);                                                                          \
    }

#define ONE(P)                                                                                \
    static void one_##P(const uint8_t* data, size_t size) {                                   \
        P##_any m, again;                                                                     \
        size_t need, need2, len = 0;                                                          \
        char small[16];                                                                       \
        char* text;                                                                           \
        char* text2;                                                                          \
        uint8_t* buf;                                                                         \
        if (P##_decode_any(&m, data, size, NULL) != 0) return;                                \
        need = P##_any_to_json(&m, small, sizeof small);                                      \
        text = (char*)malloc(need + 1);                                                       \
        if (P##_any_to_json(&m, text, need + 1) != need || strlen(text) != need) __builtin_trap(); \
        buf = (uint8_t*)malloc(size + 4096);                                                  \
        if (P##_reencode(&m, buf, size + 4096, &len, NULL) == 0) {                            \
            if (P##_decode_any(&again, buf, len, NULL) != 0) __builtin_trap();                \
            need2 = P##_any_to_json(&again, NULL, 0);                                         \
            text2 = (char*)malloc(need2 + 1);                                                 \
            P##_any_to_json(&again, text2, need2 + 1);                                        \
            if (need2 != need || memcmp(text, text2, need) != 0) __builtin_trap();            \
            free(text2);                                                                      \
            short_##P(&m, buf, len, data[size - 1]);                                          \
        }                                                                                     \
        free(buf);                                                                            \
        free(text);                                                                           \
    }

SHORT(orders)
SHORT(car)
ONE(orders)
ONE(car)

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* copy = (uint8_t*)malloc(size > 0 ? size : 1);
    if (size > 0) memcpy(copy, data, size);
    one_orders(copy, size);
    one_car(copy, size);
    free(copy);
    return 0;
}
