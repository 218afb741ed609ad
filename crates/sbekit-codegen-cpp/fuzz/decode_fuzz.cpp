// libFuzzer target on generated C++ decoders (run by hand: ./run.sh; figures in
// docs/BENCHMARKS.md). Two packages: `orders` (crates/sbekit-codegen-tests/schemas/orders-be.xml:
// big-endian, versioned, nested groups, var data in groups) and `car` (the reference's
// example-schema.xml, when ../shared is present; otherwise market-data.xml).
//
// For any input: decode_any either refuses it or accepts it; an accepted message is printed as
// JSON and re-encoded, and what the encoders write must decode again (a trap otherwise).
// ASan and UBSan report any out-of-bounds read or undefined behaviour.
#include <cstdint>
#include <string>
#include <vector>

#include "car/car.hpp"
#include "orders/orders.hpp"

template <class Any, class Decode, class Json, class Reencode>
static void one(const std::uint8_t* data, std::size_t size, Decode decode, Json json, Reencode reencode) {
    const auto r = decode(data, size);
    if (!r) return;
    std::string text;
    json(r.value(), text);
    std::vector<std::uint8_t> buf(size + 4096);
    const auto w = reencode(r.value(), buf.data(), buf.size());
    if (!w) return;
    const auto again = decode(buf.data(), w.value());
    if (!again) __builtin_trap();
    std::string text2;
    json(again.value(), text2);
    if (text != text2) __builtin_trap();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    one<orders::AnyMessage>(
        data, size, [](const std::uint8_t* b, std::size_t n) { return orders::decode_any(b, n); },
        [](const orders::AnyMessage& m, std::string& s) { orders::to_json(m, s); },
        [](const orders::AnyMessage& m, std::uint8_t* b, std::size_t n) { return orders::reencode(m, b, n); });
    one<car::AnyMessage>(
        data, size, [](const std::uint8_t* b, std::size_t n) { return car::decode_any(b, n); },
        [](const car::AnyMessage& m, std::string& s) { car::to_json(m, s); },
        [](const car::AnyMessage& m, std::uint8_t* b, std::size_t n) { return car::reencode(m, b, n); });
    return 0;
}
