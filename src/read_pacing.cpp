#include "read_pacing.hpp"

#include <algorithm>

namespace clreduce {

void ReadPacing::observe(double read_us) {
    if (read_us > kSleptUs)
        delay_us_ = std::min(kMaxDelayUs, delay_us_ + kStepUpUs);
    else if (read_us < kPromptUs)
        delay_us_ = std::max(0.0, delay_us_ - kStepDownUs);
}

}  // namespace clreduce
