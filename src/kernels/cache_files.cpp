#include "kernels/cache_files.hpp"

#include <cerrno>
#include <cstring>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>

#include <unistd.h>

#include <clreduce/cache.hpp>

namespace clreduce {
namespace {

std::mutex override_mutex;
bool override_set = false;
std::filesystem::path override_folder;

std::optional<std::filesystem::path> non_empty(const char* value) {
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::filesystem::path(value);
}

}  // namespace

std::optional<std::filesystem::path> cache_directory() {
    {
        std::lock_guard<std::mutex> lock(override_mutex);
        if (override_set) {
            if (override_folder.empty()) return std::nullopt;
            return override_folder;
        }
    }
    if (const char* dir = std::getenv("CLREDUCE_CACHE_DIR"); dir != nullptr) {
        const std::string value(dir);
        if (value.empty() || value == "off") return std::nullopt;
        return std::filesystem::path(value);
    }
    if (auto xdg = non_empty(std::getenv("XDG_CACHE_HOME"))) return *xdg / "clreduce";
    if (auto home = non_empty(std::getenv("HOME"))) return *home / ".cache" / "clreduce";
    return std::nullopt;
}

void set_cache_directory(std::optional<std::filesystem::path> folder) {
    std::lock_guard<std::mutex> lock(override_mutex);
    override_set = folder.has_value();
    override_folder = folder.value_or(std::filesystem::path());
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return std::nullopt;
    std::ostringstream bytes;
    bytes << file.rdbuf();
    if (file.bad()) return std::nullopt;
    return bytes.str();
}

bool write_file_atomically(const std::filesystem::path& path, const std::string& bytes, std::string* why_not) {
    static std::atomic<unsigned> sequence{0};
    const auto fail = [why_not](const std::string& why) {
        if (why_not != nullptr) *why_not = why;
        return false;
    };
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) return fail("cannot create " + path.parent_path().string() + ": " + error.message());
    const std::filesystem::path temporary =
        path.parent_path() / (path.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                              std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id())) + "." +
                              std::to_string(sequence.fetch_add(1)));
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!file) return fail("cannot write in " + path.parent_path().string() + ": " + std::strerror(errno));
        file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        file.flush();
        if (!file) {
            const std::string why = std::strerror(errno);
            file.close();
            std::filesystem::remove(temporary, error);
            return fail("cannot write " + std::to_string(bytes.size()) + " bytes in " + path.parent_path().string() +
                        ": " + why);
        }
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        const std::string why = error.message();
        std::filesystem::remove(temporary, error);
        return fail("cannot rename into " + path.string() + ": " + why);
    }
    return true;
}

}  // namespace clreduce
