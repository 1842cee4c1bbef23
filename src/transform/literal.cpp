#include "literal.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace clreduce::expr {
namespace {

bool is_decimal(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_decimal(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int digit_value(char c) { return is_decimal(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

// Reads the text left to right; peek() is '\0' past the end.
struct Cursor {
    std::string_view text;
    std::size_t at = 0;
    char peek() const { return at < text.size() ? text[at] : '\0'; }
    std::size_t skip(bool (*digit)(char)) {
        const std::size_t start = at;
        while (digit(peek())) ++at;
        return at - start;
    }
    std::string_view rest() const { return text.substr(at); }
};

bool integer_suffix(std::string_view s) {
    static constexpr std::string_view valid[] = {"",   "u",  "U",  "l",  "L",  "ul", "uL",
                                                 "Ul", "UL", "lu", "lU", "Lu", "LU"};
    return std::find(std::begin(valid), std::end(valid), s) != std::end(valid);
}

bool float_suffix(std::string_view s) { return s.empty() || s == "f" || s == "F" || s == "h" || s == "H"; }

bool fits_64_bits(std::string_view digits, unsigned base) {
    std::uint64_t value = 0;
    for (char c : digits) {
        const auto d = static_cast<std::uint64_t>(digit_value(c));
        if (value > (UINT64_MAX - d) / base) return false;
        value = value * base + d;
    }
    return true;
}

std::string bad_suffix(std::string_view suffix, const char* kind) {
    return "suffix '" + std::string(suffix) + "' on " + kind;
}

// After the mantissa of a float: the exponent (required in hexadecimal) and the suffix.
std::string float_rest(Cursor& c, bool hexadecimal) {
    const char mark = c.peek();
    const bool has_exponent = hexadecimal ? (mark == 'p' || mark == 'P') : (mark == 'e' || mark == 'E');
    if (hexadecimal && !has_exponent) return "a hexadecimal floating literal needs a 'p' exponent";
    if (has_exponent) {
        ++c.at;
        if (c.peek() == '+' || c.peek() == '-') ++c.at;
        if (c.skip(is_decimal) == 0) return "exponent without digits";
    }
    return float_suffix(c.rest()) ? "" : bad_suffix(c.rest(), "a floating literal");
}

std::string hexadecimal(Cursor& c) {
    c.at = 2;
    const std::size_t whole = c.skip(is_hex);
    const std::string_view digits = c.text.substr(2, whole);
    std::size_t fraction = 0;
    const bool point = c.peek() == '.';
    if (point) {
        ++c.at;
        fraction = c.skip(is_hex);
    }
    if (whole + fraction == 0) return "no digits after '0x'";
    if (point || c.peek() == 'p' || c.peek() == 'P') return float_rest(c, true);
    if (!integer_suffix(c.rest())) return bad_suffix(c.rest(), "an integer literal");
    return fits_64_bits(digits, 16) ? "" : "too large for 64 bits";
}

std::string decimal(Cursor& c) {
    const std::size_t whole = c.skip(is_decimal);
    const std::string_view digits = c.text.substr(0, whole);
    if (c.peek() == '.') {
        ++c.at;
        c.skip(is_decimal);
        return float_rest(c, false);
    }
    if (c.peek() == 'e' || c.peek() == 'E') return float_rest(c, false);
    if (!integer_suffix(c.rest())) return bad_suffix(c.rest(), "an integer literal");
    const bool octal = digits.size() > 1 && digits[0] == '0';
    if (octal && digits.find_first_of("89") != std::string_view::npos) return "digit 8 or 9 in an octal literal";
    return fits_64_bits(digits, octal ? 8 : 10) ? "" : "too large for 64 bits";
}

// A well-formed floating literal's value against its type's range (double; float with f/F,
// half with h/H): the compiler would make infinity of it. Underflow gives 0 or a subnormal, as
// in C, and is accepted.
std::string float_range_fault(std::string_view text, bool hexadecimal) {
    const char last = text.back();
    const bool is_float = last == 'f' || last == 'F', is_half = last == 'h' || last == 'H';
    std::string_view body =
        text.substr(hexadecimal ? 2 : 0, text.size() - (hexadecimal ? 2 : 0) - (is_float || is_half));
    double value = 0;
    const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value,
                                              hexadecimal ? std::chars_format::hex : std::chars_format::general);
    if (error == std::errc::result_out_of_range) {
        // Overflow or underflow: the leading digit's power (of 10, or of 2 in hexadecimal) tells.
        const char mark = hexadecimal ? 'p' : 'e';
        const std::size_t e = std::min(body.find(mark), body.find(static_cast<char>(mark - 0x20)));
        const std::string_view mantissa = body.substr(0, e);
        long long power = 0;
        if (e != std::string_view::npos) {
            std::string_view digits = body.substr(e + 1);
            const bool negative = !digits.empty() && digits[0] == '-';
            if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
            for (char d : digits) power = std::min<long long>(power * 10 + (d - '0'), 1LL << 40);
            if (negative) power = -power;
        }
        const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
        const std::size_t lead = mantissa.find_first_not_of("0.");
        const long long place = static_cast<long long>(point) - static_cast<long long>(lead) - (lead < point ? 1 : 0);
        if (place * (hexadecimal ? 4 : 1) + power < 0) return "";
        return "outside double's range";
    }
    if (error != std::errc() || end != body.data() + body.size()) return "";  // the checks above decide
    if (is_float && std::isinf(static_cast<float>(value))) return "outside float's range";
    if (is_half && std::fabs(value) >= 65520.0) return "outside half's range";  // rounds to infinity
    return "";
}

}  // namespace

std::string literal_fault(std::string_view text) {
    Cursor c{text};
    const bool hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (!hex && (text.empty() || !(is_decimal(text[0]) || (text[0] == '.' && text.size() > 1 && is_decimal(text[1])))))
        return "not a number";
    std::string fault = hex ? hexadecimal(c) : decimal(c);
    if (!fault.empty() || is_integer_literal(text)) return fault;
    return float_range_fault(text, hex);
}

bool is_integer_literal(std::string_view text) {
    const bool hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (text.find('.') != std::string_view::npos) return false;
    return hex ? text.find_first_of("pP") == std::string_view::npos
               : text.find_first_of("eEfFhH") == std::string_view::npos;
}

std::uint64_t integer_literal_value(std::string_view text) {
    const bool hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const unsigned base = hex ? 16 : text.size() > 1 && text[0] == '0' ? 8 : 10;
    std::uint64_t value = 0;
    for (char c : text.substr(hex ? 2 : 0)) {
        if (!(base == 16 ? is_hex(c) : is_decimal(c))) break;  // the suffix
        value = value * base + static_cast<std::uint64_t>(digit_value(c));
    }
    return value;
}

std::optional<double> float_literal_value(std::string_view text) {
    const bool hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char last = text.back();
    if (last == 'h' || last == 'H') return std::nullopt;
    const bool is_float = last == 'f' || last == 'F';
    const std::string_view body = text.substr(hex ? 2 : 0, text.size() - (hex ? 2 : 0) - (is_float ? 1 : 0));
    const auto format = hex ? std::chars_format::hex : std::chars_format::general;
    const auto read = [&](auto value) -> std::optional<double> {  // float literals rounded once, to float
        const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value, format);
        if (error != std::errc() || end != body.data() + body.size()) return std::nullopt;  // an underflow
        return static_cast<double>(value);
    };
    return is_float ? read(0.0f) : read(0.0);
}

}  // namespace clreduce::expr
