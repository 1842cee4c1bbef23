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
        delay_us_ = std::min(kMaxDelayUs, delay_us_ + kStepUpUs);
    else if (read_us < kPromptUs)
        delay_us_ = std::max(0.0, delay_us_ - (read_us < kIdleUs ? kIdleStepDownUs : kStepDownUs));
    slept_before_ = slept;
}

}  // namespace clreduce
