// Car and MD (MarketDataIncrementalRefreshTrades) encode and decode, three implementations in
// one process: sbekit's generated C++ (bounds checked once up front), the reference's generated
// C++ (sbe-all 1.38.1, generated at bench time by run.sh, never committed; it checks bounds per
// access), and hand-written C++ (memcpy at known offsets, one length check per section).
//
//   bench                      wall-clock medians of 15 runs (ns per message) for all 12
//   bench <impl> <op> <n>      n iterations of one (impl: sbekit|reference|hand|sbekit-each; op:
//                              car-encode|car-decode|md-encode|md-decode), for valgrind
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "car_sbekit/car_sbekit.hpp"
#include "md_sbekit/md_sbekit.hpp"
#include "uk_co_real_logic_sbe_benchmarks/Car.h"
#include "uk_co_real_logic_sbe_benchmarks/MessageHeader.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/MarketDataIncrementalRefreshTrades.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/MessageHeader.h"

namespace ref = uk::co::real_logic::sbe::benchmarks;
namespace reffix = uk::co::real_logic::sbe::benchmarks::fix;

template <class T>
static inline void keep(T const& v) {
    asm volatile("" : : "g"(&v) : "memory");
}

static std::uint8_t BUF[1024];
static const char MANUFACTURER[] = "Honda";
static const char MODEL[] = "Civic VTi";

// ---------------- sbekit ----------------
namespace sk {
static std::size_t car_encode(std::uint8_t* b, std::size_t cap) {
    car_sbekit::CarEncoder car(b, cap);
    car.serialNumber(1234)
        .modelYear(2013)
        .available(car_sbekit::BooleanType::T)
        .code(car_sbekit::Model::A)
        .someNumbers({0, 1, 2, 3, 4})
        .vehicleCode("abcdef")
        .extras(car_sbekit::OptionalExtras().cruiseControl(true).sportsPack(true).sunRoof(false));
    car.engine().capacity(2000).numCylinders(4).manufacturerCode("123");
    car.fuelFigures([](car_sbekit::CarFuelFiguresWriter& g) {
        g.entry([](car_sbekit::CarFuelFiguresEncoder& e) { e.speed(30).mpg(35.9f); });
        g.entry([](car_sbekit::CarFuelFiguresEncoder& e) { e.speed(55).mpg(49.0f); });
        g.entry([](car_sbekit::CarFuelFiguresEncoder& e) { e.speed(75).mpg(40.0f); });
    });
    car.performanceFigures([](car_sbekit::CarPerformanceFiguresWriter& g) {
        g.entry([](car_sbekit::CarPerformanceFiguresEncoder& p) {
            p.octaneRating(95).acceleration([](car_sbekit::CarPerformanceFiguresAccelerationWriter& a) {
                a.entry([](car_sbekit::CarPerformanceFiguresAccelerationEncoder& x) { x.mph(30).seconds(4.0f); });
                a.entry([](car_sbekit::CarPerformanceFiguresAccelerationEncoder& x) { x.mph(60).seconds(7.5f); });
                a.entry([](car_sbekit::CarPerformanceFiguresAccelerationEncoder& x) { x.mph(100).seconds(12.2f); });
            });
        });
        g.entry([](car_sbekit::CarPerformanceFiguresEncoder& p) {
            p.octaneRating(99).acceleration([](car_sbekit::CarPerformanceFiguresAccelerationWriter& a) {
                a.entry([](car_sbekit::CarPerformanceFiguresAccelerationEncoder& x) { x.mph(30).seconds(3.8f); });
                a.entry([](car_sbekit::CarPerformanceFiguresAccelerationEncoder& x) { x.mph(60).seconds(7.1f); });
                a.entry([](car_sbekit::CarPerformanceFiguresAccelerationEncoder& x) { x.mph(100).seconds(11.8f); });
            });
        });
    });
    car.manufacturer(MANUFACTURER).model(MODEL);
    auto r = car.finish();
    return r ? r.value() : 0;
}
static std::uint64_t car_decode(const std::uint8_t* b, std::size_t n) {
    auto r = car_sbekit::CarDecoder::decode(b, n);
    if (!r) return 0;
    const auto& car = r.value();
    std::uint64_t s = car.serialNumber() + car.modelYear() + static_cast<std::uint64_t>(car.available()) +
                      static_cast<std::uint64_t>(car.code());
    for (auto x : car.someNumbers()) s += static_cast<std::uint64_t>(x);
    s += car.vehicleCode().size() + car.extras().raw();
    auto e = car.engine();
    s += e.capacity() + e.numCylinders() + e.maxRpm() + e.manufacturerCode().size();
    for (auto f : car.fuelFigures()) s += f.speed() + static_cast<std::uint64_t>(f.mpg());
    for (auto p : car.performanceFigures()) {
        s += p.octaneRating();
        for (auto a : p.acceleration()) s += a.mph() + static_cast<std::uint64_t>(a.seconds());
    }
    s += car.manufacturer().size() + car.model().size();
    return s;
}
// The entries' fields, written out at each use (a shared function is not inlined twice).
#define SK_MD_ENTRY(e)                                                                                            \
    e.tradeId(1234).securityId(56789);                                                                           \
    e.mdEntryPx().mantissa(50);                                                                                   \
    e.mdEntrySize().mantissa(10);                                                                                 \
    e.numberOfOrders(1).mdUpdateAction(md_sbekit::MdUpdateAction::NEW).rptSeq(1).aggressorSide(md_sbekit::Side::BUY)
// The count up front (as the reference's mdIncGrpCount(2)): one capacity check for the group.
static std::size_t md_encode(std::uint8_t* b, std::size_t cap) {
    md_sbekit::MarketDataIncrementalRefreshTradesEncoder md(b, cap);
    md.transactTime(1234).eventTimeDelta(987).matchEventIndicator(md_sbekit::MatchEventIndicator::END_EVENT);
    md.mdIncGrp(2, [](md_sbekit::MarketDataIncrementalRefreshTradesMdIncGrpEncoder& e, std::size_t) { SK_MD_ENTRY(e); });
    auto r = md.finish();
    return r ? r.value() : 0;
}
// One entry at a time (the count is not known up front): a capacity check per entry.
static std::size_t md_encode_each(std::uint8_t* b, std::size_t cap) {
    md_sbekit::MarketDataIncrementalRefreshTradesEncoder md(b, cap);
    md.transactTime(1234).eventTimeDelta(987).matchEventIndicator(md_sbekit::MatchEventIndicator::END_EVENT);
    md.mdIncGrp([](md_sbekit::MarketDataIncrementalRefreshTradesMdIncGrpWriter& g) {
        for (int i = 0; i < 2; ++i) {
            g.entry([](md_sbekit::MarketDataIncrementalRefreshTradesMdIncGrpEncoder& e) { SK_MD_ENTRY(e); });
        }
    });
    auto r = md.finish();
    return r ? r.value() : 0;
}
static std::uint64_t md_decode(const std::uint8_t* b, std::size_t n) {
    auto r = md_sbekit::MarketDataIncrementalRefreshTradesDecoder::decode(b, n);
    if (!r) return 0;
    const auto& md = r.value();
    std::uint64_t s = md.transactTime() + md.eventTimeDelta() + static_cast<std::uint64_t>(md.matchEventIndicator());
    for (auto e : md.mdIncGrp()) {
        s += e.tradeId() + e.securityId() + static_cast<std::uint64_t>(e.mdEntryPx().mantissa()) +
             static_cast<std::uint64_t>(e.mdEntrySize().mantissa()) + e.numberOfOrders() +
             static_cast<std::uint64_t>(e.mdUpdateAction()) + e.rptSeq() + static_cast<std::uint64_t>(e.aggressorSide());
    }
    return s;
}
}  // namespace sk

// ---------------- the reference's generated C++ ----------------
namespace rf {
static std::size_t car_encode(std::uint8_t* b, std::size_t cap) {
    char* buf = reinterpret_cast<char*>(b);
    ref::MessageHeader hdr;
    hdr.wrap(buf, 0, 0, cap)
        .blockLength(ref::Car::sbeBlockLength())
        .templateId(ref::Car::sbeTemplateId())
        .schemaId(ref::Car::sbeSchemaId())
        .version(ref::Car::sbeSchemaVersion());
    ref::Car car;
    car.wrapForEncode(buf, ref::MessageHeader::encodedLength(), cap)
        .serialNumber(1234)
        .modelYear(2013)
        .available(ref::BooleanType::T)
        .code(ref::Model::A)
        .putVehicleCode("abcdef");
    for (std::uint64_t i = 0; i < 5; ++i) car.someNumbers(i, static_cast<std::int32_t>(i));
    car.extras().clear().cruiseControl(true).sportsPack(true).sunRoof(false);
    car.engine().capacity(2000).numCylinders(4).putManufacturerCode("123");
    ref::Car::FuelFigures& ff = car.fuelFiguresCount(3);
    ff.next().speed(30).mpg(35.9f);
    ff.next().speed(55).mpg(49.0f);
    ff.next().speed(75).mpg(40.0f);
    ref::Car::PerformanceFigures& pf = car.performanceFiguresCount(2);
    pf.next().octaneRating(95).accelerationCount(3).next().mph(30).seconds(4.0f).next().mph(60).seconds(7.5f).next().mph(100).seconds(12.2f);
    pf.next().octaneRating(99).accelerationCount(3).next().mph(30).seconds(3.8f).next().mph(60).seconds(7.1f).next().mph(100).seconds(11.8f);
    car.putManufacturer(MANUFACTURER, 5).putModel(MODEL, 9);
    return ref::MessageHeader::encodedLength() + car.encodedLength();
}
static std::uint64_t car_decode(const std::uint8_t* b, std::size_t n) {
    char* buf = const_cast<char*>(reinterpret_cast<const char*>(b));
    ref::MessageHeader hdr;
    hdr.wrap(buf, 0, 0, n);
    ref::Car car;
    car.wrapForDecode(buf, ref::MessageHeader::encodedLength(), hdr.blockLength(), hdr.version(), n);
    std::uint64_t s = car.serialNumber() + car.modelYear() + static_cast<std::uint64_t>(car.available()) +
                      static_cast<std::uint64_t>(car.code());
    for (std::uint64_t i = 0; i < 5; ++i) s += static_cast<std::uint64_t>(car.someNumbers(i));
    s += car.getVehicleCodeAsStringView().size() + car.extras().rawValue();
    ref::Engine& e = car.engine();
    s += e.capacity() + e.numCylinders() + e.maxRpm() + e.getManufacturerCodeAsStringView().size();
    ref::Car::FuelFigures& ff = car.fuelFigures();
    while (ff.hasNext()) {
        ff.next();
        s += ff.speed() + static_cast<std::uint64_t>(ff.mpg());
    }
    ref::Car::PerformanceFigures& pf = car.performanceFigures();
    while (pf.hasNext()) {
        pf.next();
        s += pf.octaneRating();
        ref::Car::PerformanceFigures::Acceleration& a = pf.acceleration();
        while (a.hasNext()) {
            a.next();
            s += a.mph() + static_cast<std::uint64_t>(a.seconds());
        }
    }
    s += car.getManufacturerAsStringView().size();
    s += car.getModelAsStringView().size();
    return s;
}
static std::size_t md_encode(std::uint8_t* b, std::size_t cap) {
    char* buf = reinterpret_cast<char*>(b);
    reffix::MessageHeader hdr;
    hdr.wrap(buf, 0, 0, cap)
        .blockLength(reffix::MarketDataIncrementalRefreshTrades::sbeBlockLength())
        .templateId(reffix::MarketDataIncrementalRefreshTrades::sbeTemplateId())
        .schemaId(reffix::MarketDataIncrementalRefreshTrades::sbeSchemaId())
        .version(reffix::MarketDataIncrementalRefreshTrades::sbeSchemaVersion());
    reffix::MarketDataIncrementalRefreshTrades md;
    md.wrapForEncode(buf, reffix::MessageHeader::encodedLength(), cap)
        .transactTime(1234)
        .eventTimeDelta(987)
        .matchEventIndicator(reffix::MatchEventIndicator::END_EVENT);
    auto& g = md.mdIncGrpCount(2);
    for (int i = 0; i < 2; ++i) {
        g.next().tradeId(1234).securityId(56789);
        g.mdEntryPx().mantissa(50);
        g.mdEntrySize().mantissa(10);
        g.numberOfOrders(1).mdUpdateAction(reffix::MDUpdateAction::NEW).rptSeq(1).aggressorSide(reffix::Side::BUY);
    }
    return reffix::MessageHeader::encodedLength() + md.encodedLength();
}
static std::uint64_t md_decode(const std::uint8_t* b, std::size_t n) {
    char* buf = const_cast<char*>(reinterpret_cast<const char*>(b));
    reffix::MessageHeader hdr;
    hdr.wrap(buf, 0, 0, n);
    reffix::MarketDataIncrementalRefreshTrades md;
    md.wrapForDecode(buf, reffix::MessageHeader::encodedLength(), hdr.blockLength(), hdr.version(), n);
    std::uint64_t s = md.transactTime() + md.eventTimeDelta() + static_cast<std::uint64_t>(md.matchEventIndicator());
    auto& g = md.mdIncGrp();
    while (g.hasNext()) {
        g.next();
        s += g.tradeId() + g.securityId() + static_cast<std::uint64_t>(g.mdEntryPx().mantissa()) +
             static_cast<std::uint64_t>(g.mdEntrySize().mantissa()) + g.numberOfOrders() +
             static_cast<std::uint64_t>(g.mdUpdateAction()) + g.rptSeq() + static_cast<std::uint64_t>(g.aggressorSide());
    }
    return s;
}
}  // namespace rf

// ---------------- hand-written ----------------
namespace hw {
template <class T>
static inline void put(std::uint8_t* p, T v) { std::memcpy(p, &v, sizeof v); }
template <class T>
static inline T get(const std::uint8_t* p) { T v; std::memcpy(&v, p, sizeof v); return v; }
static inline void hdr(std::uint8_t* b, std::uint16_t bl, std::uint16_t tid, std::uint16_t sid, std::uint16_t ver) {
    put(b, bl); put(b + 2, tid); put(b + 4, sid); put(b + 6, ver);
}
// Car: header 8, block 41, fuelFigures dim 4 + 3 x 6, performanceFigures dim 4 + 2 x (1 + dim 4
// + 3 x 6), manufacturer 4 + 5, model 4 + 9.
static inline std::uint8_t* dim(std::uint8_t* p, std::uint16_t bl, std::uint16_t n) {
    put(p, bl); put(p + 2, n); return p + 4;
}
static std::size_t car_encode(std::uint8_t* b, std::size_t cap) {
    if (cap < 200) return 0;
    hdr(b, 41, 1, 1, 1);
    std::uint8_t* p = b + 8;
    put<std::uint32_t>(p, 1234); put<std::uint16_t>(p + 4, 2013); p[6] = 1; p[7] = 'A';
    for (std::int32_t i = 0; i < 5; ++i) put<std::int32_t>(p + 8 + 4 * i, i);
    std::memcpy(p + 28, "abcdef", 6); p[34] = 6;
    put<std::uint16_t>(p + 35, 2000); p[37] = 4; std::memcpy(p + 38, "123", 3);
    p += 41;
    p = dim(p, 6, 3);
    const std::uint16_t sp[3] = {30, 55, 75}; const float mp[3] = {35.9f, 49.0f, 40.0f};
    for (int i = 0; i < 3; ++i) { put(p, sp[i]); put(p + 2, mp[i]); p += 6; }
    p = dim(p, 1, 2);
    const std::uint8_t oct[2] = {95, 99};
    const float sec[2][3] = {{4.0f, 7.5f, 12.2f}, {3.8f, 7.1f, 11.8f}};
    const std::uint16_t mph[3] = {30, 60, 100};
    for (int j = 0; j < 2; ++j) {
        *p++ = oct[j];
        p = dim(p, 6, 3);
        for (int i = 0; i < 3; ++i) { put(p, mph[i]); put(p + 2, sec[j][i]); p += 6; }
    }
    put<std::uint32_t>(p, 5); std::memcpy(p + 4, MANUFACTURER, 5); p += 9;
    put<std::uint32_t>(p, 9); std::memcpy(p + 4, MODEL, 9); p += 13;
    return static_cast<std::size_t>(p - b);
}
static std::uint64_t car_decode(const std::uint8_t* b, std::size_t n) {
    if (n < 8 + 41) return 0;
    const std::uint16_t bl = get<std::uint16_t>(b);
    if (bl < 41 || n - 8 < bl) return 0;
    const std::uint8_t* p = b + 8;
    const std::uint8_t* end = b + n;
    std::uint64_t s = get<std::uint32_t>(p) + get<std::uint16_t>(p + 4) + p[6] + p[7];
    for (int i = 0; i < 5; ++i) s += static_cast<std::uint64_t>(get<std::int32_t>(p + 8 + 4 * i));
    s += strnlen(reinterpret_cast<const char*>(p + 28), 6) + p[34];
    s += get<std::uint16_t>(p + 35) + p[37] + 9000 + strnlen(reinterpret_cast<const char*>(p + 38), 3);
    p += bl;
    if (end - p < 4) return 0;
    std::uint16_t ebl = get<std::uint16_t>(p); std::uint16_t cnt = get<std::uint16_t>(p + 2); p += 4;
    if (ebl < 6 || static_cast<std::size_t>(end - p) < std::size_t{ebl} * cnt) return 0;
    for (int i = 0; i < cnt; ++i, p += ebl) s += get<std::uint16_t>(p) + static_cast<std::uint64_t>(get<float>(p + 2));
    if (end - p < 4) return 0;
    ebl = get<std::uint16_t>(p); cnt = get<std::uint16_t>(p + 2); p += 4;
    if (ebl < 1) return 0;
    for (int j = 0; j < cnt; ++j) {
        if (end - p < ebl + 4) return 0;
        s += p[0]; p += ebl;
        const std::uint16_t abl = get<std::uint16_t>(p); const std::uint16_t an = get<std::uint16_t>(p + 2); p += 4;
        if (abl < 6 || static_cast<std::size_t>(end - p) < std::size_t{abl} * an) return 0;
        for (int i = 0; i < an; ++i, p += abl) s += get<std::uint16_t>(p) + static_cast<std::uint64_t>(get<float>(p + 2));
    }
    for (int k = 0; k < 2; ++k) {
        if (end - p < 4) return 0;
        const std::uint32_t len = get<std::uint32_t>(p); p += 4;
        if (static_cast<std::size_t>(end - p) < len) return 0;
        s += len; p += len;
    }
    return s;
}
// MD: header 8, block 11, MdIncGrp dim 4 + 2 x 33.
static std::size_t md_encode(std::uint8_t* b, std::size_t cap) {
    if (cap < 8 + 11 + 4 + 2 * 33) return 0;
    hdr(b, 11, 2, 1, 1);
    std::uint8_t* p = b + 8;
    put<std::uint64_t>(p, 1234); put<std::uint16_t>(p + 8, 987); p[10] = '2';
    p += 11;
    p = dim(p, 33, 2);
    for (int i = 0; i < 2; ++i) {
        put<std::uint64_t>(p, 1234); put<std::uint64_t>(p + 8, 56789); put<std::int64_t>(p + 16, 50);
        put<std::int32_t>(p + 24, 10); put<std::uint16_t>(p + 28, 1); p[30] = 0; p[31] = 1; p[32] = '1';
        p += 33;
    }
    return static_cast<std::size_t>(p - b);
}
static std::uint64_t md_decode(const std::uint8_t* b, std::size_t n) {
    if (n < 8 + 11 + 4) return 0;
    const std::uint16_t bl = get<std::uint16_t>(b);
    if (bl < 11 || n - 8 - 4 < bl) return 0;
    const std::uint8_t* p = b + 8;
    std::uint64_t s = get<std::uint64_t>(p) + get<std::uint16_t>(p + 8) + p[10];
    p += bl;
    const std::uint16_t ebl = get<std::uint16_t>(p); const std::uint16_t cnt = get<std::uint16_t>(p + 2); p += 4;
    if (ebl < 33 || static_cast<std::size_t>(b + n - p) < std::size_t{ebl} * cnt) return 0;
    for (int i = 0; i < cnt; ++i, p += ebl) {
        s += get<std::uint64_t>(p) + get<std::uint64_t>(p + 8) + static_cast<std::uint64_t>(get<std::int64_t>(p + 16)) +
             static_cast<std::uint64_t>(get<std::int32_t>(p + 24)) + get<std::uint16_t>(p + 28) + p[30] + p[31] + p[32];
    }
    return s;
}
}  // namespace hw

struct Impl {
    const char* name;
    std::size_t (*car_enc)(std::uint8_t*, std::size_t);
    std::uint64_t (*car_dec)(const std::uint8_t*, std::size_t);
    std::size_t (*md_enc)(std::uint8_t*, std::size_t);
    std::uint64_t (*md_dec)(const std::uint8_t*, std::size_t);
};
static const Impl IMPLS[] = {
    {"sbekit", sk::car_encode, sk::car_decode, sk::md_encode, sk::md_decode},
    {"reference", rf::car_encode, rf::car_decode, rf::md_encode, rf::md_decode},
    {"hand", hw::car_encode, hw::car_decode, hw::md_encode, hw::md_decode},
    // sbekit with MD's entries added one at a time (Car is the same as "sbekit").
    {"sbekit-each", sk::car_encode, sk::car_decode, sk::md_encode_each, sk::md_decode},
};
static const int N_IMPLS = sizeof IMPLS / sizeof IMPLS[0];

static void run(const Impl& im, const std::string& op, long n, std::size_t len) {
    if (op == "car-encode") for (long i = 0; i < n; ++i) { auto r = im.car_enc(BUF, sizeof BUF); keep(r); }
    else if (op == "md-encode") for (long i = 0; i < n; ++i) { auto r = im.md_enc(BUF, sizeof BUF); keep(r); }
    else if (op == "car-decode") for (long i = 0; i < n; ++i) { keep(BUF); auto r = im.car_dec(BUF, len); keep(r); }
    else if (op == "md-decode") for (long i = 0; i < n; ++i) { keep(BUF); auto r = im.md_dec(BUF, len); keep(r); }
}

static std::size_t prepare(const Impl& im, const std::string& op) {
    return op.rfind("car", 0) == 0 ? im.car_enc(BUF, sizeof BUF) : im.md_enc(BUF, sizeof BUF);
}

int main(int argc, char** argv) {
    // The three encoders write the same bytes, and the decoders read the same values.
    std::vector<std::uint8_t> out[N_IMPLS];
    std::uint64_t sums[N_IMPLS][2];
    for (int k = 0; k < N_IMPLS; ++k) {
        std::size_t n = IMPLS[k].car_enc(BUF, sizeof BUF);
        out[k].assign(BUF, BUF + n);
        sums[k][0] = IMPLS[k].car_dec(BUF, n);
        n = IMPLS[k].md_enc(BUF, sizeof BUF);
        out[k].insert(out[k].end(), BUF, BUF + n);
        sums[k][1] = IMPLS[k].md_dec(BUF, n);
    }
    for (int k = 1; k < N_IMPLS; ++k) {
        if (out[k] != out[0] || sums[k][0] != sums[0][0] || sums[k][1] != sums[0][1]) {
            std::fprintf(stderr, "%s disagrees with sbekit (bytes %s, sums %llu/%llu vs %llu/%llu)\n", IMPLS[k].name,
                         out[k] == out[0] ? "equal" : "differ", (unsigned long long)sums[k][0],
                         (unsigned long long)sums[k][1], (unsigned long long)sums[0][0], (unsigned long long)sums[0][1]);
            return 1;
        }
    }
    if (argc == 4) {
        for (const auto& im : IMPLS) {
            if (im.name == std::string(argv[1])) {
                const std::size_t len = prepare(im, argv[2]);
                run(im, argv[2], std::atol(argv[3]), len);
                return 0;
            }
        }
        return 2;
    }
    const char* ops[] = {"car-encode", "car-decode", "md-encode", "md-decode"};
    const long n = 1000000;
    std::printf("%-10s %-12s %10s\n", "impl", "op", "ns/msg");
    for (const char* op : ops) {
        for (const auto& im : IMPLS) {
            const std::size_t len = prepare(im, op);
            run(im, op, n / 10, len);  // warm up
            std::vector<double> t;
            for (int r = 0; r < 15; ++r) {
                const auto a = std::chrono::steady_clock::now();
                run(im, op, n, len);
                const auto b = std::chrono::steady_clock::now();
                t.push_back(std::chrono::duration<double, std::nano>(b - a).count() / static_cast<double>(n));
            }
            std::sort(t.begin(), t.end());
            std::printf("%-10s %-12s %10.2f\n", im.name, op, t[t.size() / 2]);
        }
    }
    return 0;
}
