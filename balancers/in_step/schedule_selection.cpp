#include "balancers/in_step/schedule_selection.h"

#include <algorithm>
#include <stdexcept>

namespace lbb {

SelectionStrategy selection_strategy(const std::string& name) {
  if (name == "exhaustive") return SelectionStrategy::kExhaustive;
  if (name == "binary") return SelectionStrategy::kBinary;
  if (name == "expert") return SelectionStrategy::kExpert;
  throw std::invalid_argument("auto4omp: select must be exhaustive, binary or expert, got '" +
                              name + "'");
}

ScheduleSelection::ScheduleSelection(int candidates, SelectionSettings settings)
    : K_(candidates), settings_(settings) {
  if (K_ < 1) throw std::invalid_argument("auto4omp: no candidates");
  restart();
}

// A new search: exhaustive from the first, binary over all, expert from the middle.
void ScheduleSelection::restart() {
  time_.assign(K_, -1.0);
  lo_ = 0, hi_ = K_ - 1;
  searching_ = settings_.strategy != SelectionStrategy::kExpert;
  current_ = settings_.strategy == SelectionStrategy::kExpert ? K_ / 2 : 0;
  if (settings_.strategy == SelectionStrategy::kBinary) binary(-1);
}

void ScheduleSelection::keep(int candidate) {
  current_ = candidate;
  kept_time_ = time_[candidate];
  searching_ = false;
}

void ScheduleSelection::observe(double loop_time, double imbalance) {
  if (settings_.strategy == SelectionStrategy::kExpert) return expert(loop_time, imbalance);
  if (!searching_) {
    if (settings_.reselect > 0 && loop_time > kept_time_ * (1 + settings_.reselect)) restart();
    return;
  }
  time_[current_] = loop_time;
  if (settings_.strategy == SelectionStrategy::kExhaustive)
    exhaustive(loop_time);
  else
    binary(loop_time);
}

void ScheduleSelection::exhaustive(double) {
  if (current_ + 1 < K_) {
    ++current_;
    return;
  }
  keep(static_cast<int>(std::min_element(time_.begin(), time_.end()) - time_.begin()));
}

// Over the chunk-size order the loop time is taken to fall and then rise (overhead on one side,
// imbalance on the other): the fastest lies left of mid + 1 when mid is not slower, else right.
void ScheduleSelection::binary(double) {
  while (lo_ < hi_) {
    const int mid = (lo_ + hi_) / 2;
    for (int probe : {mid, mid + 1})
      if (time_[probe] < 0) {
        current_ = probe;
        return;
      }
    if (time_[mid] <= time_[mid + 1])
      hi_ = mid;
    else
      lo_ = mid + 1;
  }
  if (time_[lo_] < 0) {
    current_ = lo_;
    return;
  }
  keep(lo_);
}

// High imbalance: smaller chunks balance better; low imbalance: larger chunks cost less
// overhead, unless the last such step made the loop slower, which is taken back and held.
void ScheduleSelection::expert(double loop_time, double imbalance) {
  if (before_move_ >= 0 && loop_time > before_move_) {
    ++current_, hold_larger_ = true, before_move_ = -1;
    return;
  }
  before_move_ = -1;
  if (imbalance > settings_.high_imbalance && current_ + 1 < K_) {
    ++current_, hold_larger_ = false;
  } else if (imbalance < settings_.low_imbalance && current_ > 0 && !hold_larger_) {
    --current_, before_move_ = loop_time;
  }
}

}  // namespace lbb
