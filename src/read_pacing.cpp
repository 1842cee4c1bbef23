#include "read_pacing.hpp"

#include <algorithm>

namespace clreduce {

void ReadPacing::observe(double read_us) {
    if (first_) {
        first_ = false;
        return;
    }
    const bool slept = read_us > kSleptUs;
    if (slept && slept_before_)
        move(+1);
    else if (read_us < kDoneUs)
        move(-1);
    slept_before_ = slept;
}

void ReadPacing::move(int direction) {
    if (direction == last_direction_)
        step_us_ = std::min(kMaxStepUs, step_us_ * 2);
    else if (last_direction_ != 0)
        step_us_ = std::max(kMinStepUs, step_us_ / 2);
    last_direction_ = direction;
    if (direction > 0) flushes_ = true;
    delay_us_ = std::clamp(delay_us_ + direction * step_us_, 0.0, kMaxDelayUs);
}

}  // namespace clreduce
