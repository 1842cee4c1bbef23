// Where the wall time of a synchronous segmented call goes (many segments).
#include <clreduce/clreduce.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace clreduce;
using clk = std::chrono::steady_clock;
static double us(clk::time_point a) { return std::chrono::duration<double, std::micro>(clk::now() - a).count(); }
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char** argv) {
    const std::uint64_t rows = argc > 1 ? std::stoull(argv[1]) : 4194304, cols = argc > 2 ? std::stoull(argv[2]) : 64;
    Reducer r;
    const std::uint64_t n = rows * cols;
    std::vector<int> data(n);
    for (std::uint64_t i = 0; i < n; ++i) data[i] = int(i % 1000) - 500;
    cl::Buffer buf(r.context(), CL_MEM_READ_WRITE, n * 4);
    r.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, n * 4, data.data());
    cl::Buffer res(r.context(), CL_MEM_READ_WRITE, rows * 8);
    const Segments seg = Segments::rows(rows, cols);
    std::vector<double> a, b, c, d, e, f, g;
    std::vector<std::int64_t> kept;
    std::vector<std::int64_t> reused(rows, 1);
    for (int k = 0; k < 8; ++k) {
        auto t = clk::now();
        std::vector<std::int64_t> got = r.sum<int>(buf, 0, seg);
        a.push_back(us(t));
        t = clk::now();
        r.sum_async<int>(buf, 0, seg, res, 0).wait();
        b.push_back(us(t));
        t = clk::now();
        r.sum_async<int>(buf, 0, seg, res, 0);
        r.queue().enqueueReadBuffer(res, CL_TRUE, 0, rows * 8, reused.data());
        c.push_back(us(t));
        t = clk::now();
        r.sum_async<int>(buf, 0, seg, res, 0);
        std::vector<std::int64_t> fresh(rows);
        r.queue().enqueueReadBuffer(res, CL_TRUE, 0, rows * 8, fresh.data());
        d.push_back(us(t));
        t = clk::now();
        std::vector<std::int64_t> touch(rows);
        e.push_back(us(t));
        t = clk::now();
        r.queue().enqueueReadBuffer(res, CL_TRUE, 0, rows * 8, reused.data());
        f.push_back(us(t));
        t = clk::now();
        r.sum<int>(buf, 0, seg, kept);
        g.push_back(us(t));
        if (kept != got) { std::puts("MISMATCH kept"); return 1; }
        if (got != reused || fresh != reused) { std::puts("MISMATCH"); return 1; }
    }
    std::printf("%llu x %llu: sync %.0f us | async+wait %.0f | async+read reused %.0f | async+read fresh %.0f | fresh vector %.0f | read only %.0f | sync into kept %.0f\n",
                (unsigned long long)rows, (unsigned long long)cols, med(a), med(b), med(c), med(d), med(e), med(f), med(g));
}
