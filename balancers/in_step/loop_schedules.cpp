#include "balancers/in_step/loop_schedules.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <stdexcept>

#include "core/splitmix.h"

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
      {"mfsc",
       T::kMFSC,
       "modified fixed-size chunking: chunks of T / log2 T modules, T = ceil(N / P), as many "
       "as fac2 hands out, without fsc's measured overhead and variance (Ciorba, Iwainsky & "
       "Buder 2018)",
       {}},
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
      {"tfss",
       T::kTFSS,
       "trapezoid factoring self-scheduling: batches of P equal chunks, each the mean of the P "
       "trapezoid chunks it replaces (Chronopoulos, Andonie, Benche & Grosu 2001)",
       {int_param("first", 0, "first trapezoid chunk, modules; 0: ceil(N / 2P)", 0, 1 << 24),
        int_param("last", 1, "last trapezoid chunk, modules", 1, 1 << 24)}},
      {"fiss",
       T::kFISS,
       "fixed increase self-scheduling: B batches of P chunks, each batch's chunk a fixed "
       "increment larger than the last one's, that add up to N (Philip & Das 1997)",
       {int_param("stages", 0, "B, batches; 0: P - 1 (LB4OMP's default), at least 2", 0, 1 << 20)}},
      {"viss",
       T::kVISS,
       "variable increase self-scheduling: batches of P chunks growing from N / (x P), each "
       "batch's increase half the last one's (Philip & Das 1997)",
       {int_param("x", 0, "x of the first chunk N / (x P); 0: P (LB4OMP's default)", 0, 1 << 20)}},
      {"rnd",
       T::kRND,
       "random: each chunk's size drawn uniformly from [low, high] (Ciorba, Iwainsky & Buder "
       "2018)",
       {int_param("low", 0, "smallest chunk, modules; 0: max(1, floor(N / 100P))", 0, 1 << 24),
        int_param("high", 0, "largest chunk, modules; 0: ceil(N / 2P), never below low", 0,
                  1 << 24),
        int_param("seed", 1, "seed of the draws (the same chunks for every run with it)", 0)}},
      {"tap",
       T::kTAP,
       "tapering: guided's ceil(R / P) less a margin that grows with the modules' coefficient "
       "of variation (Lucco 1992)",
       {real_param("cv", 1.0, "coefficient of variation of module times, sigma / mu", 0, 1e3),
        real_param("alpha", 1.0, "scale of cv in v = alpha cv (LB4OMP's default 1)", 0, 1e3),
        int_param("min_chunk", 1, "smallest chunk, modules", 1, 1 << 24)}},
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
      {"mfac",
       T::kMFAC,
       "LB4OMP's mFAC (FACa): factoring's batches, each chunk computed from its batch number "
       "alone, without the shared remainder (Kasielke, Tschueter, Iwainsky, Velten, Ciorba & "
       "Banicescu 2019)",
       {real_param("cv", 1.0, "coefficient of variation of module times, sigma / mu", 0, 1e3)}},
      {"maf",
       T::kMAF,
       "LB4OMP's mAF (AF-a): adaptive factoring on chunk times that include the scheduling "
       "overhead, each chunk's mean one sample (Kasielke, Tschueter, Iwainsky, Velten, Ciorba & "
       "Banicescu 2019)",
       {int_param("probe", 2,
                  "modules a processor measures (in chunks of this size) before "
                  "its chunks follow the formula",
                  1, 1 << 24)}},
      {"bold",
       T::kBOLD,
       "bold: guided chunks shrunk by a margin from the modules' variance and the scheduling "
       "overhead, with the work still in progress estimated from each processor's speed "
       "(Hagerup 1997)",
       {real_param("mu", 1e-3, "mean time of a module, seconds", 1e-12, 1e6),
        real_param("cv", 1.0, "coefficient of variation of module times, sigma / mu", 0, 1e3),
        real_param("overhead", 1e-6, "h, seconds of scheduling overhead per chunk", 0, 1e3)}},
      {"static_steal",
       T::kStaticSteal,
       "LLVM OpenMP's static_steal: static blocks of chunks, one per thread; an idle thread "
       "steals a quarter of another's chunks left (LLVM's kmp_dispatch.cpp)",
       {int_param("chunk", 1, "modules per chunk", 1, 1 << 24)}},
      {"auto4omp",
       T::kAuto4OMP,
       "Auto4OMP: each loop under one of the candidates, chosen by exhaustive search, binary "
       "search over their chunk sizes or an expert rule on the measured imbalance (Mohammed & "
       "Ciorba 2022)",
       {string_param("select", "exhaustive",
                     "exhaustive (each once, then the fastest), binary (over chunk sizes), expert "
                     "(imbalance rules)",
                     {"exhaustive", "binary", "expert"}),
        string_param("candidates", "tss,gss,fac2,mfsc,awf_c,af,ss",
                     "loop schedules to choose among, each with its defaults (ordered by chunk "
                     "size for the search)"),
        real_param("reselect", 0.1,
                   "a kept choice's loop time rising by more than this fraction starts a new "
                   "search (0: never)",
                   0, 1e3),
        real_param("high_imbalance", 0.1, "expert: above this 1 - mean/max, smaller chunks", 0, 1),
        real_param("low_imbalance", 0.02, "expert: below this, larger chunks", 0, 1)}},
  };
  return all;
}

int fsc_chunk(int n, int p, double overhead, double sigma) {
  const int most = (n + p - 1) / p;
  if (p < 2) return std::max(1, n);
  const double k =
      std::pow(std::sqrt(2.0) * n * overhead / (sigma * p * std::sqrt(std::log(p))), 2.0 / 3.0);
  return static_cast<int>(std::clamp(std::ceil(k), 1.0, std::max(1.0, static_cast<double>(most))));
}

int mfsc_chunk(int n, int p) {
  const int t = (n + p - 1) / p;
  if (t < 2) return std::max(1, t);
  return std::max(1, static_cast<int>(std::lround(t / std::log2(t))));
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

int tfss_chunk(int n, int p, int first, int last, int batch) {
  std::int64_t sum = 0;
  for (int k = 0; k < p; ++k) sum += tss_chunk(n, p, first, last, batch * p + k);
  return static_cast<int>((sum + p - 1) / p);
}

int fiss_chunk(int n, int p, int stages, int batch) {
  const double b = stages, x = b + 2;
  const double first = std::ceil(n / (x * p));
  const double increase = std::ceil(2.0 * n * (1 - b / x) / (p * b * (b - 1)));
  return static_cast<int>(std::min(first + batch * increase, static_cast<double>(n)));
}

int viss_chunk(int n, int p, int x, int batch) {
  const double first = static_cast<double>(n) / (static_cast<double>(x) * p);
  return static_cast<int>(
      std::min(std::ceil(first * (2 - std::ldexp(1.0, -batch))), static_cast<double>(n)));
}

int rnd_chunk(std::uint64_t seed, std::uint64_t loop, std::uint64_t chunk, int low, int high) {
  const std::uint64_t draw = splitmix64(splitmix64(splitmix64(seed) ^ loop) ^ chunk);
  return low + static_cast<int>(draw % static_cast<std::uint64_t>(high - low + 1));
}

int tap_chunk(int remaining, int p, double v, int min_chunk) {
  const double t = static_cast<double>(remaining) / p;
  const double k = std::ceil(t + v * v / 2 - v * std::sqrt(2 * t + v * v / 4));
  return static_cast<int>(std::clamp(k, static_cast<double>(min_chunk),
                                     std::max(static_cast<double>(min_chunk), t * p)));
}

double factoring_ratio(int remaining, int p, double cv, bool first_batch) {
  const double b = p * cv / (2.0 * std::sqrt(std::max(1, remaining)));
  return first_batch ? 1.0 + b * b + b * std::sqrt(b * b + 2.0)
                     : 2.0 + b * b + b * std::sqrt(b * b + 4.0);
}

int factoring_chunk(int remaining, int p, double ratio) {
  return std::max(1, static_cast<int>(std::ceil(remaining / (ratio * p))));
}

namespace {

// ceil of a positive size, blind to a rounding error above a whole number: a weight of 1 + 1e-16
// times 250 is 250, not 251 (250 + a rounding error from -O1 vs -O2, or from sums of measured
// times that are equal in exact arithmetic).
double ceil_of_size(double x) {
  return std::ceil(x * (1 - 1e-9));
}

}  // namespace

int af_chunk(int remaining, double mu_i, double d, double t) {
  const double r = remaining;
  d = std::max(0.0, d);  // sums kept as chunks end may leave a zero variance a rounding below 0
  const double x = (d + 2.0 * t * r - std::sqrt(d * d + 4.0 * d * t * r)) / (2.0 * mu_i);
  const double k = ceil_of_size(x);
  return k >= 1 ? static_cast<int>(std::min(k, r)) : 1;
}

double awf_weight(double pi_i, double pi_sum, double inverse_sum, int known, int P) {
  const double mean = known > 0 ? pi_sum / known : 1.0;
  const double pi = pi_i > 0 ? pi_i : mean;
  return P / pi / (inverse_sum + (P - known) / mean);
}

int mfac_chunk(int n, int p, double cv, int batch) {
  int remaining = n, chunk = 0;
  for (int j = 0; j <= batch; ++j) {
    if (j > 0) remaining -= p * chunk;
    if (remaining <= 0) return 0;
    chunk = std::min(n, factoring_chunk(remaining, p, factoring_ratio(remaining, p, cv, j == 0)));
  }
  return chunk;
}

BoldConstants bold_constants(double cv, double overhead_over_mu) {
  BoldConstants k;
  k.a = 2 * cv * cv;
  k.b = k.a > 0 ? 8 * k.a * std::log(8 * k.a) : 0;
  k.c1 = overhead_over_mu / std::log(2.0);
  k.c2 = std::sqrt(2 * std::numbers::pi) * k.c1;
  k.c3 = std::log(k.c2);
  return k;
}

int bold_chunk(const BoldConstants& k, int remaining, int p, double not_finished,
               double unfinished) {
  const double q = static_cast<double>(remaining) / p;
  if (q <= 1) return 1;
  const double r = std::max(static_cast<double>(remaining), unfinished), t = r / p;
  const double ln_q = std::log(q), v = q / (k.b + q);
  const double d = remaining / (1 + 1 / ln_q - v);
  double size = t;
  if (d > k.c2) {
    const double s = k.a * (std::log(d) - k.c3) * (1 + not_finished / (r * p));
    const double w = k.b > 0 ? std::log(v * ln_q) + std::log(k.b) : std::log(ln_q);
    const double margin = std::isfinite(w) ? std::max(0.0, k.c1 * w) : 0.0;
    size = std::min(t, t + s / 2 - std::sqrt(s * (t + s / 4)) + margin);
  }
  return std::max(1, static_cast<int>(size));
}

ChunkCalculator::ChunkCalculator(LoopTechnique technique, const Params& params,
                                 std::span<const double> speed)
    : technique_(technique),
      P_(static_cast<int>(speed.size())),
      weight_(speed.size(), 1.0),
      awf_seconds_(speed.size()),
      awf_iterations_(speed.size()),
      chunks_(speed.size()),
      pi_(speed.size()),
      iterations_(speed.size()),
      sum_(speed.size()),
      sum_sq_(speed.size()),
      mu_(speed.size()),
      var_(speed.size()),
      samples_(speed.size()),
      bold_chunk_(speed.size()),
      bold_rate_(speed.size()),
      bold_start_(speed.size()) {
  if (P_ < 1) throw std::invalid_argument("loop schedule: no processors");
  if (params.has("overhead")) overhead_ = params.real("overhead");
  if (params.has("sigma")) sigma_ = params.real("sigma");
  if (params.has("min_chunk")) min_chunk_ = static_cast<int>(params.integer("min_chunk"));
  if (params.has("first")) first_ = static_cast<int>(params.integer("first"));
  if (params.has("last")) last_ = static_cast<int>(params.integer("last"));
  if (params.has("cv")) cv_ = params.real("cv");
  if (params.has("probe")) probe_ = static_cast<int>(params.integer("probe"));
  if (params.has("stages")) {
    const auto b = params.integer("stages");
    if (b == 1)
      throw std::invalid_argument(
          "fiss: stages must be 0 or >= 2 (the increment divides by B - 1)");
    stages_ = b > 0 ? static_cast<int>(b) : std::max(2, P_ - 1);
  }
  if (params.has("alpha")) alpha_ = params.real("alpha");
  if (params.has("low")) low_ = static_cast<int>(params.integer("low"));
  if (params.has("high")) high_ = static_cast<int>(params.integer("high"));
  if (params.has("seed")) seed_ = static_cast<std::uint64_t>(params.integer("seed"));
  if (params.has("x")) x_ = params.integer("x") > 0 ? static_cast<int>(params.integer("x")) : P_;
  if (params.has("mu")) bold_mu_ = params.real("mu");
  if (params.has("chunk")) steal_chunk_ = static_cast<int>(params.integer("chunk"));
  if (technique == LoopTechnique::kBOLD) bold_ = bold_constants(cv_, overhead_ / bold_mu_);
  if (technique == LoopTechnique::kAuto4OMP) make_candidates(params, speed);
  if (technique == LoopTechnique::kWF) {
    const double total = std::accumulate(speed.begin(), speed.end(), 0.0);
    for (int i = 0; i < P_; ++i) weight_[i] = P_ * speed[i] / total;
  }
}

void ChunkCalculator::start(int iterations) {
  n_ = remaining_ = iterations;
  taken_ = batch_left_ = batches_ = next_first_ = 0;
  ++loops_;
  if (technique_ == LoopTechnique::kStaticSteal) steal_.start(n_, steal_chunk_, P_);
  if (technique_ == LoopTechnique::kAuto4OMP) auto_start(n_);
  bold_m_ = bold_n_ = n_, bold_speed_ = bold_time_ = 0;
  std::fill(bold_chunk_.begin(), bold_chunk_.end(), 0.0);
  std::fill(bold_rate_.begin(), bold_rate_.end(), 0.0);
}

Chunk ChunkCalculator::take(int worker, double now) {
  if (technique_ == LoopTechnique::kBOLD) bold_finished(worker, now);
  if (remaining_ <= 0) return {};
  if (technique_ == LoopTechnique::kStaticSteal || technique_ == LoopTechnique::kAuto4OMP) {
    const Chunk c = technique_ == LoopTechnique::kStaticSteal
                        ? steal_.take(worker)
                        : candidates_[selection_->current()].take(worker, now);
    remaining_ -= c.count;
    taken_ += c.count > 0;
    return c;
  }
  const double want = technique_ == LoopTechnique::kBOLD ? bold_size(worker, now)
                                                         : size_for(worker);  // may pass int
  const int size = !(want >= 1) ? 1 : want >= remaining_ ? remaining_ : static_cast<int>(want);
  const Chunk c{next_first_, size};
  remaining_ -= size;
  next_first_ += size;
  ++taken_;
  return c;
}

// Hagerup 1997: the worker's last chunk is done at `now`. Since the last request every busy
// processor worked at its modelled speed k / (k mu + h); the estimate of the work left loses
// that, and what the worker's own estimate lacked of its whole chunk.
void ChunkCalculator::bold_finished(int worker, double now) {
  bold_n_ -= (now - bold_time_) * bold_speed_;
  bold_time_ = now;
  if (bold_chunk_[worker] > 0) {
    bold_n_ -= bold_chunk_[worker] - (now - bold_start_[worker]) * bold_rate_[worker];
    bold_m_ -= bold_chunk_[worker];
  }
  bold_speed_ -= bold_rate_[worker];
  bold_chunk_[worker] = bold_rate_[worker] = 0;
}

int ChunkCalculator::bold_size(int worker, double now) {
  const int k = std::min(remaining_, std::max(min_chunk_, bold_chunk(bold_, remaining_, P_, bold_m_,
                                                                     std::max(0.0, bold_n_))));
  bold_chunk_[worker] = k;
  bold_rate_[worker] = k / (k * bold_mu_ + overhead_);
  bold_start_[worker] = now;
  bold_speed_ += bold_rate_[worker];
  return k;
}

// A new batch starts when P chunks of the last one were handed out: its chunk from the
// iterations remaining then (Flynn Hummel, Schonberg & Flynn 1992).
int ChunkCalculator::batch_chunk() {
  if (batch_left_ == 0) {
    if (technique_ == LoopTechnique::kAWFB || technique_ == LoopTechnique::kAWFD)
      for (int i = 0; i < P_; ++i) weight_[i] = awf_weight_of(i);
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

double ChunkCalculator::size_for(int worker) {
  switch (technique_) {
    case LoopTechnique::kSS:
      return 1;
    case LoopTechnique::kFSC:
      return fsc_chunk(n_, P_, overhead_, sigma_);
    case LoopTechnique::kMFSC:
      return mfsc_chunk(n_, P_);
    case LoopTechnique::kGSS:
      return gss_chunk(remaining_, P_, min_chunk_);
    case LoopTechnique::kTSS:
      return tss_chunk(n_, P_, first_, last_, taken_);
    case LoopTechnique::kTFSS:
      return tfss_chunk(n_, P_, first_, last_, taken_ / P_);
    case LoopTechnique::kFISS:
      return fiss_chunk(n_, P_, stages_, taken_ / P_);
    case LoopTechnique::kVISS:
      return viss_chunk(n_, P_, x_, taken_ / P_);
    case LoopTechnique::kRND: {
      const int low = low_ > 0 ? low_ : std::max(1, n_ / (100 * P_));
      const int high = std::max(low, high_ > 0 ? high_ : (n_ + 2 * P_ - 1) / (2 * P_));
      return rnd_chunk(seed_, loops_, static_cast<std::uint64_t>(taken_), low, high);
    }
    case LoopTechnique::kTAP:
      return tap_chunk(remaining_, P_, alpha_ * cv_, min_chunk_);
    case LoopTechnique::kAF:
    case LoopTechnique::kMAF:
      return af_size(worker);
    case LoopTechnique::kMFAC:
      return mfac_chunk(n_, P_, cv_, taken_ / P_);
    default:
      break;
  }
  const int k = batch_chunk();
  if (technique_ == LoopTechnique::kFAC || technique_ == LoopTechnique::kFAC2) return k;
  const bool each_chunk = technique_ == LoopTechnique::kAWFC || technique_ == LoopTechnique::kAWFE;
  return ceil_of_size((each_chunk ? awf_weight_of(worker) : weight_[worker]) * k);
}

double ChunkCalculator::awf_weight_of(int worker) const {
  return awf_weight(pi_[worker], pi_sum_, pi_inverse_sum_, pi_known_, P_);
}

// Banicescu & Liu 2000; a processor that has not measured `probe` modules yet takes `probe`, and
// one with no measurement counts at the measured processors' mean and variance.
int ChunkCalculator::af_size(int worker) const {
  if (iterations_[worker] < probe_ || mu_known_ == 0) return probe_;
  const double mean_mu = mu_sum_ / mu_known_, mean_var = var_sum_ / mu_known_;
  const int unmeasured = P_ - mu_known_;
  const double d = d_sum_ + unmeasured * mean_var / mean_mu;
  const double e = e_sum_ + unmeasured / mean_mu;
  if (!(e > 0)) return probe_;
  return af_chunk(remaining_, mu_[worker] > 0 ? mu_[worker] : mean_mu, d, 1.0 / e);
}

void ChunkCalculator::finished(int worker, const ChunkTiming& timing) {
  if (technique_ == LoopTechnique::kAuto4OMP) {
    loop_busy_[worker] += timing.elapsed;
    return candidates_[selection_->current()].finished(worker, timing);
  }
  const bool overhead = technique_ == LoopTechnique::kAWFD || technique_ == LoopTechnique::kAWFE;
  measure_awf(worker, overhead ? timing.elapsed : timing.seconds, timing.iterations);
  measure_af(worker, timing);
}

// The worker's chunk j weighs j in its pi; its old pi leaves the sums, its new one enters them.
void ChunkCalculator::measure_awf(int worker, double seconds, int iterations) {
  double& pi = pi_[worker];
  if (pi > 0) pi_sum_ -= pi, pi_inverse_sum_ -= 1 / pi, --pi_known_;
  const double j = ++chunks_[worker];
  awf_seconds_[worker] += j * seconds;
  awf_iterations_[worker] += j * iterations;
  pi = awf_iterations_[worker] > 0 ? awf_seconds_[worker] / awf_iterations_[worker] : 0;
  if (pi > 0) pi_sum_ += pi, pi_inverse_sum_ += 1 / pi, ++pi_known_;
}

// AF: the moments of every module's time. mAF (LB4OMP's AF-a): each chunk's elapsed time per
// module, overhead included, is one sample; their mean and sample variance.
void ChunkCalculator::measure_af(int worker, const ChunkTiming& timing) {
  double &mu = mu_[worker], &var = var_[worker];
  if (mu > 0) mu_sum_ -= mu, var_sum_ -= var, d_sum_ -= var / mu, e_sum_ -= 1 / mu, --mu_known_;
  iterations_[worker] += timing.iterations;
  if (technique_ == LoopTechnique::kMAF && timing.iterations > 0) {
    const double x = timing.elapsed / timing.iterations, k = ++samples_[worker];
    sum_[worker] += x;
    sum_sq_[worker] += x * x;
    mu = sum_[worker] / k;
    var = k > 1 ? std::max(0.0, (sum_sq_[worker] - k * mu * mu) / (k - 1)) : 0;
  } else if (technique_ != LoopTechnique::kMAF) {
    const double n = iterations_[worker];
    sum_[worker] += timing.seconds;
    sum_sq_[worker] += timing.square_seconds;
    mu = n > 0 ? sum_[worker] / n : 0;
    var = n > 0 ? std::max(0.0, sum_sq_[worker] / n - mu * mu) : 0;
  }
  if (mu > 0) mu_sum_ += mu, var_sum_ += var, d_sum_ += var / mu, e_sum_ += 1 / mu, ++mu_known_;
}

}  // namespace lbb
