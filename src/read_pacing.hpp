#pragma once
// When a synchronous call issues its blocking read. NVIDIA's OpenCL read waits for the kernel
// by spinning briefly, then sleeping: a read issued after the kernel has ended returns in
// about 7.3 us, one issued a little before it ends returns when it ends (the spin), one issued
// earlier still sleeps and returns 15-16 us after it was issued (H200, `clreduce-perf floor`'s
// wait rows). So a call whose kernel ends a little after the enqueue returns (device times of
// about 6-15 us) costs 20-23 us where 14-17 would do, if the read goes out at once.
// ReadPacing learns, per kernel, how long to wait before the read: up after the second of two
// reads in a row that slept (a lone slow read is as likely the host's noise), down after one
// that found the kernel done (perhaps we waited longer than needed), and kept after one the
// spin caught: that is where it should be. Steps double while they go one way and halve when
// they turn, so that a kernel's wait is found in a handful of calls (compare's 15) and then
// held closely; bounded. A kernel's first read (programs loading) teaches nothing.
// Once a kernel's reads have slept, its calls flush the queue at once, whatever the wait:
// the flush starts the kernel early (a read issued at once starts it later), so a wait of 0
// with a flush is not a wait of 0 without one.
namespace clreduce {

class ReadPacing {
public:
    static constexpr double kSleptUs = 12.0;  // a read this long slept
    static constexpr double kDoneUs = 8.0;    // a read this short found the kernel done
    static constexpr double kFirstStepUs = 1.0;
    static constexpr double kMinStepUs = 0.25;
    static constexpr double kMaxStepUs = 4.0;
    static constexpr double kMaxDelayUs = 25.0;

    // Microseconds to wait, after the last kernel's enqueue returns, before the read.
    double delay_us() const { return delay_us_; }
    // Whether to flush the queue after the enqueue (then wait delay_us()).
    bool flushes() const { return flushes_; }
    // How long the blocking read took.
    void observe(double read_us);

private:
    void move(int direction);

    double delay_us_ = 0;
    double step_us_ = kFirstStepUs;
    int last_direction_ = 0;
    bool first_ = true;
    bool slept_before_ = false;
    bool flushes_ = false;
};

}  // namespace clreduce
