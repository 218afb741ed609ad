/* Car and MD (MarketDataIncrementalRefreshTrades) encode and decode, three implementations in one
 * process: sbekit's generated C (bounds checked once up front), the reference's generated C
 * (sbe-all 1.38.1, -Dsbe.target.language=C, generated at bench time by run.sh, never committed;
 * it checks bounds per access), and hand-written C (memcpy at known offsets, one length check
 * per section).
 *
 *   bench                      wall-clock medians of 15 runs (ns per message) for every implementation
 *   bench <impl> <op> <n>      n iterations of one (impl: sbekit|reference|hand|sbekit-loop|
 *                              sbekit-next|sbekit-next-loop; op:
 *                              car-encode|car-decode|md-encode|md-decode), for valgrind */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "car_sbekit/car_sbekit.h"
#include "md_sbekit/md_sbekit.h"
#include "uk_co_real_logic_sbe_benchmarks/car.h"
#include "uk_co_real_logic_sbe_benchmarks/messageHeader.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/marketDataIncrementalRefreshTrades.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/messageHeader.h"

#define RC(x) uk_co_real_logic_sbe_benchmarks_##x
#define RF(x) uk_co_real_logic_sbe_benchmarks_fix_##x

/* Keeps the compiler from dropping a result or assuming the buffer unchanged. */
#define KEEP(v) __asm__ volatile("" : : "g"(&(v)) : "memory")

static uint8_t BUF[1024];
static const char MANUFACTURER[] = "Honda";
static const char MODEL[] = "Civic VTi";

/* ---------------- sbekit ---------------- */
/* The entries written out at each use, as the C++ benchmark's lambdas are (a loop over tables, or
 * a shared function, keeps the compiler from folding the writer's state). */
#define SK_FUEL(w, sp, mp)                                                                   \
    do {                                                                                     \
        car_sbekit_car_fuel_figures_enc* e_ = car_sbekit_car_fuel_figures_writer_next(w);    \
        car_sbekit_car_fuel_figures_enc_speed(e_, sp);                                       \
        car_sbekit_car_fuel_figures_enc_mpg(e_, mp);                                         \
    } while (0)
#define SK_ACC(w, mph, sec)                                                                                          \
    do {                                                                                                             \
        car_sbekit_car_performance_figures_acceleration_enc* x_ = car_sbekit_car_performance_figures_acceleration_writer_next(w); \
        car_sbekit_car_performance_figures_acceleration_enc_mph(x_, mph);                                            \
        car_sbekit_car_performance_figures_acceleration_enc_seconds(x_, sec);                                        \
    } while (0)
#define SK_PERF(pf, oct, s0, s1, s2)                                                                  \
    do {                                                                                              \
        car_sbekit_car_performance_figures_enc* p_ = car_sbekit_car_performance_figures_writer_next(pf); \
        car_sbekit_car_performance_figures_acceleration_writer a_;                                    \
        car_sbekit_car_performance_figures_enc_octane_rating(p_, oct);                                \
        car_sbekit_car_performance_figures_enc_acceleration(p_, &a_);                                 \
        SK_ACC(&a_, 30, s0);                                                                          \
        SK_ACC(&a_, 60, s1);                                                                          \
        SK_ACC(&a_, 100, s2);                                                                         \
        car_sbekit_car_performance_figures_acceleration_writer_end(&a_);                              \
    } while (0)
static size_t sk_car_encode_next(uint8_t* b, size_t cap) {
    static const int32_t nums[5] = {0, 1, 2, 3, 4};
    car_sbekit_car_enc car;
    car_sbekit_engine_enc eng;
    car_sbekit_car_fuel_figures_writer ff;
    car_sbekit_car_performance_figures_writer pf;
    size_t len = 0;
    car_sbekit_car_enc_init(&car, b, cap, CAR_SBEKIT_SCHEMA_VERSION);
    car_sbekit_car_enc_serial_number(&car, 1234);
    car_sbekit_car_enc_model_year(&car, 2013);
    car_sbekit_car_enc_available(&car, CAR_SBEKIT_BOOLEAN_TYPE_T);
    car_sbekit_car_enc_code(&car, CAR_SBEKIT_MODEL_A);
    car_sbekit_car_enc_some_numbers(&car, nums);
    car_sbekit_car_enc_vehicle_code(&car, "abcdef", 6);
    car_sbekit_car_enc_extras(&car, (car_sbekit_optional_extras)(CAR_SBEKIT_OPTIONAL_EXTRAS_CRUISE_CONTROL |
                                                                 CAR_SBEKIT_OPTIONAL_EXTRAS_SPORTS_PACK));
    eng = car_sbekit_car_enc_engine(&car);
    car_sbekit_engine_enc_capacity(&eng, 2000);
    car_sbekit_engine_enc_num_cylinders(&eng, 4);
    car_sbekit_engine_enc_manufacturer_code(&eng, "123", 3);
    car_sbekit_car_enc_fuel_figures(&car, &ff);
    SK_FUEL(&ff, 30, 35.9f);
    SK_FUEL(&ff, 55, 49.0f);
    SK_FUEL(&ff, 75, 40.0f);
    car_sbekit_car_fuel_figures_writer_end(&ff);
    car_sbekit_car_enc_performance_figures(&car, &pf);
    SK_PERF(&pf, 95, 4.0f, 7.5f, 12.2f);
    SK_PERF(&pf, 99, 3.8f, 7.1f, 11.8f);
    car_sbekit_car_performance_figures_writer_end(&pf);
    car_sbekit_car_enc_manufacturer(&car, MANUFACTURER, 5);
    car_sbekit_car_enc_model(&car, MODEL, 9);
    return car_sbekit_car_enc_finish(&car, &len, NULL) == 0 ? len : 0;
}
static uint64_t sk_car_decode(const uint8_t* b, size_t n) {
    car_sbekit_car_dec car;
    car_sbekit_engine_dec e;
    car_sbekit_car_fuel_figures_iter fi;
    car_sbekit_car_fuel_figures_dec f;
    car_sbekit_car_performance_figures_iter pi;
    car_sbekit_car_performance_figures_dec p;
    int32_t nums[5];
    uint64_t s;
    int i;
    if (car_sbekit_car_dec_decode(&car, b, n, NULL) != 0) return 0;
    s = car_sbekit_car_dec_serial_number(&car) + car_sbekit_car_dec_model_year(&car) + car_sbekit_car_dec_available(&car) +
        (uint64_t)car_sbekit_car_dec_code(&car);
    car_sbekit_car_dec_some_numbers(&car, nums);
    for (i = 0; i < 5; ++i) s += (uint64_t)nums[i];
    s += car_sbekit_car_dec_vehicle_code(&car).len + car_sbekit_car_dec_extras(&car);
    e = car_sbekit_car_dec_engine(&car);
    s += car_sbekit_engine_dec_capacity(&e) + car_sbekit_engine_dec_num_cylinders(&e) + car_sbekit_engine_dec_max_rpm(&e) +
         car_sbekit_engine_dec_manufacturer_code(&e).len;
    fi = car_sbekit_car_dec_fuel_figures(&car);
    while (car_sbekit_car_fuel_figures_iter_next(&fi, &f))
        s += car_sbekit_car_fuel_figures_dec_speed(&f) + (uint64_t)car_sbekit_car_fuel_figures_dec_mpg(&f);
    pi = car_sbekit_car_dec_performance_figures(&car);
    while (car_sbekit_car_performance_figures_iter_next(&pi, &p)) {
        car_sbekit_car_performance_figures_acceleration_iter ai = car_sbekit_car_performance_figures_dec_acceleration(&p);
        car_sbekit_car_performance_figures_acceleration_dec a;
        s += car_sbekit_car_performance_figures_dec_octane_rating(&p);
        while (car_sbekit_car_performance_figures_acceleration_iter_next(&ai, &a))
            s += car_sbekit_car_performance_figures_acceleration_dec_mph(&a) +
                 (uint64_t)car_sbekit_car_performance_figures_acceleration_dec_seconds(&a);
    }
    s += car_sbekit_car_dec_manufacturer(&car).len + car_sbekit_car_dec_model(&car).len;
    return s;
}
#define SK_MD_ENTRY(g)                                                                                                   \
    do {                                                                                                                 \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc* e_ = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer_next(g); \
        md_sbekit_decimal64_enc px_ = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_px(e_);   \
        md_sbekit_int_qty32_enc sz_ = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_size(e_); \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_trade_id(e_, 1234);                              \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_security_id(e_, 56789);                          \
        md_sbekit_decimal64_enc_mantissa(&px_, 50);                                                                      \
        md_sbekit_int_qty32_enc_mantissa(&sz_, 10);                                                                      \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_number_of_orders(e_, 1);                         \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_update_action(e_, MD_SBEKIT_MD_UPDATE_ACTION_NEW); \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_rpt_seq(e_, 1);                                  \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_aggressor_side(e_, MD_SBEKIT_SIDE_BUY);          \
    } while (0)
static size_t sk_md_encode_next(uint8_t* b, size_t cap) {
    md_sbekit_market_data_incremental_refresh_trades_enc md;
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer g;
    size_t len = 0;
    md_sbekit_market_data_incremental_refresh_trades_enc_init(&md, b, cap, MD_SBEKIT_SCHEMA_VERSION);
    md_sbekit_market_data_incremental_refresh_trades_enc_transact_time(&md, 1234);
    md_sbekit_market_data_incremental_refresh_trades_enc_event_time_delta(&md, 987);
    md_sbekit_market_data_incremental_refresh_trades_enc_match_event_indicator(&md, MD_SBEKIT_MATCH_EVENT_INDICATOR_END_EVENT);
    md_sbekit_market_data_incremental_refresh_trades_enc_md_inc_grp(&md, &g);
    SK_MD_ENTRY(&g);
    SK_MD_ENTRY(&g);
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer_end(&g);
    return md_sbekit_market_data_incremental_refresh_trades_enc_finish(&md, &len, NULL) == 0 ? len : 0;
}
static uint64_t sk_md_decode(const uint8_t* b, size_t n) {
    md_sbekit_market_data_incremental_refresh_trades_dec md;
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_iter it;
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec e;
    uint64_t s;
    if (md_sbekit_market_data_incremental_refresh_trades_dec_decode(&md, b, n, NULL) != 0) return 0;
    s = md_sbekit_market_data_incremental_refresh_trades_dec_transact_time(&md) +
        md_sbekit_market_data_incremental_refresh_trades_dec_event_time_delta(&md) +
        (uint64_t)md_sbekit_market_data_incremental_refresh_trades_dec_match_event_indicator(&md);
    it = md_sbekit_market_data_incremental_refresh_trades_dec_md_inc_grp(&md);
    while (md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_iter_next(&it, &e)) {
        md_sbekit_decimal64_dec px = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_md_entry_px(&e);
        md_sbekit_int_qty32_dec sz = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_md_entry_size(&e);
        s += md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_trade_id(&e) +
             md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_security_id(&e) +
             (uint64_t)md_sbekit_decimal64_dec_mantissa(&px) + (uint64_t)md_sbekit_int_qty32_dec_mantissa(&sz) +
             md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_number_of_orders(&e) +
             md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_md_update_action(&e) +
             md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_rpt_seq(&e) +
             (uint64_t)md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_dec_aggressor_side(&e);
    }
    return s;
}

/* The same messages with the entries written by loops over tables (as the hand-written code
 * does): "sbekit-loop". */
static size_t sk_car_encode_next_loop(uint8_t* b, size_t cap) {
    static const uint16_t sp[3] = {30, 55, 75};
    static const float mp[3] = {35.9f, 49.0f, 40.0f};
    static const float sec[2][3] = {{4.0f, 7.5f, 12.2f}, {3.8f, 7.1f, 11.8f}};
    static const uint16_t mph[3] = {30, 60, 100};
    static const uint8_t oct[2] = {95, 99};
    static const int32_t nums[5] = {0, 1, 2, 3, 4};
    car_sbekit_car_enc car;
    car_sbekit_engine_enc eng;
    car_sbekit_car_fuel_figures_writer ff;
    car_sbekit_car_performance_figures_writer pf;
    size_t len = 0;
    int i, j;
    car_sbekit_car_enc_init(&car, b, cap, CAR_SBEKIT_SCHEMA_VERSION);
    car_sbekit_car_enc_serial_number(&car, 1234);
    car_sbekit_car_enc_model_year(&car, 2013);
    car_sbekit_car_enc_available(&car, CAR_SBEKIT_BOOLEAN_TYPE_T);
    car_sbekit_car_enc_code(&car, CAR_SBEKIT_MODEL_A);
    car_sbekit_car_enc_some_numbers(&car, nums);
    car_sbekit_car_enc_vehicle_code(&car, "abcdef", 6);
    car_sbekit_car_enc_extras(&car, (car_sbekit_optional_extras)(CAR_SBEKIT_OPTIONAL_EXTRAS_CRUISE_CONTROL |
                                                                 CAR_SBEKIT_OPTIONAL_EXTRAS_SPORTS_PACK));
    eng = car_sbekit_car_enc_engine(&car);
    car_sbekit_engine_enc_capacity(&eng, 2000);
    car_sbekit_engine_enc_num_cylinders(&eng, 4);
    car_sbekit_engine_enc_manufacturer_code(&eng, "123", 3);
    car_sbekit_car_enc_fuel_figures(&car, &ff);
    for (i = 0; i < 3; ++i) {
        car_sbekit_car_fuel_figures_enc* e = car_sbekit_car_fuel_figures_writer_next(&ff);
        car_sbekit_car_fuel_figures_enc_speed(e, sp[i]);
        car_sbekit_car_fuel_figures_enc_mpg(e, mp[i]);
    }
    car_sbekit_car_fuel_figures_writer_end(&ff);
    car_sbekit_car_enc_performance_figures(&car, &pf);
    for (j = 0; j < 2; ++j) {
        car_sbekit_car_performance_figures_enc* p = car_sbekit_car_performance_figures_writer_next(&pf);
        car_sbekit_car_performance_figures_acceleration_writer a;
        car_sbekit_car_performance_figures_enc_octane_rating(p, oct[j]);
        car_sbekit_car_performance_figures_enc_acceleration(p, &a);
        for (i = 0; i < 3; ++i) {
            car_sbekit_car_performance_figures_acceleration_enc* x = car_sbekit_car_performance_figures_acceleration_writer_next(&a);
            car_sbekit_car_performance_figures_acceleration_enc_mph(x, mph[i]);
            car_sbekit_car_performance_figures_acceleration_enc_seconds(x, sec[j][i]);
        }
        car_sbekit_car_performance_figures_acceleration_writer_end(&a);
    }
    car_sbekit_car_performance_figures_writer_end(&pf);
    car_sbekit_car_enc_manufacturer(&car, MANUFACTURER, 5);
    car_sbekit_car_enc_model(&car, MODEL, 9);
    return car_sbekit_car_enc_finish(&car, &len, NULL) == 0 ? len : 0;
}
static size_t sk_md_encode_next_loop(uint8_t* b, size_t cap) {
    md_sbekit_market_data_incremental_refresh_trades_enc md;
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer g;
    size_t len = 0;
    int i;
    md_sbekit_market_data_incremental_refresh_trades_enc_init(&md, b, cap, MD_SBEKIT_SCHEMA_VERSION);
    md_sbekit_market_data_incremental_refresh_trades_enc_transact_time(&md, 1234);
    md_sbekit_market_data_incremental_refresh_trades_enc_event_time_delta(&md, 987);
    md_sbekit_market_data_incremental_refresh_trades_enc_match_event_indicator(&md, MD_SBEKIT_MATCH_EVENT_INDICATOR_END_EVENT);
    md_sbekit_market_data_incremental_refresh_trades_enc_md_inc_grp(&md, &g);
    for (i = 0; i < 2; ++i) {
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc* e = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer_next(&g);
        md_sbekit_decimal64_enc px = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_px(e);
        md_sbekit_int_qty32_enc sz = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_size(e);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_trade_id(e, 1234);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_security_id(e, 56789);
        md_sbekit_decimal64_enc_mantissa(&px, 50);
        md_sbekit_int_qty32_enc_mantissa(&sz, 10);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_number_of_orders(e, 1);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_update_action(e, MD_SBEKIT_MD_UPDATE_ACTION_NEW);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_rpt_seq(e, 1);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_aggressor_side(e, MD_SBEKIT_SIDE_BUY);
    }
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer_end(&g);
    return md_sbekit_market_data_incremental_refresh_trades_enc_finish(&md, &len, NULL) == 0 ? len : 0;
}
/* The counted form (what "sbekit" and "sbekit-loop" measure): a group of fixed-size entries
 * started with its count (`..._n`), the dimensions and every entry reserved in one capacity
 * check, each entry then located by its index (`..._writer_entry`). */
#define SKN_FUEL(w, i, sp, mp)                                                                \
    do {                                                                                      \
        car_sbekit_car_fuel_figures_enc* e_ = car_sbekit_car_fuel_figures_writer_entry(w, i); \
        car_sbekit_car_fuel_figures_enc_speed(e_, sp);                                        \
        car_sbekit_car_fuel_figures_enc_mpg(e_, mp);                                          \
    } while (0)
#define SKN_ACC(w, i, mph, sec)                                                                                       \
    do {                                                                                                              \
        car_sbekit_car_performance_figures_acceleration_enc* x_ = car_sbekit_car_performance_figures_acceleration_writer_entry(w, i); \
        car_sbekit_car_performance_figures_acceleration_enc_mph(x_, mph);                                             \
        car_sbekit_car_performance_figures_acceleration_enc_seconds(x_, sec);                                         \
    } while (0)
#define SKN_PERF(pf, oct, s0, s1, s2)                                                                 \
    do {                                                                                              \
        car_sbekit_car_performance_figures_enc* p_ = car_sbekit_car_performance_figures_writer_next(pf); \
        car_sbekit_car_performance_figures_acceleration_writer a_;                                    \
        car_sbekit_car_performance_figures_enc_octane_rating(p_, oct);                                \
        car_sbekit_car_performance_figures_enc_acceleration_n(p_, &a_, 3);                            \
        SKN_ACC(&a_, 0, 30, s0);                                                                      \
        SKN_ACC(&a_, 1, 60, s1);                                                                      \
        SKN_ACC(&a_, 2, 100, s2);                                                                     \
    } while (0)
static size_t sk_car_encode(uint8_t* b, size_t cap) {
    static const int32_t nums[5] = {0, 1, 2, 3, 4};
    car_sbekit_car_enc car;
    car_sbekit_engine_enc eng;
    car_sbekit_car_fuel_figures_writer ff;
    car_sbekit_car_performance_figures_writer pf;
    size_t len = 0;
    car_sbekit_car_enc_init(&car, b, cap, CAR_SBEKIT_SCHEMA_VERSION);
    car_sbekit_car_enc_serial_number(&car, 1234);
    car_sbekit_car_enc_model_year(&car, 2013);
    car_sbekit_car_enc_available(&car, CAR_SBEKIT_BOOLEAN_TYPE_T);
    car_sbekit_car_enc_code(&car, CAR_SBEKIT_MODEL_A);
    car_sbekit_car_enc_some_numbers(&car, nums);
    car_sbekit_car_enc_vehicle_code(&car, "abcdef", 6);
    car_sbekit_car_enc_extras(&car, (car_sbekit_optional_extras)(CAR_SBEKIT_OPTIONAL_EXTRAS_CRUISE_CONTROL |
                                                                 CAR_SBEKIT_OPTIONAL_EXTRAS_SPORTS_PACK));
    eng = car_sbekit_car_enc_engine(&car);
    car_sbekit_engine_enc_capacity(&eng, 2000);
    car_sbekit_engine_enc_num_cylinders(&eng, 4);
    car_sbekit_engine_enc_manufacturer_code(&eng, "123", 3);
    car_sbekit_car_enc_fuel_figures_n(&car, &ff, 3);
    SKN_FUEL(&ff, 0, 30, 35.9f);
    SKN_FUEL(&ff, 1, 55, 49.0f);
    SKN_FUEL(&ff, 2, 75, 40.0f);
    car_sbekit_car_enc_performance_figures(&car, &pf);
    SKN_PERF(&pf, 95, 4.0f, 7.5f, 12.2f);
    SKN_PERF(&pf, 99, 3.8f, 7.1f, 11.8f);
    car_sbekit_car_performance_figures_writer_end(&pf);
    car_sbekit_car_enc_manufacturer(&car, MANUFACTURER, 5);
    car_sbekit_car_enc_model(&car, MODEL, 9);
    return car_sbekit_car_enc_finish(&car, &len, NULL) == 0 ? len : 0;
}
#define SKN_MD_ENTRY(g, i)                                                                                               \
    do {                                                                                                                 \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc* e_ = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer_entry(g, i); \
        md_sbekit_decimal64_enc px_ = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_px(e_);   \
        md_sbekit_int_qty32_enc sz_ = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_size(e_); \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_trade_id(e_, 1234);                              \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_security_id(e_, 56789);                          \
        md_sbekit_decimal64_enc_mantissa(&px_, 50);                                                                      \
        md_sbekit_int_qty32_enc_mantissa(&sz_, 10);                                                                      \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_number_of_orders(e_, 1);                         \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_update_action(e_, MD_SBEKIT_MD_UPDATE_ACTION_NEW); \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_rpt_seq(e_, 1);                                  \
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_aggressor_side(e_, MD_SBEKIT_SIDE_BUY);          \
    } while (0)
static size_t sk_md_encode(uint8_t* b, size_t cap) {
    md_sbekit_market_data_incremental_refresh_trades_enc md;
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer g;
    size_t len = 0;
    md_sbekit_market_data_incremental_refresh_trades_enc_init(&md, b, cap, MD_SBEKIT_SCHEMA_VERSION);
    md_sbekit_market_data_incremental_refresh_trades_enc_transact_time(&md, 1234);
    md_sbekit_market_data_incremental_refresh_trades_enc_event_time_delta(&md, 987);
    md_sbekit_market_data_incremental_refresh_trades_enc_match_event_indicator(&md, MD_SBEKIT_MATCH_EVENT_INDICATOR_END_EVENT);
    md_sbekit_market_data_incremental_refresh_trades_enc_md_inc_grp_n(&md, &g, 2);
    SKN_MD_ENTRY(&g, 0);
    SKN_MD_ENTRY(&g, 1);
    return md_sbekit_market_data_incremental_refresh_trades_enc_finish(&md, &len, NULL) == 0 ? len : 0;
}
static size_t sk_car_encode_loop(uint8_t* b, size_t cap) {
    static const uint16_t sp[3] = {30, 55, 75};
    static const float mp[3] = {35.9f, 49.0f, 40.0f};
    static const float sec[2][3] = {{4.0f, 7.5f, 12.2f}, {3.8f, 7.1f, 11.8f}};
    static const uint16_t mph[3] = {30, 60, 100};
    static const uint8_t oct[2] = {95, 99};
    static const int32_t nums[5] = {0, 1, 2, 3, 4};
    car_sbekit_car_enc car;
    car_sbekit_engine_enc eng;
    car_sbekit_car_fuel_figures_writer ff;
    car_sbekit_car_performance_figures_writer pf;
    size_t len = 0;
    size_t i, j;
    car_sbekit_car_enc_init(&car, b, cap, CAR_SBEKIT_SCHEMA_VERSION);
    car_sbekit_car_enc_serial_number(&car, 1234);
    car_sbekit_car_enc_model_year(&car, 2013);
    car_sbekit_car_enc_available(&car, CAR_SBEKIT_BOOLEAN_TYPE_T);
    car_sbekit_car_enc_code(&car, CAR_SBEKIT_MODEL_A);
    car_sbekit_car_enc_some_numbers(&car, nums);
    car_sbekit_car_enc_vehicle_code(&car, "abcdef", 6);
    car_sbekit_car_enc_extras(&car, (car_sbekit_optional_extras)(CAR_SBEKIT_OPTIONAL_EXTRAS_CRUISE_CONTROL |
                                                                 CAR_SBEKIT_OPTIONAL_EXTRAS_SPORTS_PACK));
    eng = car_sbekit_car_enc_engine(&car);
    car_sbekit_engine_enc_capacity(&eng, 2000);
    car_sbekit_engine_enc_num_cylinders(&eng, 4);
    car_sbekit_engine_enc_manufacturer_code(&eng, "123", 3);
    car_sbekit_car_enc_fuel_figures_n(&car, &ff, 3);
    for (i = 0; i < 3; ++i) {
        car_sbekit_car_fuel_figures_enc* e = car_sbekit_car_fuel_figures_writer_entry(&ff, i);
        car_sbekit_car_fuel_figures_enc_speed(e, sp[i]);
        car_sbekit_car_fuel_figures_enc_mpg(e, mp[i]);
    }
    car_sbekit_car_enc_performance_figures(&car, &pf);
    for (j = 0; j < 2; ++j) {
        car_sbekit_car_performance_figures_enc* p = car_sbekit_car_performance_figures_writer_next(&pf);
        car_sbekit_car_performance_figures_acceleration_writer a;
        car_sbekit_car_performance_figures_enc_octane_rating(p, oct[j]);
        car_sbekit_car_performance_figures_enc_acceleration_n(p, &a, 3);
        for (i = 0; i < 3; ++i) {
            car_sbekit_car_performance_figures_acceleration_enc* x = car_sbekit_car_performance_figures_acceleration_writer_entry(&a, i);
            car_sbekit_car_performance_figures_acceleration_enc_mph(x, mph[i]);
            car_sbekit_car_performance_figures_acceleration_enc_seconds(x, sec[j][i]);
        }
    }
    car_sbekit_car_performance_figures_writer_end(&pf);
    car_sbekit_car_enc_manufacturer(&car, MANUFACTURER, 5);
    car_sbekit_car_enc_model(&car, MODEL, 9);
    return car_sbekit_car_enc_finish(&car, &len, NULL) == 0 ? len : 0;
}
static size_t sk_md_encode_loop(uint8_t* b, size_t cap) {
    md_sbekit_market_data_incremental_refresh_trades_enc md;
    md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer g;
    size_t len = 0;
    size_t i;
    md_sbekit_market_data_incremental_refresh_trades_enc_init(&md, b, cap, MD_SBEKIT_SCHEMA_VERSION);
    md_sbekit_market_data_incremental_refresh_trades_enc_transact_time(&md, 1234);
    md_sbekit_market_data_incremental_refresh_trades_enc_event_time_delta(&md, 987);
    md_sbekit_market_data_incremental_refresh_trades_enc_match_event_indicator(&md, MD_SBEKIT_MATCH_EVENT_INDICATOR_END_EVENT);
    md_sbekit_market_data_incremental_refresh_trades_enc_md_inc_grp_n(&md, &g, 2);
    for (i = 0; i < 2; ++i) {
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc* e = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_writer_entry(&g, i);
        md_sbekit_decimal64_enc px = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_px(e);
        md_sbekit_int_qty32_enc sz = md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_entry_size(e);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_trade_id(e, 1234);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_security_id(e, 56789);
        md_sbekit_decimal64_enc_mantissa(&px, 50);
        md_sbekit_int_qty32_enc_mantissa(&sz, 10);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_number_of_orders(e, 1);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_md_update_action(e, MD_SBEKIT_MD_UPDATE_ACTION_NEW);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_rpt_seq(e, 1);
        md_sbekit_market_data_incremental_refresh_trades_md_inc_grp_enc_aggressor_side(e, MD_SBEKIT_SIDE_BUY);
    }
    return md_sbekit_market_data_incremental_refresh_trades_enc_finish(&md, &len, NULL) == 0 ? len : 0;
}
/* ---------------- the reference's generated C ---------------- */
static size_t rf_car_encode(uint8_t* b, size_t cap) {
    char* buf = (char*)b;
    struct RC(messageHeader) hdr;
    struct RC(car) car;
    struct RC(engine) eng;
    struct RC(optionalExtras) ex;
    struct RC(car_fuelFigures) ff;
    struct RC(car_performanceFigures) pf;
    struct RC(car_performanceFigures_acceleration) a;
    static const uint16_t sp[3] = {30, 55, 75};
    static const float mp[3] = {35.9f, 49.0f, 40.0f};
    static const float sec[2][3] = {{4.0f, 7.5f, 12.2f}, {3.8f, 7.1f, 11.8f}};
    static const uint16_t mph[3] = {30, 60, 100};
    static const uint8_t oct[2] = {95, 99};
    uint64_t i;
    int j, k;
    if (!RC(messageHeader_wrap)(&hdr, buf, 0, RC(car_sbe_schema_version)(), cap)) return 0;
    RC(messageHeader_set_blockLength)(&hdr, RC(car_sbe_block_length)());
    RC(messageHeader_set_templateId)(&hdr, RC(car_sbe_template_id)());
    RC(messageHeader_set_schemaId)(&hdr, RC(car_sbe_schema_id)());
    RC(messageHeader_set_version)(&hdr, RC(car_sbe_schema_version)());
    if (!RC(car_wrap_for_encode)(&car, buf, RC(messageHeader_encoded_length)(), cap)) return 0;
    RC(car_set_serialNumber)(&car, 1234);
    RC(car_set_modelYear)(&car, 2013);
    RC(car_set_available)(&car, RC(booleanType_T));
    RC(car_set_code)(&car, RC(model_A));
    RC(car_put_vehicleCode)(&car, "abcdef");
    for (i = 0; i < 5; ++i) RC(car_set_someNumbers)(&car, i, (int32_t)i);
    if (!RC(car_extras)(&car, &ex)) return 0;
    RC(optionalExtras_clear)(&ex);
    RC(optionalExtras_set_cruiseControl)(&ex, true);
    RC(optionalExtras_set_sportsPack)(&ex, true);
    RC(optionalExtras_set_sunRoof)(&ex, false);
    if (!RC(car_engine)(&car, &eng)) return 0;
    RC(engine_set_capacity)(&eng, 2000);
    RC(engine_set_numCylinders)(&eng, 4);
    RC(engine_put_manufacturerCode)(&eng, "123");
    if (!RC(car_fuelFigures_set_count)(&car, &ff, 3)) return 0;
    for (k = 0; k < 3; ++k) {
        RC(car_fuelFigures_next)(&ff);
        RC(car_fuelFigures_set_speed)(&ff, sp[k]);
        RC(car_fuelFigures_set_mpg)(&ff, mp[k]);
    }
    if (!RC(car_performanceFigures_set_count)(&car, &pf, 2)) return 0;
    for (j = 0; j < 2; ++j) {
        RC(car_performanceFigures_next)(&pf);
        RC(car_performanceFigures_set_octaneRating)(&pf, oct[j]);
        if (!RC(car_performanceFigures_acceleration_set_count)(&pf, &a, 3)) return 0;
        for (k = 0; k < 3; ++k) {
            RC(car_performanceFigures_acceleration_next)(&a);
            RC(car_performanceFigures_acceleration_set_mph)(&a, mph[k]);
            RC(car_performanceFigures_acceleration_set_seconds)(&a, sec[j][k]);
        }
    }
    if (!RC(car_put_manufacturer)(&car, MANUFACTURER, 5)) return 0;
    if (!RC(car_put_model)(&car, MODEL, 9)) return 0;
    return (size_t)(RC(messageHeader_encoded_length)() + RC(car_encoded_length)(&car));
}
static uint64_t rf_car_decode(const uint8_t* b, size_t n) {
    char* buf = (char*)(uintptr_t)b;
    struct RC(messageHeader) hdr;
    struct RC(car) car;
    struct RC(engine) eng;
    struct RC(optionalExtras) ex;
    struct RC(car_fuelFigures) ff;
    struct RC(car_performanceFigures) pf;
    struct RC(car_performanceFigures_acceleration) a;
    enum RC(booleanType) av;
    enum RC(model) code;
    uint64_t s, i;
    int32_t x;
    if (!RC(messageHeader_wrap)(&hdr, buf, 0, RC(car_sbe_schema_version)(), n)) return 0;
    if (!RC(car_wrap_for_decode)(&car, buf, RC(messageHeader_encoded_length)(), RC(messageHeader_blockLength)(&hdr),
                                 RC(messageHeader_version)(&hdr), n))
        return 0;
    if (!RC(car_available)(&car, &av) || !RC(car_code)(&car, &code)) return 0;
    s = RC(car_serialNumber)(&car) + RC(car_modelYear)(&car) + (uint64_t)av + (uint64_t)code;
    for (i = 0; i < 5; ++i) {
        if (!RC(car_someNumbers)(&car, i, &x)) return 0;
        s += (uint64_t)x;
    }
    s += strnlen(RC(car_vehicleCode_buffer)(&car), 6);
    RC(car_extras)(&car, &ex);
    /* The reference has no raw getter for a set: its three bits. */
    s += (uint64_t)RC(optionalExtras_sunRoof)(&ex) | (uint64_t)RC(optionalExtras_sportsPack)(&ex) << 1 |
         (uint64_t)RC(optionalExtras_cruiseControl)(&ex) << 2;
    if (!RC(car_engine)(&car, &eng)) return 0;
    s += RC(engine_capacity)(&eng) + RC(engine_numCylinders)(&eng) + RC(engine_maxRpm)() +
         strnlen(RC(engine_manufacturerCode_buffer)(&eng), 3);
    if (!RC(car_get_fuelFigures)(&car, &ff)) return 0;
    while (RC(car_fuelFigures_has_next)(&ff)) {
        RC(car_fuelFigures_next)(&ff);
        s += RC(car_fuelFigures_speed)(&ff) + (uint64_t)RC(car_fuelFigures_mpg)(&ff);
    }
    if (!RC(car_get_performanceFigures)(&car, &pf)) return 0;
    while (RC(car_performanceFigures_has_next)(&pf)) {
        RC(car_performanceFigures_next)(&pf);
        s += RC(car_performanceFigures_octaneRating)(&pf);
        if (!RC(car_performanceFigures_get_acceleration)(&pf, &a)) return 0;
        while (RC(car_performanceFigures_acceleration_has_next)(&a)) {
            RC(car_performanceFigures_acceleration_next)(&a);
            s += RC(car_performanceFigures_acceleration_mph)(&a) + (uint64_t)RC(car_performanceFigures_acceleration_seconds)(&a);
        }
    }
    s += RC(car_get_manufacturer_as_string_view)(&car).length;
    s += RC(car_get_model_as_string_view)(&car).length;
    return s;
}
static size_t rf_md_encode(uint8_t* b, size_t cap) {
    char* buf = (char*)b;
    struct RF(messageHeader) hdr;
    struct RF(marketDataIncrementalRefreshTrades) md;
    struct RF(marketDataIncrementalRefreshTrades_mdIncGrp) g;
    struct RF(decimal64) px;
    struct RF(intQty32) sz;
    int i;
    if (!RF(messageHeader_wrap)(&hdr, buf, 0, RF(marketDataIncrementalRefreshTrades_sbe_schema_version)(), cap)) return 0;
    RF(messageHeader_set_blockLength)(&hdr, RF(marketDataIncrementalRefreshTrades_sbe_block_length)());
    RF(messageHeader_set_templateId)(&hdr, RF(marketDataIncrementalRefreshTrades_sbe_template_id)());
    RF(messageHeader_set_schemaId)(&hdr, RF(marketDataIncrementalRefreshTrades_sbe_schema_id)());
    RF(messageHeader_set_version)(&hdr, RF(marketDataIncrementalRefreshTrades_sbe_schema_version)());
    if (!RF(marketDataIncrementalRefreshTrades_wrap_for_encode)(&md, buf, RF(messageHeader_encoded_length)(), cap)) return 0;
    RF(marketDataIncrementalRefreshTrades_set_transactTime)(&md, 1234);
    RF(marketDataIncrementalRefreshTrades_set_eventTimeDelta)(&md, 987);
    RF(marketDataIncrementalRefreshTrades_set_matchEventIndicator)(&md, RF(matchEventIndicator_END_EVENT));
    if (!RF(marketDataIncrementalRefreshTrades_mdIncGrp_set_count)(&md, &g, 2)) return 0;
    for (i = 0; i < 2; ++i) {
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_next)(&g);
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_set_tradeId)(&g, 1234);
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_set_securityId)(&g, 56789);
        if (!RF(marketDataIncrementalRefreshTrades_mdIncGrp_mdEntryPx)(&g, &px)) return 0;
        RF(decimal64_set_mantissa)(&px, 50);
        if (!RF(marketDataIncrementalRefreshTrades_mdIncGrp_mdEntrySize)(&g, &sz)) return 0;
        RF(intQty32_set_mantissa)(&sz, 10);
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_set_numberOfOrders)(&g, 1);
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_set_mdUpdateAction)(&g, RF(mDUpdateAction_NEW));
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_set_rptSeq)(&g, 1);
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_set_aggressorSide)(&g, RF(side_BUY));
    }
    return (size_t)(RF(messageHeader_encoded_length)() + RF(marketDataIncrementalRefreshTrades_encoded_length)(&md));
}
static uint64_t rf_md_decode(const uint8_t* b, size_t n) {
    char* buf = (char*)(uintptr_t)b;
    struct RF(messageHeader) hdr;
    struct RF(marketDataIncrementalRefreshTrades) md;
    struct RF(marketDataIncrementalRefreshTrades_mdIncGrp) g;
    struct RF(decimal64) px;
    struct RF(intQty32) sz;
    enum RF(matchEventIndicator) mei;
    enum RF(mDUpdateAction) act;
    enum RF(side) side;
    uint64_t s;
    if (!RF(messageHeader_wrap)(&hdr, buf, 0, RF(marketDataIncrementalRefreshTrades_sbe_schema_version)(), n)) return 0;
    if (!RF(marketDataIncrementalRefreshTrades_wrap_for_decode)(&md, buf, RF(messageHeader_encoded_length)(),
                                                                 RF(messageHeader_blockLength)(&hdr), RF(messageHeader_version)(&hdr), n))
        return 0;
    if (!RF(marketDataIncrementalRefreshTrades_matchEventIndicator)(&md, &mei)) return 0;
    s = RF(marketDataIncrementalRefreshTrades_transactTime)(&md) + RF(marketDataIncrementalRefreshTrades_eventTimeDelta)(&md) +
        (uint64_t)mei;
    if (!RF(marketDataIncrementalRefreshTrades_get_mdIncGrp)(&md, &g)) return 0;
    while (RF(marketDataIncrementalRefreshTrades_mdIncGrp_has_next)(&g)) {
        RF(marketDataIncrementalRefreshTrades_mdIncGrp_next)(&g);
        if (!RF(marketDataIncrementalRefreshTrades_mdIncGrp_mdEntryPx)(&g, &px) ||
            !RF(marketDataIncrementalRefreshTrades_mdIncGrp_mdEntrySize)(&g, &sz))
            return 0;
        if (!RF(marketDataIncrementalRefreshTrades_mdIncGrp_mdUpdateAction)(&g, &act) ||
            !RF(marketDataIncrementalRefreshTrades_mdIncGrp_aggressorSide)(&g, &side))
            return 0;
        s += RF(marketDataIncrementalRefreshTrades_mdIncGrp_tradeId)(&g) + RF(marketDataIncrementalRefreshTrades_mdIncGrp_securityId)(&g) +
             (uint64_t)RF(decimal64_mantissa)(&px) + (uint64_t)RF(intQty32_mantissa)(&sz) +
             RF(marketDataIncrementalRefreshTrades_mdIncGrp_numberOfOrders)(&g) + (uint64_t)act +
             RF(marketDataIncrementalRefreshTrades_mdIncGrp_rptSeq)(&g) + (uint64_t)side;
    }
    return s;
}

/* ---------------- hand-written ---------------- */
static inline void put16(uint8_t* p, uint16_t v) { memcpy(p, &v, 2); }
static inline void put32(uint8_t* p, uint32_t v) { memcpy(p, &v, 4); }
static inline void put64(uint8_t* p, uint64_t v) { memcpy(p, &v, 8); }
static inline void putf(uint8_t* p, float v) { memcpy(p, &v, 4); }
static inline uint16_t get16(const uint8_t* p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t get32(const uint8_t* p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t get64(const uint8_t* p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline float getf(const uint8_t* p) { float v; memcpy(&v, p, 4); return v; }
static inline void hdr(uint8_t* b, uint16_t bl, uint16_t tid, uint16_t sid, uint16_t ver) {
    put16(b, bl); put16(b + 2, tid); put16(b + 4, sid); put16(b + 6, ver);
}
static inline uint8_t* dim(uint8_t* p, uint16_t bl, uint16_t n) {
    put16(p, bl); put16(p + 2, n); return p + 4;
}
/* Car: header 8, block 41, fuelFigures dim 4 + 3 x 6, performanceFigures dim 4 + 2 x (1 + dim 4
 * + 3 x 6), manufacturer 4 + 5, model 4 + 9. */
static size_t hw_car_encode(uint8_t* b, size_t cap) {
    static const uint16_t sp[3] = {30, 55, 75};
    static const float mp[3] = {35.9f, 49.0f, 40.0f};
    static const uint8_t oct[2] = {95, 99};
    static const float sec[2][3] = {{4.0f, 7.5f, 12.2f}, {3.8f, 7.1f, 11.8f}};
    static const uint16_t mph[3] = {30, 60, 100};
    uint8_t* p;
    int i, j;
    if (cap < 200) return 0;
    hdr(b, 41, 1, 1, 1);
    p = b + 8;
    put32(p, 1234); put16(p + 4, 2013); p[6] = 1; p[7] = 'A';
    for (i = 0; i < 5; ++i) put32(p + 8 + 4 * i, (uint32_t)i);
    memcpy(p + 28, "abcdef", 6); p[34] = 6;
    put16(p + 35, 2000); p[37] = 4; memcpy(p + 38, "123", 3);
    p += 41;
    p = dim(p, 6, 3);
    for (i = 0; i < 3; ++i) { put16(p, sp[i]); putf(p + 2, mp[i]); p += 6; }
    p = dim(p, 1, 2);
    for (j = 0; j < 2; ++j) {
        *p++ = oct[j];
        p = dim(p, 6, 3);
        for (i = 0; i < 3; ++i) { put16(p, mph[i]); putf(p + 2, sec[j][i]); p += 6; }
    }
    put32(p, 5); memcpy(p + 4, MANUFACTURER, 5); p += 9;
    put32(p, 9); memcpy(p + 4, MODEL, 9); p += 13;
    return (size_t)(p - b);
}
static uint64_t hw_car_decode(const uint8_t* b, size_t n) {
    const uint8_t* p;
    const uint8_t* end = b + n;
    uint16_t bl, ebl, cnt;
    uint64_t s;
    int i, j, k;
    if (n < 8 + 41) return 0;
    bl = get16(b);
    if (bl < 41 || n - 8 < bl) return 0;
    p = b + 8;
    s = get32(p) + get16(p + 4) + p[6] + p[7];
    for (i = 0; i < 5; ++i) s += (uint64_t)(int32_t)get32(p + 8 + 4 * i);
    s += strnlen((const char*)(p + 28), 6) + p[34];
    s += get16(p + 35) + p[37] + 9000 + strnlen((const char*)(p + 38), 3);
    p += bl;
    if (end - p < 4) return 0;
    ebl = get16(p); cnt = get16(p + 2); p += 4;
    if (ebl < 6 || (size_t)(end - p) < (size_t)ebl * cnt) return 0;
    for (i = 0; i < cnt; ++i, p += ebl) s += get16(p) + (uint64_t)getf(p + 2);
    if (end - p < 4) return 0;
    ebl = get16(p); cnt = get16(p + 2); p += 4;
    if (ebl < 1) return 0;
    for (j = 0; j < cnt; ++j) {
        uint16_t abl, an;
        if (end - p < ebl + 4) return 0;
        s += p[0]; p += ebl;
        abl = get16(p); an = get16(p + 2); p += 4;
        if (abl < 6 || (size_t)(end - p) < (size_t)abl * an) return 0;
        for (i = 0; i < an; ++i, p += abl) s += get16(p) + (uint64_t)getf(p + 2);
    }
    for (k = 0; k < 2; ++k) {
        uint32_t len;
        if (end - p < 4) return 0;
        len = get32(p); p += 4;
        if ((size_t)(end - p) < len) return 0;
        s += len; p += len;
    }
    return s;
}
/* MD: header 8, block 11, MdIncGrp dim 4 + 2 x 33. */
static size_t hw_md_encode(uint8_t* b, size_t cap) {
    uint8_t* p;
    int i;
    if (cap < 8 + 11 + 4 + 2 * 33) return 0;
    hdr(b, 11, 2, 1, 1);
    p = b + 8;
    put64(p, 1234); put16(p + 8, 987); p[10] = '2';
    p += 11;
    p = dim(p, 33, 2);
    for (i = 0; i < 2; ++i) {
        put64(p, 1234); put64(p + 8, 56789); put64(p + 16, 50);
        put32(p + 24, 10); put16(p + 28, 1); p[30] = 0; p[31] = 1; p[32] = '1';
        p += 33;
    }
    return (size_t)(p - b);
}
static uint64_t hw_md_decode(const uint8_t* b, size_t n) {
    const uint8_t* p;
    uint16_t bl, ebl, cnt;
    uint64_t s;
    int i;
    if (n < 8 + 11 + 4) return 0;
    bl = get16(b);
    if (bl < 11 || n - 8 - 4 < bl) return 0;
    p = b + 8;
    s = get64(p) + get16(p + 8) + p[10];
    p += bl;
    ebl = get16(p); cnt = get16(p + 2); p += 4;
    if (ebl < 33 || (size_t)(b + n - p) < (size_t)ebl * cnt) return 0;
    for (i = 0; i < cnt; ++i, p += ebl)
        s += get64(p) + get64(p + 8) + get64(p + 16) + (uint64_t)(int32_t)get32(p + 24) + get16(p + 28) + p[30] + p[31] + p[32];
    return s;
}

typedef struct impl {
    const char* name;
    size_t (*car_enc)(uint8_t*, size_t);
    uint64_t (*car_dec)(const uint8_t*, size_t);
    size_t (*md_enc)(uint8_t*, size_t);
    uint64_t (*md_dec)(const uint8_t*, size_t);
} impl;
static const impl IMPLS[] = {
    {"sbekit", sk_car_encode, sk_car_decode, sk_md_encode, sk_md_decode},
    {"reference", rf_car_encode, rf_car_decode, rf_md_encode, rf_md_decode},
    {"hand", hw_car_encode, hw_car_decode, hw_md_encode, hw_md_decode},
    /* sbekit with the entries written by loops (decode is the same as "sbekit"). */
    {"sbekit-loop", sk_car_encode_loop, sk_car_decode, sk_md_encode_loop, sk_md_decode},
    /* The groups of fixed-size entries written entry by entry (`_next`, no count up front). */
    {"sbekit-next", sk_car_encode_next, sk_car_decode, sk_md_encode_next, sk_md_decode},
    {"sbekit-next-loop", sk_car_encode_next_loop, sk_car_decode, sk_md_encode_next_loop, sk_md_decode},
};
#define N_IMPLS (sizeof IMPLS / sizeof IMPLS[0])

static void run(const impl* im, const char* op, long n, size_t len) {
    long i;
    if (strcmp(op, "car-encode") == 0) for (i = 0; i < n; ++i) { size_t r = im->car_enc(BUF, sizeof BUF); KEEP(r); }
    else if (strcmp(op, "md-encode") == 0) for (i = 0; i < n; ++i) { size_t r = im->md_enc(BUF, sizeof BUF); KEEP(r); }
    else if (strcmp(op, "car-decode") == 0) for (i = 0; i < n; ++i) { uint64_t r; KEEP(BUF); r = im->car_dec(BUF, len); KEEP(r); }
    else if (strcmp(op, "md-decode") == 0) for (i = 0; i < n; ++i) { uint64_t r; KEEP(BUF); r = im->md_dec(BUF, len); KEEP(r); }
}

static size_t prepare(const impl* im, const char* op) {
    return strncmp(op, "car", 3) == 0 ? im->car_enc(BUF, sizeof BUF) : im->md_enc(BUF, sizeof BUF);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
    /* The three encoders write the same bytes, and the decoders read the same values. */
    static uint8_t out[N_IMPLS][2048];
    size_t lens[N_IMPLS];
    uint64_t sums[N_IMPLS][2];
    size_t k;
    static const char* ops[] = {"car-encode", "car-decode", "md-encode", "md-decode"};
    const long n = 1000000;
    for (k = 0; k < N_IMPLS; ++k) {
        size_t a = IMPLS[k].car_enc(BUF, sizeof BUF), c;
        memcpy(out[k], BUF, a);
        sums[k][0] = IMPLS[k].car_dec(BUF, a);
        c = IMPLS[k].md_enc(BUF, sizeof BUF);
        memcpy(out[k] + a, BUF, c);
        sums[k][1] = IMPLS[k].md_dec(BUF, c);
        lens[k] = a + c;
    }
    for (k = 1; k < N_IMPLS; ++k) {
        const int same = lens[k] == lens[0] && memcmp(out[k], out[0], lens[0]) == 0;
        if (!same || sums[k][0] != sums[0][0] || sums[k][1] != sums[0][1] || lens[0] == 0 || sums[0][0] == 0) {
            fprintf(stderr, "%s disagrees with sbekit (bytes %s, sums %llu/%llu vs %llu/%llu)\n", IMPLS[k].name,
                    same ? "equal" : "differ", (unsigned long long)sums[k][0], (unsigned long long)sums[k][1],
                    (unsigned long long)sums[0][0], (unsigned long long)sums[0][1]);
            return 1;
        }
    }
    if (argc == 4) {
        for (k = 0; k < N_IMPLS; ++k) {
            if (strcmp(IMPLS[k].name, argv[1]) == 0) {
                const size_t len = prepare(&IMPLS[k], argv[2]);
                run(&IMPLS[k], argv[2], atol(argv[3]), len);
                return 0;
            }
        }
        return 2;
    }
    printf("%-16s %-12s %10s\n", "impl", "op", "ns/msg");
    for (size_t o = 0; o < 4; ++o) {
        for (k = 0; k < N_IMPLS; ++k) {
            const size_t len = prepare(&IMPLS[k], ops[o]);
            double t[15];
            int r;
            run(&IMPLS[k], ops[o], n / 10, len); /* warm up */
            for (r = 0; r < 15; ++r) {
                const double a = now_ns();
                run(&IMPLS[k], ops[o], n, len);
                t[r] = (now_ns() - a) / (double)n;
            }
            qsort(t, 15, sizeof t[0], cmp_double);
            printf("%-16s %-12s %10.2f\n", IMPLS[k].name, ops[o], t[7]);
        }
    }
    return 0;
}
