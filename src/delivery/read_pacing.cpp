#include "delivery/read_pacing.hpp"

#include <algorithm>

namespace clreduce {
namespace {

double average(double before, double newest, bool empty) {
    return empty ? newest : before + ReadPacing::kAverageWeight * (newest - before);
}

}  // namespace

void ReadPacing::observe(double read_us, double call_us, double fastest_read_us) {
    if (first_) {
        first_ = false;
        return;
    }
    const double slept_us = std::min(kSleptUs, fastest_read_us + kSleepGapUs);
    const double done_us = std::min(fastest_read_us + kDoneMarginUs, slept_us - 1);
    const bool slept = read_us > slept_us;
    slept_in_a_row_ = slept ? slept_in_a_row_ + 1 : 0;
    if (!paced_) {
        unpaced_us_ = average(unpaced_us_, call_us, !timed_unpaced_);
        timed_unpaced_ = true;
        if (unpaced_left_ > 0) --unpaced_left_;
        if (slept_in_a_row_ >= 2 && unpaced_left_ == 0) {
            paced_ = true;
            paced_calls_ = 0;
            if (delay_us_ == 0) start_at(unpaced_us_ - fastest_read_us - kStartMarginUs);
        }
        return;
    }
    paced_us_ = average(paced_us_, call_us, paced_calls_ == 0);
    ++paced_calls_;
    if (paced_calls_ >= kTrialReads && paced_us_ > unpaced_us_) {
        paced_ = false;
        slept_in_a_row_ = 0;
        unpaced_left_ = backoff_;
        backoff_ = std::min(kMaxBackoff, backoff_ * 2);
        return;
    }
    if (slept)
        move(+1);
    else if (read_us < done_us)
        move(-1);
}

void ReadPacing::start_at(double delay_us) {
    delay_us_ = std::clamp(delay_us, kFirstUpStepUs, kMaxDelayUs);
    up_step_us_ = kFirstUpStepUs;
    last_direction_ = +1;
}

void ReadPacing::move(int direction) {
    const bool again = direction == last_direction_;
    if (direction > 0) {
        up_step_us_ = again ? std::min(kMaxStepUs, up_step_us_ * 2) : kFirstUpStepUs;
        delay_us_ = std::min(kMaxDelayUs, delay_us_ + up_step_us_);
    } else {
        down_step_us_ = again ? std::min(kMaxStepUs, down_step_us_ * 2) : kFirstDownStepUs;
        delay_us_ = std::max(0.0, delay_us_ - down_step_us_);
    }
    last_direction_ = direction;
}

}  // namespace clreduce
