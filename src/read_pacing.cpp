#include "read_pacing.hpp"

#include <algorithm>

namespace clreduce {
namespace {

double average(double before, double newest, bool empty) {
    return empty ? newest : before + ReadPacing::kAverageWeight * (newest - before);
}

}  // namespace

void ReadPacing::observe(double read_us, double call_us) {
    if (first_) {
        first_ = false;
        return;
    }
    const bool slept = read_us > kSleptUs;
    slept_in_a_row_ = slept ? slept_in_a_row_ + 1 : 0;
    if (!paced_) {
        unpaced_us_ = average(unpaced_us_, call_us, !timed_unpaced_);
        timed_unpaced_ = true;
        if (unpaced_left_ > 0) --unpaced_left_;
        if (slept_in_a_row_ >= 2 && unpaced_left_ == 0) {
            paced_ = true;
            paced_calls_ = 0;
            if (delay_us_ == 0) move(+1);
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
    fastest_paced_us_ = std::min(fastest_paced_us_, read_us);
    const double done_us = std::clamp(fastest_paced_us_ + kDoneMarginUs, kDoneUs, kSleptUs - 1);
    if (slept)
        move(+1);
    else if (read_us < done_us)
        move(-1);
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
