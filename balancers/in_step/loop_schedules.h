#pragma once
// Dynamic loop self-scheduling (DLS): idle processors take the next chunk of a loop's remaining
// iterations, and each technique says how large that chunk is. One ChunkCalculator per
// technique serves the self-scheduled executor and the simulator alike; it knows iterations,
// processors, its parameters and, for the adaptive techniques, the chunks' measured times.
// Not thread-safe: the caller hands out chunks under its own lock.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "balancers/in_step/schedule_selection.h"
#include "balancers/in_step/static_steal.h"
#include "core/params.h"

namespace lbb {

enum class LoopTechnique {
  kSS,    // Tang & Yew 1986's self-scheduling: one iteration at a time
  kFSC,   // Kruskal & Weiss 1985: fixed-size chunks from overhead and variance
  kMFSC,  // Ciorba, Iwainsky & Buder 2018: fixed-size chunks, as many as FAC2 hands out
  kGSS,   // Polychronopoulos & Kuck 1987: guided, ceil(R / P)
  kTSS,   // Tzen & Ni 1993: trapezoid, linearly decreasing
  kTFSS,  // Chronopoulos, Andonie, Benche & Grosu 2001: TSS's chunks averaged over batches of P
  kFISS,  // Philip & Das 1997: fixed increase, B batches whose chunk grows by a constant
  kVISS,  // Philip & Das 1997: variable increase, each batch's increase half the last one's
  kRND,   // Ciorba, Iwainsky & Buder 2018: chunk sizes drawn uniformly from a range
  kTAP,   // Lucco 1992: tapering, GSS's share less a margin for the iterations' variance
  kFAC,   // Flynn Hummel, Schonberg & Flynn 1992: factoring, batches from mean and variance
  kFAC2,  // Flynn Hummel, Schonberg & Flynn 1992: factoring's practical form, halving batches
  kWF,    // Flynn Hummel, Schmidt, Uma & Wein 1996: FAC2 batches weighted by processor speed
  kAWFB,  // Carino & Banicescu 2008: weights adapted each batch, from chunk compute times
  kAWFC,  // Carino & Banicescu 2008: weights adapted each chunk, from chunk compute times
  kAWFD,  // Carino & Banicescu 2008: as B, times including the scheduling overhead
  kAWFE,  // Carino & Banicescu 2008: as C, times including the scheduling overhead
  kAF,    // Banicescu & Liu 2000: adaptive factoring, chunks from measured mean and variance
  kMFAC,  // LB4OMP's mFAC (FACa): FAC's batches from the batch index alone, no shared remainder
  kMAF,   // LB4OMP's mAF (AF-a): AF on chunk times with the scheduling overhead, chunk means
  kBOLD,  // Hagerup 1997: bold, chunks from mean, variance, overhead and the work in progress
  kStaticSteal,  // LLVM's static_steal: static blocks of chunks, idle threads steal a quarter
  kAuto4OMP,     // Mohammed & Ciorba 2022: each loop under a candidate its selection chose
};

struct LoopTechniqueInfo {
  std::string name;  // the config's schedule name
  LoopTechnique technique;
  std::string summary;  // one line, with its paper
  std::vector<ParamSpec> params;
};

// Every technique, in the order `lbbench list` shows them (after the OpenMP schedules).
std::span<const LoopTechniqueInfo> loop_technique_registry();

// The measured times of one chunk, reported when it is done.
struct ChunkTiming {
  int iterations = 0;
  double seconds = 0;         // running its iterations
  double square_seconds = 0;  // sum over its iterations of the squared seconds
  double elapsed = 0;         // from asking for it to finishing it: seconds + scheduling overhead
};

// The chunk formulas, pure functions of what they name. R: remaining iterations, P: processors.
// Kruskal & Weiss 1985: (sqrt(2) N h / (sigma P sqrt(ln P)))^(2/3), within [1, ceil(N / P)].
int fsc_chunk(int n, int p, double overhead, double sigma);
// Ciorba, Iwainsky & Buder 2018: T / log2 T rounded to the nearest, T = ceil(N / P), so that
// the N / K chunks are FAC2's P log2(N / P); T itself below 2.
int mfsc_chunk(int n, int p);
// Polychronopoulos & Kuck 1987: ceil(R / P), at least min_chunk.
int gss_chunk(int remaining, int p, int min_chunk);
// Tzen & Ni 1993: chunk i of a trapezoid from `first` down to `last` over N iterations
// (first 0: ceil(N / 2P)): first - i floor((first - last) / (C - 1)), C = ceil(2N / (first +
// last)), never below last.
int tss_chunk(int n, int p, int first, int last, int i);
// Chronopoulos, Andonie, Benche & Grosu 2001: batch b's P equal chunks, each the mean of the P
// TSS chunks b P, ..., b P + P - 1 it replaces, rounded up.
int tfss_chunk(int n, int p, int first, int last, int batch);
// Philip & Das 1997: batch b's chunk K_0 + b delta over B stages, X = B + 2, K_0 = ceil(N / XP),
// delta = ceil(2 N (1 - B / X) / (P B (B - 1))); B >= 2. The B batches add up to N.
int fiss_chunk(int n, int p, int stages, int batch);
// Philip & Das 1997: batch b's chunk ceil(K_0 (2 - 2^-b)), K_0 = N / (x P): K_0 first, then each
// batch adds half the last batch's increase.
int viss_chunk(int n, int p, int x, int batch);
// Ciorba, Iwainsky & Buder 2018: a chunk drawn uniformly from [low, high], reproducibly from the
// seed, the loop's number and the chunk's number in its loop (SplitMix64, core/splitmix.h).
int rnd_chunk(std::uint64_t seed, std::uint64_t loop, std::uint64_t chunk, int low, int high);
// Lucco 1992: ceil(T + v^2 / 2 - v sqrt(2T + v^2 / 4)), T = R / P, v = alpha sigma / mu, at
// least min_chunk; v 0 is GSS's ceil(R / P).
int tap_chunk(int remaining, int p, double v, int min_chunk);
// Flynn Hummel, Schonberg & Flynn 1992: the batch factor x_j from b_j = P cv / (2 sqrt(R_j)):
// x_0 = 1 + b^2 + b sqrt(b^2 + 2), x_j = 2 + b^2 + b sqrt(b^2 + 4) after the first batch.
double factoring_ratio(int remaining, int p, double cv, bool first_batch);
// The batch's chunk, ceil(R_j / (x_j P)).
int factoring_chunk(int remaining, int p, double ratio);
// Banicescu & Liu 2000: processor i's chunk (D + 2TR - sqrt(D^2 + 4DTR)) / (2 mu_i), where
// D = sum_j sigma_j^2 / mu_j and T = 1 / sum_j (1 / mu_j).
int af_chunk(int remaining, double mu_i, double d, double t);
// Carino & Banicescu 2008: processor i's weight w_i = P (1 / pi_i) / sum_k (1 / pi_k), where
// pi_i = sum_j j t_ij / sum_j j n_ij over its chunks j, from pi_i and the sums of pi and 1 / pi
// over the `known` processors measured so far; a processor not measured yet (pi 0) counts at
// their mean pi (every weight 1 when none is).
double awf_weight(double pi_i, double pi_sum, double inverse_sum, int known, int P);
// LB4OMP's mFAC: batch b's chunk from b alone, R_0 = N, R_{j+1} = R_j - P K_j, K_j FAC's
// ceil(R_j / (x_j P)); 0 once the modelled remainder is spent.
int mfac_chunk(int n, int p, double cv, int batch);

// Hagerup 1997's BOLD constants from cv = sigma / mu and h / mu: a = 2 cv^2, b = 8a ln 8a,
// c1 = h / (mu ln 2), c2 = sqrt(2 pi) c1, c3 = ln c2.
struct BoldConstants {
  double a = 0, b = 0, c1 = 0, c2 = 0, c3 = 0;
};
BoldConstants bold_constants(double cv, double overhead_over_mu);
// The chunk for R unallocated tasks on P processors, M tasks not finished (unallocated or in
// progress) and an estimate `unfinished` of the work left in tasks (in-progress chunks counted
// by their estimated progress): q = R / P; 1 for q <= 1; else r = max(R, unfinished), t = r / P,
// v = q / (b + q), d = R / (1 + 1 / ln q - v); t for d <= c2; else
// min(t, t + s/2 - sqrt(s (t + s/4)) + max(0, c1 w)), s = a (ln d - c3)(1 + M / (r P)),
// w = ln(v ln q) + ln b (ln ln q for b <= 0); truncated, at least 1.
int bold_chunk(const BoldConstants& k, int remaining, int p, double not_finished,
               double unfinished);

// auto4omp's `candidates` ("gss, fac2, ss") as names; throws std::invalid_argument for none.
std::vector<std::string> auto4omp_candidates(const std::string& list);

class ChunkCalculator {
 public:
  // params: resolved against the technique's specs; speed: the processors' relative speeds
  // (weighted factoring's weights).
  ChunkCalculator(LoopTechnique technique, const Params& params, std::span<const double> speed);

  void start(int iterations);  // a new loop; what the adaptive ones measured is kept
  // `worker`'s next chunk at `now` (seconds since the loop started; BOLD reads it): the next
  // remaining iterations in order, or, for static_steal, from its own or another's range;
  // count 0 when none is left for it.
  Chunk take(int worker, double now = 0);
  int next(int worker) { return take(worker).count; }
  void finished(int worker, const ChunkTiming& timing);  // a chunk of `worker`'s is done
  int remaining() const { return remaining_; }
  // auto4omp: the candidate the current loop runs under, as listed in `candidates` (else -1).
  int selected() const;

 private:
  double size_for(int worker);
  int batch_chunk();
  double awf_weight_of(int worker) const;
  int af_size(int worker) const;
  void measure_awf(int worker, double seconds, int iterations);
  void measure_af(int worker, const ChunkTiming& timing);
  int bold_size(int worker, double now);
  void make_candidates(const Params& params, std::span<const double> speed);
  void auto_start(int iterations);
  void order_candidates(int iterations);
  void bold_finished(int worker, double now);

  const LoopTechnique technique_;
  const int P_;
  int min_chunk_ = 1, first_ = 0, last_ = 1, probe_ = 1, stages_ = 2, x_ = 1;
  double overhead_ = 0, sigma_ = 0, cv_ = 0, alpha_ = 1;
  int low_ = 0, high_ = 0;                 // RND's range as given (0: its default)
  std::uint64_t seed_ = 1, loops_ = 0;     // loops_: start() calls, RND's draws differ per loop
  int n_ = 0, remaining_ = 0, taken_ = 0;  // taken_: chunks handed out in this loop
  int next_first_ = 0;                     // the next iteration in order
  StealRanges steal_;                      // static_steal's ranges of chunks of steal_chunk_
  int steal_chunk_ = 1;
  int batch_left_ = 0, batch_size_ = 0, batches_ = 0;
  std::vector<double> weight_;  // WF's; AWF-B's and AWF-D's as their batch began
  // Measured over the run, per processor and summed over the processors measured, kept as each
  // chunk ends so that a chunk costs the same whatever P. AWF: weighted sums, chunks, pi (0 until
  // measured), and the sums of pi and 1 / pi.
  std::vector<double> awf_seconds_, awf_iterations_, chunks_, pi_;
  double pi_sum_ = 0, pi_inverse_sum_ = 0;
  int pi_known_ = 0;
  // AF: iteration moments, mean mu (0 until measured) and variance, and the sums of mu,
  // variance, variance / mu and 1 / mu.
  std::vector<double> iterations_, sum_, sum_sq_, mu_, var_;
  double mu_sum_ = 0, var_sum_ = 0, d_sum_ = 0, e_sum_ = 0;
  int mu_known_ = 0;
  std::vector<double> samples_;  // mAF: chunks measured, each one sample of its mean
  // BOLD (Hagerup 1997): its constants, mu and h in seconds; per loop the tasks not finished
  // (M), the estimated work left (N), the summed modelled speed of the busy processors and the
  // time it was last updated; per processor its chunk in progress, its speed and start.
  BoldConstants bold_;
  double bold_mu_ = 1e-3;
  double bold_m_ = 0, bold_n_ = 0, bold_speed_ = 0, bold_time_ = 0;
  std::vector<double> bold_chunk_, bold_rate_, bold_start_;
  // auto4omp: the candidates in chunk-size order (largest first) with their places in the list
  // as given, the selection over them, and the processors' elapsed seconds in this loop.
  std::vector<ChunkCalculator> candidates_;
  std::vector<int> listed_;
  std::optional<ScheduleSelection> selection_;
  SelectionSettings selection_settings_;
  std::vector<double> loop_busy_;
};

}  // namespace lbb
