#include "harness/formats/trace_workload.h"

#include <algorithm>
#include <mutex>
#include <span>

#include "core/text.h"
#include "harness/formats/csv_trace.h"

namespace lbb {

namespace {

// A run reads its trace at validation and again per run: the last one read is kept.
std::shared_ptr<const Trace> load_trace(const std::string& file, const std::string& format) {
  static std::mutex mutex;
  static std::string key;
  static std::shared_ptr<const Trace> last;
  const std::lock_guard lock(mutex);
  if (!last || key != format + ":" + file) {
    last = std::make_shared<const Trace>(read_trace(file, format));
    key = format + ":" + file;
  }
  return last;
}

class TraceStream final : public CostStream {
 public:
  TraceStream(std::shared_ptr<const Trace> trace, int processors, bool partitioned,
              double default_bytes)
      : trace_(std::move(trace)),
        phases_(trace_->phases_per_step),
        same_ranks_(trace_->ranks == processors) {
    // Where the first step's phases began: before an in-step balancer's moves, where recorded.
    const std::vector<int>& first =
        trace_->start_owner.empty() ? trace_->owner : trace_->start_owner;
    if (!partitioned && !first.empty())
      for (int q : std::span(first).first(std::size_t(phases_) * trace_->modules))
        start_.push_back(q % processors);
    const std::size_t M = trace_->modules;
    for (std::size_t k = 0; k < trace_->step_bytes.size() / M; ++k)
      if ((k + 1) % phases_ == 0)  // a step's last phase: its end
        for (std::size_t m = 0; m < M; ++m) {
          const double b = trace_->step_bytes[k * M + m];
          ends_.push_back(static_cast<std::uint64_t>(b > 0 ? b : default_bytes));
        }
  }
  const std::vector<double>& nominal(int step, int phase) override {
    if (step < 0 || step >= steps() || phase < 0 || phase >= phases_)
      throw std::invalid_argument("the trace has " + std::to_string(steps()) + " steps of " +
                                  std::to_string(phases_) + " phases; step " +
                                  std::to_string(step) + " phase " + std::to_string(phase) +
                                  " asked for");
    row_.resize(trace_->modules);
    for (int m = 0; m < trace_->modules; ++m) row_[m] = trace_->nominal(row(step, phase) + m);
    return row_;
  }
  // The recording's own owners and busy times, when it had P ranks: its balancer's view.
  std::span<const int> recorded_owner(int step, int phase) const override {
    if (!same_ranks_ || trace_->owner.empty()) return {};
    return std::span(trace_->owner).subspan(row(step, phase), trace_->modules);
  }
  std::span<const double> recorded_busy(int step, int phase) const override {
    if (!same_ranks_ || trace_->busy.empty()) return {};
    const std::size_t k = static_cast<std::size_t>(step) * phases_ + phase;
    return std::span(trace_->busy).subspan(k * trace_->ranks, trace_->ranks);
  }
  std::span<const std::uint64_t> state_bytes(int step) const override {
    const std::size_t M = trace_->modules;
    if (ends_.empty() || step < 0 || (step + 1) * M > ends_.size()) return {};
    return std::span(ends_).subspan(step * M, M);
  }
  int steps() const override { return trace_->steps / phases_; }
  // Phase `phase`'s owners in the first step, rank r on processor r mod P.
  std::span<const int> start_owner(int phase) const override {
    if (start_.empty()) return {};
    return std::span(start_).subspan(std::size_t(phase) * trace_->modules, trace_->modules);
  }

 private:
  // Where phase `phase` of step `step` starts in the trace's [step * modules + m] arrays.
  std::size_t row(int step, int phase) const {
    return (static_cast<std::size_t>(step) * phases_ + phase) * trace_->modules;
  }
  std::shared_ptr<const Trace> trace_;
  int phases_;
  bool same_ranks_;
  std::vector<int> start_;           // [phase * modules + m]; empty: the partition places them
  std::vector<std::uint64_t> ends_;  // [step * modules + m]: bytes at its end; empty: constant
  std::vector<double> row_;
};

}  // namespace

TraceWorkload::TraceWorkload(std::shared_ptr<const Trace> trace, double default_bytes,
                             std::optional<ModuleStructure> structure)
    : trace_(std::move(trace)),
      default_bytes_(default_bytes),
      structure_(structure.value_or(trace_->structure)) {}

WorkloadInfo TraceWorkload::info() {
  WorkloadInfo info{
      "trace",
      "an imported load trace for execution.executor: simulate: vt's LBDatafile JSON set "
      "(data.*.json) or a CSV of " +
          std::string(kCsvTraceFormat),
      {
          required(string_param("file", "",
                                "the trace: a directory, a file or a glob (data.*.json, x.csv)")),
          string_param("format", "auto", "auto: by the files' names", {"auto", "vt", "csv"}),
          int_param("state_bytes", 0, "B a move of a task copies where the trace records none", 0,
                    std::int64_t(1) << 40),
          string_param("structure", "recorded",
                       "chain: neighbouring task ids are neighbouring parts of the problem "
                       "(contiguous partitions make sense); independent: no order worth keeping; "
                       "recorded: as lbbench's export wrote it, else independent",
                       {"recorded", "chain", "independent"}),
      },
      [](const Params& p) {
        const std::string& s = p.text("structure");
        return std::make_unique<TraceWorkload>(load_trace(p.text("file"), p.text("format")),
                                               static_cast<double>(p.integer("state_bytes")),
                                               s == "chain" ? std::optional(ModuleStructure::kChain)
                                               : s == "independent"
                                                   ? std::optional(ModuleStructure::kIndependent)
                                                   : std::nullopt);
      },
      [](const Params& p) { return load_trace(p.text("file"), p.text("format"))->modules; },
  };
  info.simulated_only = true;
  info.communicates = [](const Params& p) {
    for (const auto& n : load_trace(p.text("file"), p.text("format"))->neighbours)
      if (!n.empty()) return true;
    return false;
  };
  info.has_coordinates = [](const Params& p) {
    return !load_trace(p.text("file"), p.text("format"))->coords.empty();
  };
  return info;
}

std::shared_ptr<CostStream> TraceWorkload::stream(int processors, bool partitioned) const {
  return std::make_shared<TraceStream>(trace_, processors, partitioned, default_bytes_);
}

// The first step's costs, over its phases.
std::vector<double> TraceWorkload::predicted_weights() const {
  std::vector<double> all(trace_->modules, 0.0);
  for (int ph = 0; ph < phases(); ++ph) {
    const std::vector<double> w = predicted_phase_weights(ph);
    for (int m = 0; m < trace_->modules; ++m) all[m] += w[m];
  }
  return all;
}

std::vector<double> TraceWorkload::predicted_phase_weights(int phase) const {
  std::vector<double> w(trace_->modules);
  for (int m = 0; m < trace_->modules; ++m)
    w[m] = trace_->nominal(static_cast<std::size_t>(phase) * trace_->modules + m);
  return w;
}

std::optional<ModuleGraph> TraceWorkload::communication() const {
  for (const auto& n : trace_->neighbours)
    if (!n.empty()) return ModuleGraph(trace_->neighbours);
  return std::nullopt;
}

std::size_t TraceWorkload::state_bytes(int module) const {
  const double b = trace_->bytes[module];
  return static_cast<std::size_t>(b > 0 ? b : default_bytes_);
}

int TraceWorkload::home(int module, int processors) const {
  const std::int64_t h = trace_->entity[module].home;
  if (h >= 0) return static_cast<int>(h % processors);
  return trace_->owner.empty() ? -1 : trace_->owner[module] % processors;
}

void TraceWorkload::run_module(int, int, int, std::span<std::byte>) {
  throw std::logic_error("a trace has no kernel: it runs under execution.executor: simulate");
}

std::string trace_steps_problem(const Params& params, int steps) {
  try {
    const std::shared_ptr<const Trace> trace =
        load_trace(params.text("file"), params.text("format"));
    const int recorded = trace->steps / trace->phases_per_step;
    if (recorded >= steps) return "";
    return "the trace has " + std::to_string(recorded) + " steps; the run needs " +
           std::to_string(steps) + " (execution.warmup + steps)";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

std::string trace_speeds_note(const Params& params, std::span<const double> speeds) {
  const std::shared_ptr<const Trace> trace = load_trace(params.text("file"), params.text("format"));
  const auto speed = [](std::span<const double> v, std::size_t k) {
    return v.empty() ? 1.0 : v[k % v.size()];
  };
  const std::size_t n = std::max<std::size_t>(
      {speeds.size(), trace->speeds.size(), static_cast<std::size_t>(trace->ranks)});
  bool same = speeds.empty() || trace->speeds.empty() || speeds.size() == trace->speeds.size();
  for (std::size_t k = 0; same && k < n; ++k) same = speed(speeds, k) == speed(trace->speeds, k);
  if (same) return "";
  std::string recorded = trace->speeds.empty() ? "none (all 1)" : "";
  for (std::size_t k = 0; k < trace->speeds.size() && k < 8; ++k) {
    if (k > 0) recorded += ',';
    recorded += format_number(trace->speeds[k]);
  }
  if (trace->speeds.size() > 8) recorded += ",...";
  return params.text("file") + " was recorded at speeds " + recorded +
         " and runs at platform.speeds other than those: its costs are taken at speed 1 (the "
         "recorded times x the recorded speeds), and the run's times follow its own speeds";
}

std::string trace_load_note(const Params& params) {
  const std::shared_ptr<const Trace> trace = load_trace(params.text("file"), params.text("format"));
  if (trace->load.empty()) return "";
  const double most = *std::max_element(trace->load.begin(), trace->load.end());
  return params.text("file") + " was recorded under external load (levels up to " +
         format_number(most) + "): its costs are taken without it (the recorded times / (1 + " +
         "the level)), and only the run's own platform.external_load, if any, loads them";
}

const WorkloadInfo* find_workload_kind(std::string_view name) {
  static const WorkloadInfo trace = TraceWorkload::info();
  for (const WorkloadInfo& info : workload_registry())
    if (info.name == name) return &info;
  return name == trace.name ? &trace : nullptr;
}

std::vector<const WorkloadInfo*> workload_kinds() {
  std::vector<const WorkloadInfo*> all;
  for (const WorkloadInfo& info : workload_registry()) all.push_back(&info);
  all.push_back(find_workload_kind("trace"));
  return all;
}

}  // namespace lbb
