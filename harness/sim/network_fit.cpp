#include "harness/sim/network_fit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "harness/stats/sample_summary.h"

namespace lbb {

namespace {

struct Sample {
  double messages, bytes, seconds;
};

struct Rates {
  double latency = 0, per_byte = 0;
  double relative_error(const Sample& s) const {
    return (latency * s.messages + per_byte * s.bytes) / s.seconds - 1;
  }
};

// Weighted least squares of t = L m + x b, x = 1 / B, each term clamped at 0.
Rates solve(const std::vector<Sample>& samples, const std::vector<double>& weight) {
  double mm = 0, mb = 0, bb = 0, mt = 0, bt = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    const double w = weight[i];
    mm += w * s.messages * s.messages, mb += w * s.messages * s.bytes, bb += w * s.bytes * s.bytes;
    mt += w * s.messages * s.seconds, bt += w * s.bytes * s.seconds;
  }
  const double det = mm * bb - mb * mb;
  Rates r{det != 0 ? (mt * bb - bt * mb) / det : mt / mm, det != 0 ? (mm * bt - mb * mt) / det : 0};
  if (r.per_byte < 0) r = {mt / mm, 0};  // one term alone, refitted
  if (r.latency < 0) r = {0, bb > 0 ? bt / bb : 0};
  return r;
}

// The rates of the least sum of |fitted / measured - 1|, by iteratively reweighted least squares
// (each round weighs a step 1 / (t^2 |its last relative error|)).
LinkFit fit_link(const std::vector<Sample>& samples) {
  LinkFit fit;
  if (samples.empty()) return fit;
  std::vector<double> weight(samples.size());
  Rates r;
  for (int round = 0; round < 50; ++round) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const double t = samples[i].seconds;
      const double e = round == 0 ? 1.0 : std::max(std::abs(r.relative_error(samples[i])), 1e-6);
      weight[i] = 1 / (t * t * e);
    }
    r = solve(samples, weight);
  }
  fit.latency = r.latency;
  fit.bandwidth = r.per_byte > 0 ? 1 / r.per_byte : 0;
  fit.steps = static_cast<int>(samples.size());
  std::vector<double> errors;
  for (const Sample& s : samples) errors.push_back(std::abs(r.relative_error(s)));
  fit.median_error = stats::median(errors);
  return fit;
}

}  // namespace

int exchanges_per_step(const Workload& workload) {
  return workload.phases() + (workload.finish_step_reads_states() ? 1 : 0);
}

NetworkFit fit_network(const RecordedRuns& set,
                       const std::function<int(const RunRecord&)>& exchanges) {
  std::vector<Sample> moves, exchanged;
  NetworkFit fit;
  auto series = [&](const RunRecord& info, const char* name) {
    return set.read_series(info.run, std::string("metric/") + name);
  };
  for (const RunRecord& info : set.runs()) {
    if (info.executor != "mpi" || info.status != "complete") continue;
    const auto m = series(info, "remote_migrations"), b = series(info, "remote_bytes"),
               t = series(info, "remote_seconds");
    if (m.size() != b.size() || m.size() != t.size()) continue;
    ++fit.runs;
    for (std::size_t s = 0; s < m.size(); ++s)
      if (m[s] > 0 && t[s] > 0 && std::isfinite(b[s])) moves.push_back({m[s], b[s], t[s]});
    const std::optional<double> ranks = info.figure("mpi_ranks");
    const int per_step = exchanges && ranks ? exchanges(info) : 0;
    const double messages = per_step > 0 ? (*ranks - 1) * per_step : 0;
    if (messages <= 0) continue;
    const auto xb = series(info, "exchange_bytes"), xt = series(info, "exchange_seconds");
    for (std::size_t s = 0; s < xb.size() && s < xt.size(); ++s)
      if (xt[s] > 0 && std::isfinite(xb[s])) exchanged.push_back({messages, xb[s], xt[s]});
  }
  if (moves.empty() && exchanged.empty())
    throw std::invalid_argument(
        "network calibration needs runs across MPI ranks (mpirun -np R "
        "lbbench run) whose balancers moved modules between ranks or whose ranks exchanged");
  fit.moves = fit_link(moves);
  fit.exchange = fit_link(exchanged);
  return fit;
}

}  // namespace lbb
