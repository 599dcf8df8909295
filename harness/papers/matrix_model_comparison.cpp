#include "harness/papers/matrix_model_comparison.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>

#include "core/text.h"
#include "harness/models/matrix_iterative_model.h"
#include "harness/results/result_schema.h"
#include "harness/stats/sample_summary.h"

namespace lbb {

namespace {

double number_or_nan(const RunRecord& r, const std::string& key) {
  return run_number(r, key).value_or(NAN);
}

// The model's algorithm for a run's dynamic balancer; nullopt: not one the model represents.
std::optional<MatrixModelAlgorithm> algorithm_of(const RunRecord& r) {
  const std::string& d = r.dynamic;
  if (d.empty() || d == "none") return MatrixModelAlgorithm::kNone;
  if (d == "random") return MatrixModelAlgorithm::kRandom;
  if (d == "diffusion") return MatrixModelAlgorithm::kDiffusion;
  if (d == "redistribution") return MatrixModelAlgorithm::kRedistribution;
  return std::nullopt;
}

// alpha and w* from the run's resolved config (its balancer entry's own parameters).
void read_parameters(const RunRecord& r, MatrixModelParams& q) {
  try {
    const YAML::Node entry = YAML::Load(r.config_yaml)["balancers"][0];
    if (entry["alpha"]) q.alpha = entry["alpha"].as<double>();
    if (entry["threshold"]) q.threshold = entry["threshold"].as<double>();
  } catch (const YAML::Exception&) {
    // a run without its config keeps the model's defaults
  }
}

struct Group {
  std::vector<const RunRecord*> runs;
  double median(const std::string& key) const {
    std::vector<double> v;
    for (const RunRecord* r : runs)
      if (std::isfinite(number_or_nan(*r, key))) v.push_back(number_or_nan(*r, key));
    return v.empty() ? NAN : stats::median(v);
  }
};

// The calibration of the header: from the no-balance runs on one processor.
struct Calibration {
  double task_seconds = 0, serial_total = 0, t1 = 0;
  int steps = 0;
  double modules = 0;
};

std::optional<Calibration> calibrate(const Group& baseline) {
  if (baseline.runs.empty()) return std::nullopt;
  Calibration c;
  c.steps = static_cast<int>(baseline.median("steps"));
  c.modules = baseline.median("modules");
  c.t1 = baseline.median("makespan_total");
  const double busy = baseline.median("ideal_total");
  if (c.steps < 1 || !(c.modules > 0) || !(busy > 0) || !(c.t1 > 0)) return std::nullopt;
  c.task_seconds = busy / (c.steps * c.modules);
  c.serial_total = std::max(0.0, c.t1 - busy - baseline.median("balance_total"));
  return c;
}

double modelled_speedup(MatrixModelAlgorithm a, int processors, MatrixModelParams q,
                        const Calibration& c) {
  q.tasks = c.modules;
  q.iterations = c.steps;
  q.task_seconds = c.task_seconds;
  q.crossing = kMatrixModelCrossing;
  q.move_seconds = 0;  // the decision's measured time below carries the balancing cost
  const MatrixModelResult m = solve_matrix_model(a, processors, q);
  return (m.serial + c.serial_total) / (m.total + c.serial_total);
}

}  // namespace

std::vector<ModelSpeedup> compare_matrix_model(const std::vector<RunRecord>& runs) {
  std::map<std::pair<std::string, int>, Group> groups;  // (label, P)
  Group baseline;
  for (const RunRecord& r : runs) {
    if (r.status != "complete" || !algorithm_of(r)) continue;
    const int p = static_cast<int>(r.processors);
    groups[{r.balancer, p}].runs.push_back(&r);
    if (*algorithm_of(r) == MatrixModelAlgorithm::kNone && p == 1) baseline.runs.push_back(&r);
  }
  const std::optional<Calibration> c = calibrate(baseline);
  std::vector<ModelSpeedup> out;
  if (!c) return out;
  for (const auto& [key, g] : groups) {
    const RunRecord& first = *g.runs.front();
    MatrixModelParams q;
    q.topology = parse_topology(first.topology).value_or(TopologyKind::kChain);
    read_parameters(first, q);
    q.decide_seconds = g.median("balance_total") / c->steps;
    const auto algorithm = *algorithm_of(first);
    out.push_back({key.first, key.second, c->t1 / g.median("makespan_total"),
                   modelled_speedup(algorithm, key.second, q, *c)});
    if (algorithm != MatrixModelAlgorithm::kNone) continue;
    // Eq. 16: the ideal bound beside the no-balance runs' ideal (busy / speed) plus serial.
    q.decide_seconds = 0;
    out.push_back({"ideal", key.second, c->t1 / (g.median("ideal_total") + c->serial_total),
                   modelled_speedup(MatrixModelAlgorithm::kIdeal, key.second, q, *c)});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.processors < b.processors; });
  return out;
}

double largest_model_error(const std::vector<ModelSpeedup>& rows) {
  double worst = 0;
  for (const ModelSpeedup& r : rows) worst = std::max(worst, std::abs(r.error()));
  return worst;
}

void print_model_speedups(std::ostream& out, const std::vector<ModelSpeedup>& rows, double within) {
  std::size_t w = 8;
  for (const auto& r : rows) w = std::max(w, r.balancer.size());
  out << "Matrix iterative model (Franklin & Govindan 1995, eq. 17) vs measured speedup over no "
         "balance on 1 processor; mu = "
      << kMatrixModelCrossing << " x w per step (not measured)\n"
      << std::left << std::setw(static_cast<int>(w)) << "balancer" << std::right << std::setw(5)
      << "P" << std::setw(10) << "measured" << std::setw(10) << "model" << std::setw(10) << "error"
      << "  verdict\n";
  int inside = 0;
  for (const auto& r : rows) {
    const bool ok = std::abs(r.error()) <= within;
    inside += ok;
    out << std::left << std::setw(static_cast<int>(w)) << r.balancer << std::right << std::setw(5)
        << r.processors << std::setw(10) << format_number(r.measured, 3) << std::setw(10)
        << format_number(r.model, 3) << std::setw(9) << format_number(100 * r.error(), 3) << "%  "
        << (ok ? "within " : "over ") << format_number(100 * within, 3) << " %\n";
  }
  out << inside << " of " << rows.size() << " within " << format_number(100 * within, 3)
      << " % (the paper: every comparison well below 20 %)\n";
}

}  // namespace lbb
