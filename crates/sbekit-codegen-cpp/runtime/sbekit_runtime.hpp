// sbekit C++ runtime: errors as values, byte-order-aware loads and stores through std::memcpy,
// and the JSON text helpers generated printers use. Header-only, C++17, standard library only;
// no exceptions, no RTTI, no heap. Every package sbekit generates carries an identical copy,
// so the include guard lets several packages share one translation unit.
#ifndef SBEKIT_RUNTIME_V1_HPP
#define SBEKIT_RUNTIME_V1_HPP

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

/// How many entries of empty-block groups (entries that take no bytes) one message may declare
/// in all its groups together; `decode` refuses more (`emptyEntryBudget`), so work stays bounded
/// by the input. The default is `sbekit decode`'s; define it before including to change it.
#ifndef SBEKIT_MAX_EMPTY_ENTRIES
#define SBEKIT_MAX_EMPTY_ENTRIES 1048576u
#endif

/// Forces inlining where the compiler supports it: a message's `decode`, inlined into its
/// caller, leaves the decoder it returns in registers instead of memory.
#ifndef SBEKIT_ALWAYS_INLINE
#if defined(__GNUC__) || defined(__clang__)
#define SBEKIT_ALWAYS_INLINE __attribute__((always_inline))
#else
#define SBEKIT_ALWAYS_INLINE
#endif
#endif

namespace sbekit {
namespace rt {

/// What went wrong while decoding or encoding.
enum class ErrorKind : std::uint8_t {
    /// No error.
    Ok = 0,
    /// The buffer ends before the structure does.
    Truncated,
    /// The header's schema id is not the schema's.
    WrongSchemaId,
    /// The header's template id is not the message's (or no message has it).
    WrongTemplateId,
    /// A block length is shorter than the acting version's fields need.
    BlockLengthTooShort,
    /// A count or length is larger than its slot allows.
    InvalidDimension,
    /// More entries of empty-block groups than the decoder's budget allows.
    EmptyEntryBudget,
    /// The encoder's buffer is too small.
    BufferTooSmall,
    /// A group has more entries than its count slot allows.
    CountTooLarge,
    /// Var data longer than its length slot allows, or text longer than its array.
    ValueTooLong,
    /// A group or var-data section written after a later one.
    OutOfOrder,
    /// An owned value's number outside its field's `minValue`..`maxValue` (`validate()`).
    ValueOutOfRange,
    /// An owned value's enum value the schema does not list (`validate()`).
    UnknownEnumValue,
    /// An owned value's field newer than version 0, which its acting version has, left empty
    /// (`validate()`): it would be written as zeros.
    MissingValue,
};

/// The name of an error kind (`truncated`, `wrongSchemaId`, ...).
inline constexpr const char* kind_name(ErrorKind k) noexcept {
    switch (k) {
        case ErrorKind::Ok: return "ok";
        case ErrorKind::Truncated: return "truncated";
        case ErrorKind::WrongSchemaId: return "wrongSchemaId";
        case ErrorKind::WrongTemplateId: return "wrongTemplateId";
        case ErrorKind::BlockLengthTooShort: return "blockLengthTooShort";
        case ErrorKind::InvalidDimension: return "invalidDimension";
        case ErrorKind::EmptyEntryBudget: return "emptyEntryBudget";
        case ErrorKind::BufferTooSmall: return "bufferTooSmall";
        case ErrorKind::CountTooLarge: return "countTooLarge";
        case ErrorKind::ValueTooLong: return "valueTooLong";
        case ErrorKind::OutOfOrder: return "outOfOrder";
        case ErrorKind::ValueOutOfRange: return "valueOutOfRange";
        case ErrorKind::UnknownEnumValue: return "unknownEnumValue";
        case ErrorKind::MissingValue: return "missingValue";
    }
    return "unknown";
}

/// An error: its kind, the byte offset it was found at (from the start of the message) and the
/// schema path of the element (`Car.fuelFigures`, a string literal).
struct Error {
    /// What went wrong.
    ErrorKind kind = ErrorKind::Ok;
    /// Byte offset from the start of the message.
    std::size_t offset = 0;
    /// Element path.
    const char* path = "";
};

/// A value or an error (no exceptions): test with `ok()` or `if (r)`.
template <class T>
class Result {
public:
    /// A success.
    Result(T v) noexcept : value_(std::move(v)) {}  // NOLINT: implicit by design
    /// A failure.
    Result(Error e) noexcept : error_(e) {}  // NOLINT: implicit by design
    /// True on success.
    bool ok() const noexcept { return error_.kind == ErrorKind::Ok; }
    /// True on success.
    explicit operator bool() const noexcept { return ok(); }
    /// The value (meaningful only on success).
    const T& value() const noexcept { return value_; }
    /// The value (meaningful only on success).
    T& value() noexcept { return value_; }
    /// The value (meaningful only on success).
    const T* operator->() const noexcept { return &value_; }
    /// The value (meaningful only on success).
    T* operator->() noexcept { return &value_; }
    /// The value (meaningful only on success).
    const T& operator*() const noexcept { return value_; }
    /// The error (kind `Ok` on success).
    const Error& error() const noexcept { return error_; }

private:
    T value_{};
    Error error_{};
};

/// What an owned value's `encodeInto` checks before it writes anything.
enum class Checks : std::uint8_t {
    /// Everything `validate()` checks: numbers within their fields' `minValue`..`maxValue`,
    /// enum values the schema lists, text that fits its array, group counts and var-data
    /// lengths that fit their slots. For values a program builds.
    Schema,
    /// Only what the encoders refuse themselves (text too long for its array, more entries
    /// than the count allows, var data too long): numbers outside their range and enum values
    /// the schema does not list are written as they are, so that a decoded message, which
    /// keeps them as the flyweights do, writes back exactly.
    Wire,
};

/// A read-only byte span (var data that is not text).
class Bytes {
public:
    /// No bytes.
    constexpr Bytes() noexcept = default;
    /// `n` bytes at `p`.
    constexpr Bytes(const std::uint8_t* p, std::size_t n) noexcept : data_(p), size_(n) {}
    /// First byte.
    constexpr const std::uint8_t* data() const noexcept { return data_; }
    /// Number of bytes.
    constexpr std::size_t size() const noexcept { return size_; }
    /// True if there are no bytes.
    constexpr bool empty() const noexcept { return size_ == 0; }
    /// First byte (for range-for).
    constexpr const std::uint8_t* begin() const noexcept { return data_; }
    /// Past the last byte.
    constexpr const std::uint8_t* end() const noexcept { return data_ + size_; }
    /// The bytes as a string view (same memory).
    std::string_view view() const noexcept {
        return size_ == 0 ? std::string_view() : std::string_view(reinterpret_cast<const char*>(data_), size_);
    }

private:
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

/// Reverses the bytes of an unsigned integer.
inline constexpr std::uint8_t bswap(std::uint8_t x) noexcept { return x; }
/// Reverses the bytes of an unsigned integer.
inline constexpr std::uint16_t bswap(std::uint16_t x) noexcept {
    return static_cast<std::uint16_t>(((x & 0xFFu) << 8) | (x >> 8));
}
/// Reverses the bytes of an unsigned integer.
inline constexpr std::uint32_t bswap(std::uint32_t x) noexcept {
    return ((x & 0xFFu) << 24) | ((x & 0xFF00u) << 8) | ((x >> 8) & 0xFF00u) | (x >> 24);
}
/// Reverses the bytes of an unsigned integer.
inline constexpr std::uint64_t bswap(std::uint64_t x) noexcept {
    return (static_cast<std::uint64_t>(bswap(static_cast<std::uint32_t>(x))) << 32) |
           bswap(static_cast<std::uint32_t>(x >> 32));
}

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
/// True when the machine is big-endian.
inline constexpr bool HOST_BIG = true;
#else
/// True when the machine is big-endian.
inline constexpr bool HOST_BIG = false;
#endif

/// The unsigned integer of a type's size.
template <std::size_t N> struct UintOf;
template <> struct UintOf<1> { using type = std::uint8_t; };
template <> struct UintOf<2> { using type = std::uint16_t; };
template <> struct UintOf<4> { using type = std::uint32_t; };
template <> struct UintOf<8> { using type = std::uint64_t; };

/// Reads a `T` stored in byte order `BIG` at `p` (no alignment needed, no aliasing).
template <class T, bool BIG>
inline T load(const std::uint8_t* p) noexcept {
    using U = typename UintOf<sizeof(T)>::type;
    U u;
    std::memcpy(&u, p, sizeof(U));
    if constexpr (BIG != HOST_BIG && sizeof(T) > 1) u = bswap(u);
    T v;
    std::memcpy(&v, &u, sizeof(T));
    return v;
}

/// Writes `v` in byte order `BIG` at `p`.
template <class T, bool BIG>
inline void store(std::uint8_t* p, T v) noexcept {
    using U = typename UintOf<sizeof(T)>::type;
    U u;
    std::memcpy(&u, &v, sizeof(U));
    if constexpr (BIG != HOST_BIG && sizeof(T) > 1) u = bswap(u);
    std::memcpy(p, &u, sizeof(U));
}

/// Reads `n` values stored in byte order `BIG` at `p` into `out` (one copy when no bytes swap).
template <class T, bool BIG>
inline void load_array(const std::uint8_t* p, T* out, std::size_t n) noexcept {
    if constexpr (BIG == HOST_BIG || sizeof(T) == 1) {
        std::memcpy(out, p, n * sizeof(T));
    } else {
        for (std::size_t i = 0; i < n; ++i) out[i] = load<T, BIG>(p + i * sizeof(T));
    }
}

/// Writes the `n` values at `v` in byte order `BIG` at `p` (one copy when no bytes swap).
template <class T, bool BIG>
inline void store_array(std::uint8_t* p, const T* v, std::size_t n) noexcept {
    if constexpr (BIG == HOST_BIG || sizeof(T) == 1) {
        std::memcpy(p, v, n * sizeof(T));
    } else {
        for (std::size_t i = 0; i < n; ++i) store<T, BIG>(p + i * sizeof(T), v[i]);
    }
}

/// Reads an unsigned slot (a length, count or header field) as a 64-bit value.
template <class T, bool BIG>
inline std::uint64_t load_u64(const std::uint8_t* p) noexcept {
    return static_cast<std::uint64_t>(load<T, BIG>(p));
}

/// The text of a fixed char array: up to its first NUL.
inline std::string_view until_nul(const std::uint8_t* p, std::size_t n) noexcept {
    std::size_t k = 0;
    while (k < n && p[k] != 0) ++k;
    return std::string_view(reinterpret_cast<const char*>(p), k);
}

/// Bytes the encoder writes into; shared by a message encoder and its groups' entries. The
/// first error is kept (sticky) and reported by `finish()`; recording it also empties the
/// cursor (no capacity left), so later reservations fail by the capacity test alone.
struct Cursor {
    /// Start of the message.
    std::uint8_t* buf = nullptr;
    /// Capacity of `buf` (0 once an error is recorded).
    std::size_t cap = 0;
    /// Bytes written so far (the next write goes here).
    std::size_t pos = 0;
    /// The first error.
    Error err{};
    /// The acting version written.
    std::uint64_t version = 0;

    /// Reserves `n` bytes without zeroing them (the caller writes all of them); returns their
    /// offset, or records an error and returns npos.
    std::size_t take_raw(std::size_t n, const char* path) noexcept {
        if (n > cap - pos) {
            fail(ErrorKind::BufferTooSmall, path);
            return npos;
        }
        const std::size_t at = pos;
        pos += n;
        return at;
    }
    /// Reserves `n` zeroed bytes; returns their offset, or records an error and returns npos.
    std::size_t take(std::size_t n, const char* path) noexcept {
        const std::size_t at = take_raw(n, path);
        if (at != npos) std::memset(buf + at, 0, n);
        return at;
    }
    /// `take`, as a pointer to the reserved bytes (null when nothing was reserved): encoders
    /// keep it, since the buffer never moves, so a setter is one test and one store.
    std::uint8_t* take_ptr(std::size_t n, const char* path) noexcept {
        if (n > cap - pos) {
            fail(ErrorKind::BufferTooSmall, path);
            return nullptr;
        }
        std::uint8_t* p = buf + pos;
        pos += n;
        std::memset(p, 0, n);
        return p;
    }
    /// Reserves `head` bytes and `count` blocks of `block` bytes after them, zeroed, with one
    /// test; a pointer to the first byte, or null (an error recorded) when they do not fit.
    std::uint8_t* take_blocks(std::size_t head, std::size_t block, std::size_t count, const char* path) noexcept {
        const std::uint64_t h = head, b = block, c = count, room = cap - pos;
        // Below 2^32 each, the sum cannot overflow: no division.
        const bool fits = ((h | b | c) >> 32) == 0 ? h + b * c <= room
                                                   : (h <= room && (b == 0 || c <= (room - h) / b));
        if (!fits) {
            fail(ErrorKind::BufferTooSmall, path);
            return nullptr;
        }
        return take_ptr(head + block * count, path);
    }
    /// Records `k` at the cursor unless an error is already kept, and leaves no capacity.
    void fail(ErrorKind k, const char* path) noexcept {
        if (err.kind == ErrorKind::Ok) err = Error{k, pos, path};
        cap = 0;
        pos = 0;
    }
    /// True while no error has been recorded.
    bool good() const noexcept { return err.kind == ErrorKind::Ok; }
    /// "No position".
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

/// Writes into `dst` (of `n` bytes) the text `s`, padded with NULs; false if it is too long.
inline bool put_fixed(std::uint8_t* dst, std::size_t n, std::string_view s) noexcept {
    if (s.size() > n) return false;
    if (!s.empty()) std::memcpy(dst, s.data(), s.size());
    if (n > s.size()) std::memset(dst + s.size(), 0, n - s.size());
    return true;
}

// ---- JSON text, as `sbekit decode` prints it ----

/// True if `p[0..n)` is valid UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
inline bool valid_utf8(const std::uint8_t* p, std::size_t n) noexcept {
    std::size_t i = 0;
    while (i < n) {
        std::uint8_t c = p[i];
        if (c < 0x80) { ++i; continue; }
        std::size_t len;
        std::uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1Fu; }
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0Fu; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07u; }
        else return false;
        if (n - i < len) return false;
        for (std::size_t k = 1; k < len; ++k) {
            std::uint8_t d = p[i + k];
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

/// Appends `s` to `out` (anything with `append(const char*, std::size_t)`, as `std::string`).
template <class Out>
inline void put(Out& out, std::string_view s) {
    out.append(s.data(), s.size());
}

/// Appends byte `c` escaped for a JSON string.
template <class Out>
inline void put_escaped(Out& out, std::uint8_t c) {
    static constexpr char HEX[] = "0123456789abcdef";
    switch (c) {
        case '"': put(out, "\\\""); return;
        case '\\': put(out, "\\\\"); return;
        case '\n': put(out, "\\n"); return;
        case '\r': put(out, "\\r"); return;
        case '\t': put(out, "\\t"); return;
        case 0x08: put(out, "\\b"); return;
        case 0x0c: put(out, "\\f"); return;
        default: {
            char u[6] = {'\\', 'u', '0', '0', HEX[c >> 4], HEX[c & 0xF]};
            out.append(u, 6);
        }
    }
}

/// Appends bytes as a JSON string: kept as UTF-8 when `utf8` and valid, otherwise each byte
/// becomes the code point of the same value (Latin-1), so no byte is lost.
template <class Out>
inline void json_text(Out& out, const std::uint8_t* p, std::size_t n, bool utf8) {
    put(out, "\"");
    const bool keep = utf8 && valid_utf8(p, n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t c = p[i];
        if (c >= 0x80) {
            if (keep) {
                char b = static_cast<char>(c);
                out.append(&b, 1);
            } else {
                char b[2] = {static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
                out.append(b, 2);
            }
        } else if (c >= 0x20 && c != '"' && c != '\\') {
            char b = static_cast<char>(c);
            out.append(&b, 1);
        } else {
            put_escaped(out, c);
        }
    }
    put(out, "\"");
}

/// Appends a string view as JSON text (`utf8` as in `json_text`).
template <class Out>
inline void json_text(Out& out, std::string_view s, bool utf8) {
    json_text(out, reinterpret_cast<const std::uint8_t*>(s.data()), s.size(), utf8);
}

/// Appends an integer in decimal.
template <class Out, class T>
inline void json_int(Out& out, T v) {
    char b[24];
    auto r = std::to_chars(b, b + sizeof b, v);
    out.append(b, static_cast<std::size_t>(r.ptr - b));
}

/// Appends a float or double (shortest text that reads back the same); `null` if not finite.
template <class Out, class T>
inline void json_float(Out& out, T v) {
    if (!std::isfinite(v)) {
        put(out, "null");
        return;
    }
    char b[64];
    auto r = std::to_chars(b, b + sizeof b, v);
    out.append(b, static_cast<std::size_t>(r.ptr - b));
}

/// Appends a char value as JSON text (one character, NUL included).
template <class Out>
inline void json_char(Out& out, char c) {
    std::uint8_t b = static_cast<std::uint8_t>(c);
    json_text(out, &b, 1, true);
}

}  // namespace rt
}  // namespace sbekit

#endif  // SBEKIT_RUNTIME_V1_HPP
