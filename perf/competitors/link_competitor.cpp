// The host-to-device link beside clreduce's host-data call (clreduce-host): the same bytes
// written into a device buffer by one blocking clEnqueueWriteBuffer, from pinned memory (a
// mapped CL_MEM_ALLOC_HOST_PTR buffer the data was copied into before timing: the link's
// ceiling, which streaming host data can approach but not pass) and from the data's own pageable
// memory (what a plain upload gets). Copies, not sums: their rows have no result to check.
#include <cstring>

#include "competitors/competitor.hpp"

namespace clreduce::perf {
namespace {

class LinkWrite : public Competitor {
public:
    LinkWrite(const CompareSetup& setup, bool pinned) : setup_(setup), pinned_(pinned) {}
    ~LinkWrite() override { unmap(); }
    std::string name() const override { return pinned_ ? "pinned write" : "pageable write"; }
    std::string unavailable() const override { return {}; }
    std::string detail() const override {
        return pinned_ ? "the data's bytes written to a device buffer by one blocking clEnqueueWriteBuffer from a "
                         "mapped CL_MEM_ALLOC_HOST_PTR buffer (filled before timing): the link's ceiling; a copy, "
                         "no sum"
                       : "the same write straight from the data's pageable host memory; a copy, no sum";
    }
    Measurement measure(const Workload& w) override {
        const Reducer& r = *setup_.reducer;
        const std::size_t bytes = static_cast<std::size_t>(w.n * type_size(w.type));
        cl_int err = CL_SUCCESS;
        cl::Buffer device(r.context(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
        check(err, "clCreateBuffer");
        cl::CommandQueue queue = r.queue();
        const void* source = w.host;
        if (pinned_) {
            unmap();
            pinned_buffer_ = cl::Buffer(r.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
            check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
            mapped_ = queue.enqueueMapBuffer(pinned_buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, nullptr,
                                             nullptr, &err);
            check(err, "clEnqueueMapBuffer");
            std::memcpy(mapped_, w.host, bytes);
            source = mapped_;
        }
        Measurement m = time_calls(setup_.repeats, [&] {
            check(queue.enqueueWriteBuffer(device, CL_TRUE, 0, bytes, source), "clEnqueueWriteBuffer");
            return 0.0L;
        });
        m.values.clear();
        m.copy = true;
        m.note = pinned_ ? "from pinned memory" : "from pageable memory";
        unmap();
        return m;
    }

private:
    void unmap() {
        if (mapped_ == nullptr) return;
        cl::CommandQueue queue = setup_.reducer->queue();
        if (queue.enqueueUnmapMemObject(pinned_buffer_, mapped_) == CL_SUCCESS) queue.finish();
        mapped_ = nullptr;
        pinned_buffer_ = cl::Buffer();
    }

    const CompareSetup& setup_;
    bool pinned_;
    cl::Buffer pinned_buffer_;
    void* mapped_ = nullptr;
};

}  // namespace

std::unique_ptr<Competitor> make_pinned_write_competitor(const CompareSetup& setup) {
    return std::make_unique<LinkWrite>(setup, true);
}

std::unique_ptr<Competitor> make_pageable_write_competitor(const CompareSetup& setup) {
    return std::make_unique<LinkWrite>(setup, false);
}

}  // namespace clreduce::perf
