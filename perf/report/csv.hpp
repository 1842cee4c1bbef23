#pragma once
#include <string>
#include <vector>

namespace clreduce::perf {

// One CSV line (RFC 4180): fields with a comma, quote or line break are quoted.
inline std::string csv_row(const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i) line += ',';
        const std::string& f = fields[i];
        if (f.find_first_of(",\"\n\r") == std::string::npos) {
            line += f;
            continue;
        }
        line += '"';
        for (char c : f) line += c == '"' ? std::string("\"\"") : std::string(1, c);
        line += '"';
    }
    return line + "\n";
}

}  // namespace clreduce::perf
