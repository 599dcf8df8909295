#include "harness/sim/cost_stream.h"

#include <stdexcept>

#include "harness/archive/archive.h"

namespace lbb {

RecordedStream::RecordedStream(const ArchiveReader& archive, const std::string& run,
                               std::span<const double> speed, bool resume)
    : processors_(static_cast<int>(speed.size())),
      resume_(resume),
      speed_(speed.begin(), speed.end()) {
  std::size_t rows = 0, cols = 0, prow = 0, pcols = 0, orow = 0, ocols = 0;
  cost_ = archive.read_matrix(run, "module/cost", rows, cols);
  const std::vector<double> owner = archive.read_matrix(run, "module/owner", orow, ocols);
  busy_ = archive.read_matrix(run, "proc/busy", prow, pcols);
  if (rows == 0 || orow != rows || ocols != cols || prow != rows ||
      pcols != static_cast<std::size_t>(processors_))
    throw std::invalid_argument("run " + run + ": module/cost, module/owner and proc/busy of " +
                                std::to_string(processors_) + " processors needed");
  steps_ = static_cast<int>(rows);
  modules_ = static_cast<int>(cols);
  owner_.reserve(owner.size());
  for (double q : owner) {
    if (q < 0 || q >= processors_) throw std::invalid_argument("run " + run + ": bad owner");
    owner_.push_back(static_cast<int>(q));
  }
  row_.resize(cols);
}

// The nominal cost the real run's balancer saw: measured x the owner's speed (BspRun's view).
const std::vector<double>& RecordedStream::nominal(int step) {
  if (step < 0 || step >= steps_)
    throw std::invalid_argument("the recorded run has " + std::to_string(steps_) + " steps; step " +
                                std::to_string(step) + " asked for");
  const std::size_t base = static_cast<std::size_t>(step) * modules_;
  for (int m = 0; m < modules_; ++m) row_[m] = cost_[base + m] * speed_[owner_[base + m]];
  return row_;
}

std::span<const int> RecordedStream::recorded_owner(int step) const {
  return {owner_.data() + static_cast<std::size_t>(step) * modules_,
          static_cast<std::size_t>(modules_)};
}

std::span<const double> RecordedStream::recorded_busy(int step) const {
  return {busy_.data() + static_cast<std::size_t>(step) * processors_,
          static_cast<std::size_t>(processors_)};
}

std::string recorded_run_for(const ArchiveReader& archive, const std::string& run,
                             const std::string& workload, int processors) {
  for (const RunInfo& info : archive.runs()) {
    if (!run.empty() && info.id != run) continue;
    auto text = [&](const char* k) {
      auto it = info.text.find(k);
      return it == info.text.end() ? std::string() : it->second;
    };
    auto number = [&](const char* k) {
      auto it = info.number.find(k);
      return it == info.number.end() ? -1.0 : it->second;
    };
    if (!run.empty()) return run;
    if (text("status") == "complete" && (workload.empty() || text("workload") == workload) &&
        number("processors") == processors &&
        text("config_yaml").find("module_detail: true") != std::string::npos)
      return info.id;
  }
  throw std::invalid_argument(run.empty() ? "no complete run of " + workload +
                                                " at P = " + std::to_string(processors) +
                                                " with module_detail in the replay archive"
                                          : "no run " + run + " in the replay archive");
}

}  // namespace lbb
