#include "harness/formats/trace_workload.h"

#include <mutex>

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
  TraceStream(std::shared_ptr<const Trace> trace, int processors, bool partitioned)
      : trace_(std::move(trace)), same_ranks_(trace_->ranks == processors) {
    if (!partitioned && !trace_->owner.empty())
      for (int m = 0; m < trace_->modules; ++m) start_.push_back(trace_->owner[m] % processors);
  }
  const std::vector<double>& nominal(int step, int phase) override {
    if (step < 0 || step >= trace_->steps || phase != 0)
      throw std::invalid_argument("the trace has " + std::to_string(trace_->steps) +
                                  " steps; step " + std::to_string(step) + " asked for");
    const auto first = trace_->cost.begin() + static_cast<std::ptrdiff_t>(step) * trace_->modules;
    row_.assign(first, first + trace_->modules);
    return row_;
  }
  // The recording's own owners and busy times, when it had P ranks: its balancer's view.
  std::span<const int> recorded_owner(int step, int) const override {
    if (!same_ranks_ || trace_->owner.empty()) return {};
    return {trace_->owner.data() + static_cast<std::size_t>(step) * trace_->modules,
            static_cast<std::size_t>(trace_->modules)};
  }
  std::span<const double> recorded_busy(int step, int) const override {
    if (!same_ranks_ || trace_->busy.empty()) return {};
    return {trace_->busy.data() + static_cast<std::size_t>(step) * trace_->ranks,
            static_cast<std::size_t>(trace_->ranks)};
  }
  int steps() const override { return trace_->steps; }
  std::span<const int> start_owner(int) const override { return start_; }

 private:
  std::shared_ptr<const Trace> trace_;
  bool same_ranks_;
  std::vector<int> start_;  // rank r on processor r mod P; empty: the partition places them
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
  return info;
}

std::shared_ptr<CostStream> TraceWorkload::stream(int processors, bool partitioned) const {
  return std::make_shared<TraceStream>(trace_, processors, partitioned);
}

std::vector<double> TraceWorkload::predicted_weights() const {
  return {trace_->cost.begin(), trace_->cost.begin() + trace_->modules};
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

void TraceWorkload::run_module(int, int, int, std::span<std::byte>) {
  throw std::logic_error("a trace has no kernel: it runs under execution.executor: simulate");
}

std::string trace_steps_problem(const Params& params, int steps) {
  try {
    const int recorded = load_trace(params.text("file"), params.text("format"))->steps;
    if (recorded >= steps) return "";
    return "the trace has " + std::to_string(recorded) + " steps; the run needs " +
           std::to_string(steps) + " (execution.warmup + steps)";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

const WorkloadInfo* find_workload_kind(std::string_view name) {
  static const WorkloadInfo trace = TraceWorkload::info();
  if (const WorkloadInfo* info = find_workload(name)) return info;
  return name == trace.name ? &trace : nullptr;
}

std::vector<const WorkloadInfo*> workload_kinds() {
  std::vector<const WorkloadInfo*> all;
  for (const WorkloadInfo& info : workload_registry()) all.push_back(&info);
  all.push_back(find_workload_kind("trace"));
  return all;
}

}  // namespace lbb
