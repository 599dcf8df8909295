#include "harness/sim/cost_stream.h"

#include <algorithm>
#include <stdexcept>

#include "harness/base/record_level.h"
#include "harness/base/recorded_runs.h"

namespace lbb {

RecordedStream::RecordedStream(const RecordedRuns& set, const std::string& run,
                               std::span<const double> speed, int phases, bool resume)
    : processors_(static_cast<int>(speed.size())),
      phases_(phases),
      resume_(resume),
      speed_(speed.begin(), speed.end()) {
  std::size_t rows = 0, cols = 0, prow = 0, pcols = 0, orow = 0, ocols = 0;
  const std::string prefix = phases > 1 ? "module/phase_" : "module/";
  cost_ = set.read_matrix(run, prefix + "cost", rows, cols);
  const std::vector<double> owner = set.read_matrix(run, prefix + "owner", orow, ocols);
  busy_ = set.read_matrix(run, "proc/busy", prow, pcols);
  if (rows == 0 || orow != rows || ocols != cols || prow != rows ||
      pcols != static_cast<std::size_t>(processors_) || cols % phases != 0)
    throw std::invalid_argument("run " + run + ": " + prefix + "cost, " + prefix +
                                "owner and proc/busy of " + std::to_string(processors_) +
                                " processors needed");
  steps_ = static_cast<int>(rows);
  modules_ = static_cast<int>(cols) / phases;
  serial_ = set.read_series(run, "step/serial");
  if (serial_.size() != rows) throw std::invalid_argument("run " + run + ": step/serial needed");
  owner_.reserve(owner.size());
  for (double q : owner) {
    if (q < 0 || q >= processors_) throw std::invalid_argument("run " + run + ": bad owner");
    owner_.push_back(static_cast<int>(q));
  }
  row_.resize(cols);
}

// The nominal cost the real run's balancer saw: measured x the owner's speed (the threads' view).
const std::vector<double>& RecordedStream::nominal(int step, int phase) {
  if (step < 0 || step >= steps_ || phase < 0 || phase >= phases_)
    throw std::invalid_argument("the recorded run has " + std::to_string(steps_) + " steps of " +
                                std::to_string(phases_) + " phases; step " + std::to_string(step) +
                                " phase " + std::to_string(phase) + " asked for");
  const std::size_t base = (static_cast<std::size_t>(step) * phases_ + phase) * modules_;
  row_.resize(modules_);
  for (int m = 0; m < modules_; ++m) row_[m] = cost_[base + m] * speed_[owner_[base + m]];
  return row_;
}

std::span<const int> RecordedStream::recorded_owner(int step, int phase) const {
  return {owner_.data() + (static_cast<std::size_t>(step) * phases_ + phase) * modules_,
          static_cast<std::size_t>(modules_)};
}

// proc/busy sums a step's phases: a phase's own busy times are not recorded.
std::span<const double> RecordedStream::recorded_busy(int step, int) const {
  if (phases_ > 1) return {};
  return {busy_.data() + static_cast<std::size_t>(step) * processors_,
          static_cast<std::size_t>(processors_)};
}

RankTraffic RecordedStream::recorded_traffic(int step) const {
  return step >= 0 && step < static_cast<int>(traffic_.size()) ? traffic_[step] : RankTraffic{};
}

void RecordedStream::read_rank_traffic(const RecordedRuns& set, const std::string& run) {
  const std::vector<double> exchange = set.read_series(run, "metric/exchange_bytes");
  const std::vector<double> messages = set.read_series(run, "metric/balance_messages");
  const std::vector<double> bytes = set.read_series(run, "metric/balance_bytes");
  if (static_cast<int>(exchange.size()) != steps_ || messages.size() != exchange.size() ||
      bytes.size() != exchange.size())
    throw std::invalid_argument("run " + run + ": metric/exchange_bytes, balance_messages and " +
                                "balance_bytes of every step needed");
  const std::vector<double> seconds = set.read_series(run, "metric/exchange_seconds");
  if (seconds.size() != exchange.size())
    throw std::invalid_argument("run " + run + ": metric/exchange_seconds of every step needed");
  traffic_.clear();
  for (std::size_t s = 0; s < exchange.size(); ++s) {
    traffic_.push_back({exchange[s], messages[s], bytes[s]});
    serial_[s] = std::max(0.0, serial_[s] - seconds[s]);  // the mpi executor charged it there
  }
}

double RecordedStream::recorded_serial(int step) const {
  return step >= 0 && step < static_cast<int>(serial_.size()) ? serial_[step] : 0.0;
}

std::string recorded_run_for(const RecordedRuns& set, const std::string& run,
                             const std::string& workload, int processors) {
  for (const RunRecord& info : set.runs()) {
    if (!run.empty() && info.run != run) continue;
    if (!run.empty()) return run;
    if (info.status == "complete" && (workload.empty() || info.workload == workload) &&
        info.processors == processors && recorded_level(info) == RecordLevel::kModules)
      return info.run;
  }
  throw std::invalid_argument(run.empty() ? "no complete run of " + workload +
                                                " at P = " + std::to_string(processors) +
                                                " recorded with execution.record: modules in the "
                                                "replay set"
                                          : "no run " + run + " in the replay set");
}

}  // namespace lbb
