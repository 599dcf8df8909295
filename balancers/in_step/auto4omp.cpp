// auto4omp's part of ChunkCalculator (balancers/in_step/loop_schedules.h): each loop runs under
// one candidate technique, which ScheduleSelection (Mohammed & Ciorba 2022) chose from what the
// loops before measured.
#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "balancers/in_step/loop_schedules.h"

namespace lbb {

namespace {

const LoopTechniqueInfo& candidate_info(const std::string& name) {
  for (const LoopTechniqueInfo& t : loop_technique_registry())
    if (t.name == name && t.technique != LoopTechnique::kAuto4OMP) return t;
  throw std::invalid_argument("auto4omp: unknown candidate '" + name +
                              "' (a loop schedule of `lbbench list` other than auto4omp)");
}

// The chunks a calculator hands out for n iterations at equal speeds and times, in turn.
int chunk_count(ChunkCalculator c, int n, int P) {
  c.start(n);
  int count = 0;
  for (int i = 0;; i = (i + 1) % P, ++count) {
    const int k = c.next(i);
    if (k == 0) return count;
    c.finished(i, {k, 1.0 * k, 1.0 * k, 1.0 * k});
  }
}

}  // namespace

// The candidates of `candidates` ("gss,fac2,ss"), each with its default parameters.
std::vector<std::string> auto4omp_candidates(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!name.empty()) names.push_back(name);
  }
  if (names.empty()) throw std::invalid_argument("auto4omp: candidates lists no schedule");
  return names;
}

void ChunkCalculator::make_candidates(const Params& params, std::span<const double> speed) {
  for (const std::string& name : auto4omp_candidates(params.text("candidates"))) {
    const LoopTechniqueInfo& info = candidate_info(name);
    candidates_.emplace_back(info.technique, resolve_params(info.params, {}), speed);
    listed_.push_back(static_cast<int>(listed_.size()));
  }
  selection_settings_.strategy = selection_strategy(params.text("select"));
  selection_settings_.reselect = params.real("reselect");
  selection_settings_.high_imbalance = params.real("high_imbalance");
  selection_settings_.low_imbalance = params.real("low_imbalance");
  loop_busy_.assign(speed.size(), 0.0);
}

// Largest chunks first: by the chunks each hands out for the first loop, fewest first.
void ChunkCalculator::order_candidates(int iterations) {
  std::vector<int> count;
  for (const ChunkCalculator& c : candidates_) count.push_back(chunk_count(c, iterations, P_));
  std::vector<int> order(candidates_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return count[a] < count[b]; });
  std::vector<ChunkCalculator> sorted;
  std::vector<int> listed;
  for (int i : order) sorted.push_back(candidates_[i]), listed.push_back(listed_[i]);
  candidates_.swap(sorted);
  listed_.swap(listed);
}

// The last loop's time (its slowest processor's elapsed seconds) and imbalance 1 - mean / max
// go to the selection, which names the candidate of this loop.
void ChunkCalculator::auto_start(int iterations) {
  if (!selection_) {
    order_candidates(iterations);
    selection_.emplace(static_cast<int>(candidates_.size()), selection_settings_);
  } else if (const double most = *std::max_element(loop_busy_.begin(), loop_busy_.end());
             most > 0) {
    const double mean = std::accumulate(loop_busy_.begin(), loop_busy_.end(), 0.0) / P_;
    selection_->observe(most, 1 - mean / most);
  }
  std::fill(loop_busy_.begin(), loop_busy_.end(), 0.0);
  candidates_[selection_->current()].start(iterations);
}

int ChunkCalculator::selected() const {
  return selection_ ? listed_[selection_->current()] : -1;
}

}  // namespace lbb
