#pragma once
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace clreduce {

// CLHPP's string queries may keep the terminating NUL; drop it and trailing blanks.
inline std::string trim_nul(std::string s) {
    while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
    return s;
}

inline std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace clreduce
