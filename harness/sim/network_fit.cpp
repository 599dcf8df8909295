#include "harness/sim/network_fit.h"

#include <cmath>
#include <stdexcept>

#include "harness/stats/sample_summary.h"

namespace lbb {

namespace {

struct Sample {
  double messages, bytes, seconds;
};

// t = L m + x b, x = 1 / B, each sample weighted 1 / t^2: the relative error is minimised, so
// that a step a busy host delayed tenfold weighs as one of its size.
LinkFit fit_link(const std::vector<Sample>& samples) {
  LinkFit fit;
  if (samples.empty()) return fit;
  double mm = 0, mb = 0, bb = 0, mt = 0, bt = 0;
  for (const Sample& s : samples) {
    const double w = 1 / (s.seconds * s.seconds);
    mm += w * s.messages * s.messages, mb += w * s.messages * s.bytes, bb += w * s.bytes * s.bytes;
    mt += w * s.messages * s.seconds, bt += w * s.bytes * s.seconds;
  }
  const double det = mm * bb - mb * mb;
  double latency = det != 0 ? (mt * bb - bt * mb) / det : mt / mm;
  double per_byte = det != 0 ? (mm * bt - mb * mt) / det : 0;
  if (per_byte < 0) per_byte = 0, latency = mt / mm;  // one term alone, refitted
  if (latency < 0) latency = 0, per_byte = bb > 0 ? bt / bb : 0;
  fit.latency = latency;
  fit.bandwidth = per_byte > 0 ? 1 / per_byte : 0;
  fit.steps = static_cast<int>(samples.size());
  std::vector<double> errors;
  for (const Sample& s : samples)
    errors.push_back(std::abs((latency * s.messages + per_byte * s.bytes) / s.seconds - 1));
  fit.median_error = stats::median(errors);
  return fit;
}

}  // namespace

int exchanges_per_step(const Workload& workload) {
  return workload.phases() + (workload.finish_step_reads_states() ? 1 : 0);
}

NetworkFit fit_network(const ResultReader& archive,
                       const std::function<int(const RunInfo&)>& exchanges) {
  std::vector<Sample> moves, exchanged;
  NetworkFit fit;
  auto series = [&](const RunInfo& info, const char* name) {
    return archive.read_series(info.id, std::string("metric/") + name);
  };
  for (const RunInfo& info : archive.runs()) {
    const auto executor = info.text.find("executor");
    const auto status = info.text.find("status");
    if (executor == info.text.end() || executor->second != "mpi" || status == info.text.end() ||
        status->second != "complete")
      continue;
    const auto m = series(info, "remote_migrations"), b = series(info, "remote_bytes"),
               t = series(info, "remote_seconds");
    if (m.size() != b.size() || m.size() != t.size()) continue;
    ++fit.runs;
    for (std::size_t s = 0; s < m.size(); ++s)
      if (m[s] > 0 && t[s] > 0 && std::isfinite(b[s])) moves.push_back({m[s], b[s], t[s]});
    const auto ranks = info.number.find("mpi_ranks");
    const int per_step = exchanges && ranks != info.number.end() ? exchanges(info) : 0;
    const double messages = per_step > 0 ? (ranks->second - 1) * per_step : 0;
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
