#pragma once
// Two-sample rank statistics: the Mann-Whitney U test and the Hodges-Lehmann ratio of two
// positive samples with its distribution-free (Moses) interval.
#include <cstddef>
#include <span>

namespace lbb::stats {

// Samples up to this size with no ties get the exact null distribution of U; larger or tied
// samples the normal approximation with tie and continuity corrections.
inline constexpr std::size_t kExactRankLimit = 25;

// Two-sided p-value of the Mann-Whitney U test (Mann & Whitney 1947) that a and b come from
// one distribution. 1 when either sample is empty.
double mann_whitney_p(std::span<const double> a, std::span<const double> b);

// a / b for two positive samples (times): the Hodges-Lehmann estimate of the log shift, the
// median of all log(a_i) - log(b_j) (Hodges & Lehmann 1963), and the distribution-free interval
// of that shift from the null distribution of U (Moses 1965; Hollander & Wolfe 1999, 4.3).
// For a pure change of scale (b = c a) it estimates c, the ratio of the medians. `level` is the
// interval's exact coverage (below the asked confidence only when even the widest interval is,
// e.g. 3 against 3 repetitions: 90 %). Not finite when a value is not positive.
struct RatioInterval {
  double estimate = 0, low = 0, high = 0, level = 0;
};
RatioInterval ratio_interval(std::span<const double> a, std::span<const double> b,
                             double confidence = 0.95);

}  // namespace lbb::stats
