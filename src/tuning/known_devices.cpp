// The known-device table: launch parameters `clreduce-perf tune` measured on real devices,
// for devices nobody has tuned on this machine yet. The data is src/tuning/known_devices.json,
// embedded at build time and written by scripts/publish-known-device.py from a tuning file:
// only measured figures belong there.
#include <clreduce/error.hpp>
#include <clreduce/tuning.hpp>

#include <map>
#include <string>
#include <vector>

#include "kernels/kernel_source.hpp"
#include "tuning/tuned_entry_json.hpp"

namespace clreduce {
namespace {

using json = nlohmann::ordered_json;

// Device name -> its entries, parsed once. The file ships with the library, so anything wrong
// in it is a build defect: Error, naming the entry.
std::map<std::string, std::vector<TunedEntry>> parse_known_devices(std::string_view text) {
    const json root = json::parse(text, nullptr, false);
    if (root.is_discarded() || root.value("format", std::string()) != "clreduce known devices")
        throw Error("internal: known_devices.json is not a known-device table");
    std::map<std::string, std::vector<TunedEntry>> table;
    for (const json& device : root.at("devices")) {
        const std::string name = device.at("device").get<std::string>();
        for (const json& entry : device.at("entries")) {
            try {
                table[name].push_back(entry_from_json(entry));
            } catch (const std::exception& e) {
                throw Error("internal: known_devices.json, '" + name + "': entry " + entry.dump() + ": " + e.what());
            }
        }
    }
    return table;
}

const std::map<std::string, std::vector<TunedEntry>>& known_devices() {
    static const auto table = [] {
        for (const EmbeddedKernel& file : embedded_data())
            if (file.file_name == "known_devices.json") return parse_known_devices(file.source);
        throw Error("internal: known_devices.json is not embedded");
    }();
    return table;
}

}  // namespace

std::vector<TunedEntry> known_device_entries(const DeviceInfo& device) {
    const auto& table = known_devices();
    const auto it = table.find(device.name);
    return it == table.end() ? std::vector<TunedEntry>{} : it->second;
}

}  // namespace clreduce
