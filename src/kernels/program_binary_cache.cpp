#include "kernels/program_binary_cache.hpp"

#include <cstdio>

#include "device/string_util.hpp"
#include "kernels/cache_files.hpp"

namespace clreduce {
namespace {

// Bump the version when the layout changes: older files then fail the magic check.
constexpr std::string_view kMagic = "clreduce program binary v1\n";

void put_u64(std::string& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

bool get_u64(std::string_view& in, std::uint64_t& v) {
    if (in.size() < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t(static_cast<unsigned char>(in[i])) << (8 * i);
    in.remove_prefix(8);
    return true;
}

std::string text(const cl::Device& device, cl_device_info name) {
    std::string value;
    device.getInfo(name, &value);
    return trim_nul(value);
}

std::string platform_text(const cl::Device& device, cl_platform_info name) {
    cl_platform_id platform = nullptr;
    if (device.getInfo(CL_DEVICE_PLATFORM, &platform) != CL_SUCCESS) return "?";
    std::string value;
    cl::Platform(platform, true).getInfo(name, &value);
    return trim_nul(value);
}

std::string hex(std::uint64_t v) {
    char buffer[17];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
    return buffer;
}

}  // namespace

std::uint64_t fnv1a64(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

std::string encode_program_file(const ProgramFile& file) {
    std::string out(kMagic);
    put_u64(out, file.key.size());
    out += file.key;
    put_u64(out, file.binary.size());
    put_u64(out, fnv1a64(file.binary));
    out += file.binary;
    return out;
}

std::optional<ProgramFile> decode_program_file(std::string_view in) {
    if (in.substr(0, kMagic.size()) != kMagic) return std::nullopt;
    in.remove_prefix(kMagic.size());
    ProgramFile file;
    std::uint64_t key_size = 0, binary_size = 0, checksum = 0;
    if (!get_u64(in, key_size) || key_size > in.size()) return std::nullopt;
    file.key.assign(in.substr(0, key_size));
    in.remove_prefix(key_size);
    if (!get_u64(in, binary_size) || !get_u64(in, checksum) || binary_size != in.size()) return std::nullopt;
    if (binary_size == 0 || fnv1a64(in) != checksum) return std::nullopt;
    file.binary.assign(in);
    return file;
}

ProgramBinaryCache::ProgramBinaryCache(std::optional<std::filesystem::path> folder, const cl::Device& device,
                                       std::string_view source)
    : folder_(folder ? std::optional<std::filesystem::path>(*folder / "programs") : std::nullopt) {
    if (!folder_) return;
    key_prefix_ = "platform: " + platform_text(device, CL_PLATFORM_NAME) + " | " +
                  platform_text(device, CL_PLATFORM_VERSION) + "\n" + "device: " + text(device, CL_DEVICE_VENDOR) +
                  " | " + text(device, CL_DEVICE_NAME) + "\n" + "driver: " + text(device, CL_DRIVER_VERSION) + "\n" +
                  "device version: " + text(device, CL_DEVICE_VERSION) + "\n" +
                  "source bytes: " + std::to_string(source.size()) + "\n" + std::string(source) + "\n";
}

std::string ProgramBinaryCache::key(const std::string& options) const {
    return key_prefix_ + "options: " + options + "\n";
}

std::filesystem::path ProgramBinaryCache::path(const std::string& options) const {
    return *folder_ / (hex(fnv1a64(key(options))) + ".bin");
}

std::optional<std::string> ProgramBinaryCache::load(const std::string& options, std::string* why_not) const {
    const auto fail = [&](const char* why) {
        if (why_not != nullptr) *why_not = why;
        return std::nullopt;
    };
    if (!folder_) return fail("the disk cache is off");
    const auto bytes = read_file(path(options));
    if (!bytes) return fail("no such file");
    auto file = decode_program_file(*bytes);
    if (!file) return fail("not a clreduce program file, or truncated or damaged");
    if (file->key != key(options)) return fail("made for another device, driver, source or options");
    return std::move(file->binary);
}

bool ProgramBinaryCache::save(const std::string& options, const std::string& binary, std::string* why_not) const {
    if (!folder_ || binary.empty()) return false;
    return write_file_atomically(path(options), encode_program_file({key(options), binary}), why_not);
}

}  // namespace clreduce
