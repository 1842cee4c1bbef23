#include "transform.hpp"

#include <array>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

constexpr std::size_t kMaxLength = 4096;

[[noreturn]] void reject(std::string_view expression, const std::string& why) {
    throw InvalidArgument("transform expression '" + std::string(expression) + "' rejected: " + why +
                          " (give one OpenCL C expression in x)");
}

}  // namespace

std::string checked_transform(std::string_view expression) {
    if (expression.size() > kMaxLength) reject(expression.substr(0, 64), "longer than 4096 characters");
    bool blank = true;
    for (char c : expression) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x7f) reject(expression, "control, line-break or non-ASCII character");
        if (c != ' ') blank = false;
    }
    if (blank) reject(expression, "empty");
    // Statements, blocks, the preprocessor, comments, line splices, strings, and the digraphs
    // and trigraphs that spell braces and '#'.
    for (std::string_view bad : {";", "{", "}", "#", "/*", "*/", "//", "\\", "\"", "<%", "%>", "<:", ":>", "%:", "??"})
        if (expression.find(bad) != std::string_view::npos) reject(expression, "contains '" + std::string(bad) + "'");
    std::string open;
    for (char c : expression) {
        if (c == '(' || c == '[') {
            open.push_back(c);
        } else if (c == ')' || c == ']') {
            if (open.empty() || open.back() != (c == ')' ? '(' : '['))
                reject(expression, std::string("unbalanced '") + c + "'");
            open.pop_back();
        }
    }
    if (!open.empty()) reject(expression, std::string("unclosed '") + open.back() + "'");
    return std::string(expression);
}

}  // namespace clreduce
