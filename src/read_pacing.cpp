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
        if (slept_in_a_row_ >= 2) {
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
        return;
    }
    if (slept_in_a_row_ >= 2)
        move(+1);
    else if (read_us < kDoneUs)
        move(-1);
}

void ReadPacing::move(int direction) {
    const bool turn = last_direction_ != 0 && direction != last_direction_;
    if (turn)
        step_us_ = std::max(kMinStepUs, step_us_ / 2);
    else if (direction == last_direction_ && !just_turned_)
        step_us_ = std::min(kMaxStepUs, step_us_ * 2);
    just_turned_ = turn;
    last_direction_ = direction;
    delay_us_ = std::clamp(delay_us_ + direction * step_us_, 0.0, kMaxDelayUs);
}

}  // namespace clreduce
