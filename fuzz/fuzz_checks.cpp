#include "fuzz_checks.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include <clreduce/error.hpp>
#include <clreduce/partial.hpp>
#include <clreduce/tuning.hpp>

#include "device/described_device.hpp"
#include "device/device_spec.hpp"
#include "device/string_util.hpp"
#include "kernels/program_binary_cache.hpp"
#include "transform/expression.hpp"

namespace clreduce::fuzz {
namespace {

void require(bool holds, const std::string& what) {
    if (!holds) throw PropertyViolated(what);
}

// Characters the printed kernel text may hold: no ';', braces, '#', quotes, backslashes or
// line breaks, so it cannot end the expression or start a directive or a string.
bool kernel_character(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view(" ()+-*/%<>=!&|^~?:.,_").find(c) != std::string_view::npos;
}

bool safe_kernel_text(const std::string& text) {
    return std::all_of(text.begin(), text.end(), kernel_character) && text.find("//") == std::string::npos &&
           text.find("/*") == std::string::npos;
}

DeviceInfo fuzz_device() {
    DeviceInfo d = described_gpu("Fuzz Platform", "Fuzz Device", 8);
    d.vendor = "Fuzz";
    return d;
}

// Sends std::cerr (the tuning database's warnings) nowhere while it lives.
class QuietStderr {
public:
    QuietStderr() : saved_(std::cerr.rdbuf(nullptr)) {}
    ~QuietStderr() {
        std::cerr.rdbuf(saved_);
        std::cerr.clear();
    }
    QuietStderr(const QuietStderr&) = delete;
    QuietStderr& operator=(const QuietStderr&) = delete;

private:
    std::streambuf* saved_;
};

// A scratch file of this process, removed at exit.
const std::filesystem::path& scratch_file() {
    struct Scratch {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("clreduce-fuzz-" + std::to_string(::getpid()) + ".json");
        ~Scratch() {
            std::error_code ignored;
            std::filesystem::remove(path, ignored);
            std::filesystem::remove(path.string() + ".lock", ignored);
        }
    };
    static const Scratch scratch;
    return scratch.path;
}

}  // namespace

void check_transform_expression(std::string_view text) {
    std::string printed;
    try {
        printed = transform_source(text);
    } catch (const InvalidArgument&) {
        return;  // refused, with a message: as documented
    }
    require(!printed.empty(), "accepted text printed as nothing");
    require(safe_kernel_text(printed), "printed text leaves the kernel's alphabet: " + printed);
    if (printed.size() > kMaxTransformLength) return;  // the parentheses made it too long to read again
    std::string again;
    try {
        again = transform_source(printed);
    } catch (const InvalidArgument& e) {
        throw PropertyViolated("printed text refused: " + printed + ": " + e.what());
    }
    require(again == printed, "printed text prints differently: " + printed + " -> " + again);
}

void check_tuning_database(std::string_view bytes) {
    const std::filesystem::path& file = scratch_file();
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    const QuietStderr quiet;
    const TuningDatabase db(file);
    const DeviceInfo device = fuzz_device();
    (void)db.load(device);  // documented never to throw: an exception here fails the check

    TunedEntry entry;
    entry.type = ElementType::int32;
    entry.family = OperationFamily::additive;
    entry.n = 1 << 20;
    entry.params.times = 4;
    entry.params.work_group_size = 256;
    entry.params.stride = Stride::global;
    entry.params.vector_width = 4;
    entry.params.inter_group = InterGroup::atomic;
    try {
        db.store(device, {entry});
    } catch (const Error&) {
        return;  // documented: Error naming the file
    }
    const TuningLoad loaded = db.load(device);
    const bool found = std::any_of(loaded.entries.begin(), loaded.entries.end(), [&](const TunedEntry& e) {
        return e.type == entry.type && e.family == entry.family && e.n == entry.n &&
               e.params.times == entry.params.times && e.params.work_group_size == entry.params.work_group_size;
    });
    require(found, "an entry stored over the file is not loaded back");
}

void check_program_file(std::string_view bytes) {
    const std::optional<ProgramFile> file = decode_program_file(bytes);
    if (!file) return;
    require(encode_program_file(*file) == bytes, "a decoded program file encodes to other bytes");
}

void check_device_spec(std::string_view bytes) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= bytes.size()) {
        const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
        lines.emplace_back(bytes.substr(start, end - start));
        start = end + 1;
    }
    const std::string spec = lines.front();
    // Devices numbered as clreduce numbers them: platforms (the label's part before " / ") in
    // order of first appearance, devices within each.
    std::vector<DeviceLabel> devices;
    std::vector<std::string> platforms;
    std::vector<std::size_t> per_platform;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::string platform = lines[i].substr(0, lines[i].find(" / "));
        const auto p = std::find(platforms.begin(), platforms.end(), platform) - platforms.begin();
        if (p == static_cast<std::ptrdiff_t>(platforms.size())) {
            platforms.push_back(platform);
            per_platform.push_back(0);
        }
        devices.push_back({static_cast<std::size_t>(p), per_platform[p]++, lines[i]});
    }
    const std::optional<std::size_t> found = match_device_spec(spec, devices);
    if (!found) return;
    require(*found < devices.size(), "a match past the end of the list");
    const DeviceLabel& d = devices[*found];
    const auto is_index = [](std::string_view s) {
        return !s.empty() && s.size() < 10 &&
               std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
    };
    const std::string what = "spec '" + spec + "' matched [" + std::to_string(*found) + "] " + d.label;
    const auto colon = spec.find(':');
    if (colon != std::string::npos && is_index(spec.substr(0, colon)) && is_index(spec.substr(colon + 1))) {
        require(d.platform_index == std::stoul(spec.substr(0, colon)) &&
                    d.device_index == std::stoul(spec.substr(colon + 1)),
                what);
    } else if (is_index(spec)) {
        require(*found == std::stoul(spec), what);
    } else {
        // The first label holding the spec, ignoring case.
        const auto holds = [&](const DeviceLabel& l) { return lower(l.label).find(lower(spec)) != std::string::npos; };
        require(holds(d) && std::none_of(devices.begin(), devices.begin() + *found, holds), what);
    }
}

void check_partial_bytes(std::string_view bytes) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    Partial p;
    try {
        p = Partial::from_bytes(data, bytes.size());
    } catch (const InvalidArgument&) {
        return;
    }
    // This version's bytes come back the same; an older version's are written anew in this one,
    // which in turn comes back the same.
    const std::vector<std::uint8_t> again = p.to_bytes();
    const std::vector<std::uint8_t> current = bytes.size() > 4 && data[4] == again[4] ? std::vector<std::uint8_t>(data, data + bytes.size()) : again;
    require(again == current, "a decoded partial encodes to other bytes");
    require(Partial::from_bytes(again.data(), again.size()).to_bytes() == again,
            "a partial written anew encodes to other bytes");
    const auto value = [](const Partial& q) {
        try {
            visit_type(q.element(), [&](auto tag) {
                using T = decltype(tag);
                visit_operation(q.operation(), [&](auto op) { q.template value<decltype(op)::value, T>(); });
            });
        } catch (const Error&) {
        }
    };
    value(p);
    Partial twice = p;
    try {
        twice.merge(p);
    } catch (const InvalidArgument&) {
        return;
    }
    value(twice);
}

}  // namespace clreduce::fuzz
