#include "balancers/in_step/loop_schedules.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace lbb {

std::span<const LoopTechniqueInfo> loop_technique_registry() {
  using T = LoopTechnique;
  const std::string adaptive =
      "fac2's batches weighted by each processor's measured rate (later chunks weigh more), ";
  static const std::vector<LoopTechniqueInfo> all = {
      {"ss", T::kSS, "self-scheduling: an idle thread takes the next module (Tang & Yew 1986)", {}},
      {"fsc",
       T::kFSC,
       "fixed-size chunking: chunks of (sqrt(2) N h / (sigma P sqrt(ln P)))^(2/3) modules "
       "(Kruskal & Weiss 1985)",
       {real_param("overhead", 1e-6, "h, seconds of scheduling overhead per chunk", 0, 1e3),
        real_param("sigma", 1e-5, "standard deviation of a module's time, seconds", 1e-12, 1e3)}},
      {"gss",
       T::kGSS,
       "guided self-scheduling: an idle thread takes ceil(R / P) of the R remaining modules "
       "(Polychronopoulos & Kuck 1987)",
       {int_param("min_chunk", 1, "smallest chunk, modules", 1, 1 << 24)}},
      {"tss",
       T::kTSS,
       "trapezoid self-scheduling: chunks decrease linearly from first to last (Tzen & Ni 1993)",
       {int_param("first", 0, "first chunk, modules; 0: ceil(N / 2P)", 0, 1 << 24),
        int_param("last", 1, "last chunk, modules", 1, 1 << 24)}},
      {"fac",
       T::kFAC,
       "factoring: batches of P equal chunks, each batch sized from the remaining modules and "
       "their coefficient of variation (Flynn Hummel, Schonberg & Flynn 1992)",
       {real_param("cv", 1.0, "coefficient of variation of module times, sigma / mu", 0, 1e3)}},
      {"fac2",
       T::kFAC2,
       "factoring's practical form: batches of P chunks of ceil(R / 2P), each batch half the "
       "remaining modules (Flynn Hummel, Schonberg & Flynn 1992)",
       {}},
      {"wf",
       T::kWF,
       "weighted factoring: fac2's batches, each processor's chunk weighted by its relative speed "
       "(Flynn Hummel, Schmidt, Uma & Wein 1996)",
       {}},
      {"awf_b", T::kAWFB, adaptive + "adapted each batch (Carino & Banicescu 2008)", {}},
      {"awf_c", T::kAWFC, adaptive + "adapted each chunk (Carino & Banicescu 2008)", {}},
      {"awf_d",
       T::kAWFD,
       adaptive + "adapted each batch, times with scheduling overhead (Carino & Banicescu 2008)",
       {}},
      {"awf_e",
       T::kAWFE,
       adaptive + "adapted each chunk, times with scheduling overhead (Carino & Banicescu 2008)",
       {}},
      {"af",
       T::kAF,
       "adaptive factoring: each processor's chunk from every processor's measured mean and "
       "variance of module times (Banicescu & Liu 2000)",
       {int_param("probe", 2,
                  "modules a processor measures (in chunks of this size) before "
                  "its chunks follow the formula",
                  1, 1 << 24)}},
  };
  return all;
}

int fsc_chunk(int n, int p, double overhead, double sigma) {
  const int most = (n + p - 1) / p;
  if (p < 2) return std::max(1, n);
  const double k =
      std::pow(std::sqrt(2.0) * n * overhead / (sigma * p * std::sqrt(std::log(p))), 2.0 / 3.0);
  return std::clamp(static_cast<int>(std::ceil(k)), 1, std::max(1, most));
}

int gss_chunk(int remaining, int p, int min_chunk) {
  return std::min(remaining, std::max(min_chunk, (remaining + p - 1) / p));
}

int tss_chunk(int n, int p, int first, int last, int i) {
  const int f = first > 0 ? first : std::max(1, (n + 2 * p - 1) / (2 * p));
  const int l = std::min(last, f);
  const int chunks = std::max(1, static_cast<int>(std::ceil(2.0 * n / (f + l))));
  const int decrement = chunks > 1 ? (f - l) / (chunks - 1) : 0;
  return std::max(l, f - i * decrement);
}

double factoring_ratio(int remaining, int p, double cv, bool first_batch) {
  const double b = p * cv / (2.0 * std::sqrt(std::max(1, remaining)));
  return first_batch ? 1.0 + b * b + b * std::sqrt(b * b + 2.0)
                     : 2.0 + b * b + b * std::sqrt(b * b + 4.0);
}

int factoring_chunk(int remaining, int p, double ratio) {
  return std::max(1, static_cast<int>(std::ceil(remaining / (ratio * p))));
}

int af_chunk(int remaining, double mu_i, double d, double t) {
  const double r = remaining;
  const double k = (d + 2.0 * t * r - std::sqrt(d * d + 4.0 * d * t * r)) / (2.0 * mu_i);
  return std::max(1, static_cast<int>(std::ceil(k)));
}

std::vector<double> awf_weights(std::span<const double> weighted_seconds,
                                std::span<const double> weighted_iterations) {
  const std::size_t P = weighted_seconds.size();
  std::vector<double> pi(P, 0.0);
  double known = 0;
  int counted = 0;
  for (std::size_t i = 0; i < P; ++i)
    if (weighted_iterations[i] > 0 && weighted_seconds[i] > 0) {
      pi[i] = weighted_seconds[i] / weighted_iterations[i];
      known += pi[i];
      ++counted;
    }
  const double mean = counted ? known / counted : 1.0;
  double inverse_sum = 0;
  for (double& x : pi) inverse_sum += 1.0 / (x = x > 0 ? x : mean);
  std::vector<double> w(P);
  for (std::size_t i = 0; i < P; ++i) w[i] = static_cast<double>(P) / pi[i] / inverse_sum;
  return w;
}

ChunkCalculator::ChunkCalculator(LoopTechnique technique, const Params& params,
                                 std::span<const double> speed)
    : technique_(technique),
      P_(static_cast<int>(speed.size())),
      weight_(speed.size(), 1.0),
      awf_seconds_(speed.size()),
      awf_iterations_(speed.size()),
      chunks_(speed.size()),
      iterations_(speed.size()),
      sum_(speed.size()),
      sum_sq_(speed.size()) {
  if (P_ < 1) throw std::invalid_argument("loop schedule: no processors");
  if (params.has("overhead")) overhead_ = params.real("overhead");
  if (params.has("sigma")) sigma_ = params.real("sigma");
  if (params.has("min_chunk")) min_chunk_ = static_cast<int>(params.integer("min_chunk"));
  if (params.has("first")) first_ = static_cast<int>(params.integer("first"));
  if (params.has("last")) last_ = static_cast<int>(params.integer("last"));
  if (params.has("cv")) cv_ = params.real("cv");
  if (params.has("probe")) probe_ = static_cast<int>(params.integer("probe"));
  if (technique == LoopTechnique::kWF) {
    const double total = std::accumulate(speed.begin(), speed.end(), 0.0);
    for (int i = 0; i < P_; ++i) weight_[i] = P_ * speed[i] / total;
  }
}

void ChunkCalculator::start(int iterations) {
  n_ = remaining_ = iterations;
  taken_ = batch_left_ = batches_ = 0;
}

bool ChunkCalculator::batched() const {
  switch (technique_) {
    case LoopTechnique::kFAC:
    case LoopTechnique::kFAC2:
    case LoopTechnique::kWF:
    case LoopTechnique::kAWFB:
    case LoopTechnique::kAWFC:
    case LoopTechnique::kAWFD:
    case LoopTechnique::kAWFE:
      return true;
    default:
      return false;
  }
}

bool ChunkCalculator::adapts_each_chunk() const {
  return technique_ == LoopTechnique::kAWFC || technique_ == LoopTechnique::kAWFE;
}

int ChunkCalculator::next(int worker) {
  if (remaining_ <= 0) return 0;
  const int size = std::clamp(size_for(worker), 1, remaining_);
  remaining_ -= size;
  ++taken_;
  return size;
}

// A new batch starts when P chunks of the last one were handed out: its chunk from the
// iterations remaining then (Flynn Hummel, Schonberg & Flynn 1992).
int ChunkCalculator::batch_chunk() {
  if (batch_left_ == 0) {
    const bool awf = technique_ == LoopTechnique::kAWFB || technique_ == LoopTechnique::kAWFD;
    if (awf) adapt_weights();
    const double ratio = technique_ == LoopTechnique::kFAC
                             ? factoring_ratio(remaining_, P_, cv_, batches_ == 0)
                             : 2.0;
    batch_size_ = factoring_chunk(remaining_, P_, ratio);
    batch_left_ = P_;
    ++batches_;
  }
  --batch_left_;
  return batch_size_;
}

int ChunkCalculator::size_for(int worker) {
  switch (technique_) {
    case LoopTechnique::kSS:
      return 1;
    case LoopTechnique::kFSC:
      return fsc_chunk(n_, P_, overhead_, sigma_);
    case LoopTechnique::kGSS:
      return gss_chunk(remaining_, P_, min_chunk_);
    case LoopTechnique::kTSS:
      return tss_chunk(n_, P_, first_, last_, taken_);
    case LoopTechnique::kAF:
      return af_size(worker);
    default:
      break;
  }
  if (adapts_each_chunk()) adapt_weights();
  const int k = batch_chunk();
  if (technique_ == LoopTechnique::kFAC || technique_ == LoopTechnique::kFAC2) return k;
  return static_cast<int>(std::ceil(weight_[worker] * k));
}

void ChunkCalculator::adapt_weights() {
  weight_ = awf_weights(awf_seconds_, awf_iterations_);
}

// Banicescu & Liu 2000; a processor that has not measured `probe` modules yet takes `probe`, and
// one with no measurement counts at the measured processors' mean and variance.
int ChunkCalculator::af_size(int worker) const {
  if (iterations_[worker] < probe_) return probe_;
  double mu_known = 0, var_known = 0;
  int known = 0;
  std::vector<double> mu(P_, 0.0), var(P_, 0.0);
  for (int i = 0; i < P_; ++i)
    if (iterations_[i] > 0) {
      mu[i] = sum_[i] / iterations_[i];
      var[i] = std::max(0.0, sum_sq_[i] / iterations_[i] - mu[i] * mu[i]);
      mu_known += mu[i], var_known += var[i], ++known;
    }
  double d = 0, inverse = 0;
  for (int i = 0; i < P_; ++i) {
    const double m = iterations_[i] > 0 ? mu[i] : mu_known / known;
    const double v = iterations_[i] > 0 ? var[i] : var_known / known;
    if (m <= 0) return probe_;  // modules measured at no time: nothing to go by
    d += v / m;
    inverse += 1.0 / m;
  }
  return af_chunk(remaining_, mu[worker], d, 1.0 / inverse);
}

void ChunkCalculator::finished(int worker, const ChunkTiming& timing) {
  const bool overhead = technique_ == LoopTechnique::kAWFD || technique_ == LoopTechnique::kAWFE;
  const double j = ++chunks_[worker];
  awf_seconds_[worker] += j * (overhead ? timing.elapsed : timing.seconds);
  awf_iterations_[worker] += j * timing.iterations;
  iterations_[worker] += timing.iterations;
  sum_[worker] += timing.seconds;
  sum_sq_[worker] += timing.square_seconds;
}

}  // namespace lbb
