// Encodes an Order with the codecs sbekit_generate made, decodes it back, prints its JSON, and
// checks that a truncated copy is refused. Exit status 0 when all holds.
#include <cstdio>
#include <string>

#include "orders/orders.hpp"

int main() {
    std::uint8_t buf[512];
    orders::OrderEncoder e(buf, sizeof buf);
    e.orderId(1234).symbol("ACME").side(orders::Side::BUY).qty(100u).venue(std::nullopt);
    e.price().mantissa(1234500);
    e.fills([](orders::OrderFillsWriter& g) {
        g.entry([](orders::OrderFillsEncoder& f) { f.fillQty(60).fillNote("first"); });
        g.entry([](orders::OrderFillsEncoder& f) { f.fillQty(40); });  // skipped sections: empty
    });
    e.note("hello");  // the marks group before it is written empty
    const auto len = e.finish();
    if (!len) {
        std::fprintf(stderr, "encode: %s\n", sbekit::rt::kind_name(len.error().kind));
        return 1;
    }
    const auto d = orders::OrderDecoder::decode(buf, *len);
    if (!d) {
        std::fprintf(stderr, "decode: %s at byte %zu (%s)\n", sbekit::rt::kind_name(d.error().kind),
                     d.error().offset, d.error().path);
        return 1;
    }
    std::size_t fills = 0;
    std::uint64_t qty = 0;
    for (const auto f : d->fills()) {
        ++fills;
        qty += f.fillQty();
    }
    std::string json;
    orders::to_json(d.value(), json);
    std::printf("%s\n", json.c_str());
    const auto cut = orders::OrderDecoder::decode(buf, *len - 1);
    const bool ok = d->orderId() == 1234 && d->symbol() == "ACME" && fills == 2 && qty == 100 &&
                    d->note() == "hello" && d->qty() == 100u && !d->venue() && !cut &&
                    cut.error().kind == sbekit::rt::ErrorKind::Truncated;
    std::printf("%s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
