// Devices are found by index, platform:device and name, and $CLREDUCE_DEVICE picks the default.
#include <catch2/catch.hpp>

#include <cctype>
#include <cstdlib>
#include <string>

#include "test_support.hpp"

using namespace clreduce;

TEST_CASE("devices are found by index, platform:device and name", "[devices]") {
    const auto devices = all_devices();
    REQUIRE_FALSE(devices.empty());
    CHECK(select_device("0")() == devices[0]());
    CHECK(select_device("0:0")() == devices[0]());
    const DeviceInfo info = DeviceInfo::query(devices[0]);
    CHECK(select_device(info.name)() == devices[0]());
    std::string shouted = info.name;
    for (auto& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(select_device(shouted)() == devices[0]());

    const char* previous = std::getenv("CLREDUCE_DEVICE");
    const std::string saved = previous ? previous : "";
    ::setenv("CLREDUCE_DEVICE", "0:0", 1);
    CHECK(default_device()() == devices[0]());
    ::setenv("CLREDUCE_DEVICE", "no-such-device-anywhere", 1);
    CHECK_THROWS_AS(default_device(), InvalidArgument);
    if (previous)
        ::setenv("CLREDUCE_DEVICE", saved.c_str(), 1);
    else
        ::unsetenv("CLREDUCE_DEVICE");
}
