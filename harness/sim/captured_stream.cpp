#include "harness/sim/captured_stream.h"

#include <stdexcept>
#include <string>

namespace lbb {

CapturedStream::CapturedStream(std::span<const double> speed, int modules, int phases, bool resume)
    : speed_(speed.begin(), speed.end()), modules_(modules), phases_(phases), resume_(resume) {
  if (speed_.empty() || modules < 1 || phases < 1)
    throw std::invalid_argument("captured costs: no processors, modules or phases");
}

void CapturedStream::add(const StepRecord& r) {
  const bool phased = phases_ > 1;
  const std::vector<double>& cost = phased ? r.phase_module_cost : r.module_cost;
  const std::vector<int>& owner = phased ? r.phase_module_owner : r.module_owner;
  const std::size_t n = static_cast<std::size_t>(phases_) * modules_;
  if (cost.size() != n || owner.size() != n)
    throw std::invalid_argument("step " + std::to_string(r.step) + ": " + std::to_string(n) +
                                " module costs and owners needed, " + std::to_string(cost.size()) +
                                " recorded");
  for (std::size_t i = 0; i < n; ++i) {
    const int p = owner[i];
    if (p < 0 || p >= static_cast<int>(speed_.size()))
      throw std::invalid_argument("step " + std::to_string(r.step) + ": bad owner");
    nominal_.push_back(cost[i] * speed_[p]);  // as RecordedStream: BspRun's view
    owner_.push_back(p);
  }
  for (std::size_t p = 0; p < speed_.size(); ++p)
    busy_.push_back(p < r.busy.size() ? r.busy[p] : 0.0);
  serial_.push_back(r.serial);
}

const std::vector<double>& CapturedStream::nominal(int step, int phase) {
  if (step < 0 || step >= steps() || phase < 0 || phase >= phases_)
    throw std::invalid_argument("the captured run has " + std::to_string(steps()) +
                                " steps; step " + std::to_string(step) + " asked for");
  row_.assign(nominal_.begin() + at(step, phase), nominal_.begin() + at(step, phase) + modules_);
  return row_;
}

std::span<const int> CapturedStream::recorded_owner(int step, int phase) const {
  return {owner_.data() + at(step, phase), static_cast<std::size_t>(modules_)};
}

// StepRecord::busy sums a step's phases: a phase's own busy times are not kept.
std::span<const double> CapturedStream::recorded_busy(int step, int) const {
  if (phases_ > 1) return {};
  return {busy_.data() + static_cast<std::size_t>(step) * speed_.size(), speed_.size()};
}

double CapturedStream::recorded_serial(int step) const {
  return step >= 0 && step < steps() ? serial_[step] : 0.0;
}

}  // namespace lbb
