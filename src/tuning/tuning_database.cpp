#include <clreduce/tuning.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>
#include <tuple>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <clreduce/cache.hpp>
#include <clreduce/error.hpp>

#include "kernels/cache_files.hpp"
#include "plan/planner.hpp"
#include "tuning/tuned_entry_json.hpp"
#include "tuning/tuning_table.hpp"

#ifndef CLREDUCE_VERSION_STRING
#error "CLREDUCE_VERSION_STRING is set by CMake"
#endif

namespace clreduce {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr int kSchemaVersion = 1;
constexpr const char* kFormat = "clreduce tuning database";

void warn_once(const fs::path& file, const std::string& problem, std::vector<std::string>& warnings) {
    static std::mutex mutex;
    static std::set<std::string> printed;
    const std::string line = "clreduce: warning: tuning file " + file.string() + ": " + problem;
    warnings.push_back(line);
    std::lock_guard<std::mutex> lock(mutex);
    if (printed.insert(line).second) std::cerr << line << std::endl;
}

std::string describe(const TunedEntry& e) {
    return std::string(type_name(e.type)) + "/" + std::string(family_name(e.family)) + "/n=" + std::to_string(e.n) +
           (e.segment_length != 0 ? "/segment_length=" + std::to_string(e.segment_length) : "") +
           (e.equal_lengths ? "/equal_lengths" : "");
}

// A string field of `j`, or "" when j is not an object or the field is missing or not a
// string: a damaged file's values never make a reader or a merge throw.
std::string text_field(const json& j, const char* name) {
    if (!j.is_object()) return {};
    const auto found = j.find(name);
    return found != j.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::uint64_t unsigned_field(const json& j, const char* name) {
    if (!j.is_object()) return 0;
    const auto found = j.find(name);
    return found != j.end() && found->is_number_unsigned() ? found->get<std::uint64_t>() : 0;
}

bool same_device(const json& d, const DeviceInfo& device) {
    return d.is_object() && text_field(d, "platform") == device.platform_name &&
           text_field(d, "device") == device.name && text_field(d, "driver_version") == device.driver_version &&
           d.contains("compute_units") && d["compute_units"].is_number_unsigned() &&
           d["compute_units"].get<std::uint64_t>() == device.compute_units;
}

json empty_document() {
    json root;
    root["format"] = kFormat;
    root["schema_version"] = kSchemaVersion;
    root["library_version"] = std::string(library_version());
    root["devices"] = json::array();
    return root;
}

// The file's document when it is one this library wrote; otherwise nullopt, with the reason
// in `problem` (empty when the file simply does not exist).
std::optional<json> read_document(const fs::path& file, std::string& problem) {
    problem.clear();
    std::error_code error;
    if (!fs::exists(file, error)) return std::nullopt;
    const std::optional<std::string> text = read_file(file);
    if (!text) {
        problem = "cannot be read";
        return std::nullopt;
    }
    if (text->find_first_not_of(" \t\r\n") == std::string::npos) {
        problem = "is empty";
        return std::nullopt;
    }
    json root = json::parse(*text, nullptr, false);
    if (root.is_discarded()) {
        problem = "is not valid JSON (corrupt or truncated)";
        return std::nullopt;
    }
    // (json::value throws when "format" holds something other than a string: test the type.)
    const auto format = root.is_object() ? root.find("format") : root.end();
    if (format == root.end() || !format->is_string() || format->get<std::string>() != kFormat) {
        problem = "is not a clreduce tuning database (no \"format\": \"" + std::string(kFormat) + "\")";
        return std::nullopt;
    }
    if (!root.contains("schema_version") || !root["schema_version"].is_number_integer() ||
        root["schema_version"].get<long long>() != kSchemaVersion) {
        problem = "has schema version " + (root.contains("schema_version") ? root["schema_version"].dump() : "none") +
                  "; this clreduce reads version " + std::to_string(kSchemaVersion);
        return std::nullopt;
    }
    const json version = root.value("library_version", json());
    if (!version.is_string() || version.get<std::string>() != library_version()) {
        problem = "was written by clreduce " + version.dump() + ", this is " + std::string(library_version()) +
                  " (its kernels may differ: re-tune)";
        return std::nullopt;
    }
    if (!root.contains("devices") || !root["devices"].is_array()) {
        problem = "has no \"devices\" list";
        return std::nullopt;
    }
    return root;
}

// Serialises writers of one file: threads of this process (mutex) and other processes (flock).
class FileLock {
public:
    explicit FileLock(const fs::path& file) : guard_(process_mutex()) {
        std::error_code error;
        fs::create_directories(file.parent_path().empty() ? fs::path(".") : file.parent_path(), error);
        const fs::path lock_path = file.string() + ".lock";
        fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) throw Error("tuning file " + file.string() + ": cannot open lock file " + lock_path.string());
        while (::flock(fd_, LOCK_EX) != 0) {
            if (errno != EINTR) {
                ::close(fd_);
                throw Error("tuning file " + file.string() + ": cannot lock " + lock_path.string());
            }
        }
    }
    ~FileLock() {
        ::flock(fd_, LOCK_UN);
        ::close(fd_);
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    static std::mutex& process_mutex() {
        static std::mutex m;
        return m;
    }
    std::lock_guard<std::mutex> guard_;
    int fd_ = -1;
};

using EntryKey = std::tuple<std::string, std::string, std::uint64_t, bool, std::uint64_t>;

EntryKey key_of(const json& e) {
    const bool equal = e.is_object() && e.contains("equal_lengths") && e["equal_lengths"].is_boolean() &&
                       e["equal_lengths"].get<bool>();
    return {text_field(e, "type"), text_field(e, "family"), unsigned_field(e, "segment_length"), equal,
            unsigned_field(e, "n")};
}

// Read-merge-write of this device's entries under the lock. `change` edits the device's
// entry list (a json array).
template <class Change>
void update(const std::optional<fs::path>& file, const DeviceInfo& device, Change change) {
    if (!file) throw Error("no tuning file: the disk caches are off (CLREDUCE_CACHE_DIR=off or no HOME)");
    FileLock lock(*file);
    std::string problem;
    std::vector<std::string> warnings;
    json root = read_document(*file, problem).value_or(json());
    if (!problem.empty()) warn_once(*file, problem + "; replacing it", warnings);
    if (root.is_null()) root = empty_document();

    json* mine = nullptr;
    for (json& d : root["devices"])
        if (same_device(d, device)) mine = &d;
    if (mine == nullptr) {
        json d;
        d["platform"] = device.platform_name;
        d["device"] = device.name;
        d["driver_version"] = device.driver_version;
        d["compute_units"] = device.compute_units;
        d["entries"] = json::array();
        root["devices"].push_back(std::move(d));
        mine = &root["devices"].back();
    }
    if (!(*mine)["entries"].is_array()) (*mine)["entries"] = json::array();
    change((*mine)["entries"]);
    std::sort((*mine)["entries"].begin(), (*mine)["entries"].end(),
              [](const json& a, const json& b) { return key_of(a) < key_of(b); });
    if (!write_file_atomically(*file, root.dump(2) + "\n"))
        throw Error("tuning file " + file->string() + ": cannot be written");
}

}  // namespace

std::string_view library_version() { return CLREDUCE_VERSION_STRING; }

std::optional<fs::path> TuningDatabase::default_file() {
    if (const char* env = std::getenv("CLREDUCE_TUNING_FILE"); env != nullptr && *env != '\0') {
        if (std::string(env) == "off") return std::nullopt;
        return fs::path(env);
    }
    if (auto folder = cache_directory()) return *folder / "tuning.json";
    return std::nullopt;
}

TuningDatabase::TuningDatabase() : file_(default_file()) {}

TuningDatabase::TuningDatabase(fs::path file) {
    if (!file.empty()) file_ = std::move(file);
}

TuningLoad TuningDatabase::load(const DeviceInfo& device) const {
    TuningLoad out;
    if (!file_) return out;
    std::string problem;
    try {
        const std::optional<json> root = read_document(*file_, problem);
        if (!root) {
            if (!problem.empty()) warn_once(*file_, problem + "; ignored", out.warnings);
            return out;
        }
        for (const json& d : (*root)["devices"]) {
            if (!same_device(d, device)) continue;
            if (!d.contains("entries") || !d["entries"].is_array()) {
                warn_once(*file_, "the entry list of '" + device.name + "' is not a list; ignored", out.warnings);
                continue;
            }
            for (const json& j : d["entries"]) {
                TunedEntry e;
                try {
                    e = entry_from_json(j);
                } catch (const std::exception& ex) {
                    warn_once(*file_, "malformed entry " + j.dump() + " (" + ex.what() + "); ignored", out.warnings);
                    continue;
                }
                // Entries come from a file: re-check them against the device as overrides would be.
                try {
                    check_entry_fits(e, device);
                } catch (const Error& ex) {
                    warn_once(*file_,
                              "entry " + describe(e) + " is invalid for '" + device.name + "' (" + ex.what() +
                                  "); ignored",
                              out.warnings);
                    continue;
                }
                out.entries.push_back(e);
            }
        }
    } catch (const std::exception& ex) {
        out.entries.clear();
        warn_once(*file_, std::string("unexpected content (") + ex.what() + "); ignored", out.warnings);
    }
    return out;
}

void TuningDatabase::store(const DeviceInfo& device, const std::vector<TunedEntry>& entries) const {
    update(file_, device, [&](json& list) {
        for (const TunedEntry& e : entries) {
            json j = to_json(e);
            const EntryKey key = key_of(j);
            bool replaced = false;
            for (json& old : list) {
                if (key_of(old) == key) {
                    old = j;
                    replaced = true;
                }
            }
            if (!replaced) list.push_back(std::move(j));
        }
    });
}

void TuningDatabase::forget(const DeviceInfo& device) const {
    update(file_, device, [](json& list) { list = json::array(); });
}

}  // namespace clreduce
