#pragma once
// When a synchronous call issues its read. NVIDIA's blocking OpenCL read waits for the kernel
// by spinning briefly, then sleeping: a read issued after the kernel has ended returns soon,
// one issued a little before it ends returns when it ends (the spin), one issued earlier still
// sleeps and returns well after the kernel's end (`clreduce-perf floor`'s wait rows;
// docs/performance.md, "What bounds a call"). So a call whose kernel ends a little after the
// enqueue returns costs several microseconds more than it needs to if the read goes out at once.
//
// ReadPacing learns, per kernel, whether to pace its reads and by how much. A kernel starts
// unpaced: the read goes out at once. Two reads in a row that slept (a lone slow one is as
// likely the host's noise) start pacing: the call flushes the queue after the enqueue (the
// kernel starts early) and waits delay_us() before the read. The first wait is where the
// unpaced calls put the kernel's end (their average time less the fastest read, less
// kStartMarginUs), so that a long kernel starts near its best wait. The wait goes up after a
// read that slept, in steps of 1, 2, 4, ... us while they keep sleeping; it comes down after
// one that found the kernel done, in steps of 1/8, 1/4, ... us while they keep finding it
// done; it is kept after one the driver's spin caught. A turn starts the steps again, so a
// sleep (several microseconds lost) is followed by several small steps down (fractions of a
// microsecond each): near the best wait, about one call in five sleeps (the unit tests'
// simulated kernels). The wait is a busy wait, at most kMaxDelayUs, which covers the longest
// kernels of large GPUs: a polled read spins while the kernel runs anyway.
// Paced calls must pay: once a few have been timed, pacing stops whenever their average
// time (from the enqueue to the result) is above that of the unpaced ones, for 8 calls, then
// 16, ... up to 1024 (each time it did not pay); the learned wait is kept for when it starts
// again. What "slept" and "done" mean is relative to the fastest read seen (any kernel, the
// caller's to keep): a read of a finished kernel, which depends on the host and on how the
// result is read (blocking or polled). A read
// slept when it took kSleepGapUs more than that (and at most kSleptUs), and found the kernel
// done when it was within kDoneMarginUs of it. A kernel's first read (programs loading)
// teaches nothing.

namespace clreduce {

class ReadPacing {
public:
    static constexpr double kSleptUs = 12.0;       // a read this long slept
    static constexpr double kSleepGapUs = 5.0;     // and one this much slower than the fastest
    static constexpr double kDoneMarginUs = 0.75;  // a read this close to the fastest found the kernel done
    static constexpr double kFirstUpStepUs = 1.0;
    static constexpr double kFirstDownStepUs = 0.125;
    static constexpr double kMaxStepUs = 16.0;
    static constexpr double kMaxDelayUs = 2000.0;
    static constexpr double kStartMarginUs = 2.0;
    static constexpr int kTrialReads = 4;    // paced calls timed before they are judged
    static constexpr int kFirstBackoff = 8;  // unpaced calls after pacing did not pay
    static constexpr int kMaxBackoff = 1024;
    static constexpr double kAverageWeight = 0.25;  // of the newest call in the averages

    // Whether to flush the queue after the enqueue, then wait delay_us() before the read.
    bool paced() const { return paced_; }
    // Microseconds to wait, after the last kernel's enqueue returns, before the read (paced).
    double delay_us() const { return delay_us_; }
    // How long the read took, the call from the enqueue's return to the result, and the
    // fastest read seen so far (this one included).
    void observe(double read_us, double call_us, double fastest_read_us);

private:
    void start_at(double delay_us);
    void move(int direction);

    double delay_us_ = 0;
    double up_step_us_ = kFirstUpStepUs;
    double down_step_us_ = kFirstDownStepUs;
    int last_direction_ = 0;
    bool first_ = true;
    int slept_in_a_row_ = 0;
    bool paced_ = false;
    int paced_calls_ = 0;
    int unpaced_left_ = 0;  // calls before pacing may start again
    int backoff_ = kFirstBackoff;
    bool timed_unpaced_ = false;
    double unpaced_us_ = 0;  // average call time, unpaced
    double paced_us_ = 0;    // and paced, since pacing last started
};

}  // namespace clreduce
