#include "harness/stats/rank_tests.h"

#include <gsl/gsl_cdf.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace lbb::stats {

namespace {

// P(U <= u) for u = 0 .. m n under the null hypothesis, no ties: the count of arrangements with
// U = u obeys c(i, j, u) = c(i-1, j, u-j) + c(i, j-1, u) (Mann & Whitney 1947, eq. 1).
std::vector<double> exact_u_cdf(std::size_t m, std::size_t n) {
  const std::size_t top = m * n;
  // row[j][u]: counts for the current i and j = 0..n.
  std::vector<std::vector<double>> row(n + 1, std::vector<double>(top + 1, 0.0));
  for (auto& r : row) r[0] = 1;  // i = 0: one arrangement, U = 0
  for (std::size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> next(n + 1, std::vector<double>(top + 1, 0.0));
    next[0][0] = 1;  // j = 0
    for (std::size_t j = 1; j <= n; ++j)
      for (std::size_t u = 0; u <= i * j; ++u)
        next[j][u] = (u >= j ? row[j][u - j] : 0.0) + next[j - 1][u];
    row = std::move(next);
  }
  std::vector<double> cdf(top + 1);
  double total = 0;
  for (std::size_t u = 0; u <= top; ++u) total += row[n][u];
  double run = 0;
  for (std::size_t u = 0; u <= top; ++u) cdf[u] = (run += row[n][u]) / total;
  return cdf;
}

bool exact_applies(std::size_t m, std::size_t n) {
  return m <= kExactRankLimit && n <= kExactRankLimit;
}

}  // namespace

double mann_whitney_p(std::span<const double> a, std::span<const double> b) {
  const std::size_t m = a.size(), n = b.size();
  if (m == 0 || n == 0) return 1;
  // Midranks of the pooled sample; U counts the pairs with a_i > b_j (ties count one half).
  std::vector<std::pair<double, int>> pooled;
  for (double x : a) pooled.push_back({x, 0});
  for (double x : b) pooled.push_back({x, 1});
  std::sort(pooled.begin(), pooled.end());
  const std::size_t N = m + n;
  double rank_sum_a = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < N;) {
    std::size_t j = i;
    while (j < N && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i), midrank = 0.5 * static_cast<double>(i + 1 + j);
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second == 0) rank_sum_a += midrank;
    if (j - i > 1) ties = true;
    tie_term += t * t * t - t;
    i = j;
  }
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  const double u = rank_sum_a - md * (md + 1) / 2, mean = md * nd / 2;
  if (!ties && exact_applies(m, n)) {
    const std::vector<double> cdf = exact_u_cdf(m, n);
    const auto lo = static_cast<std::size_t>(std::min(u, md * nd - u));
    return std::min(1.0, 2 * cdf[lo]);
  }
  const double nn = md + nd;
  const double var = md * nd / 12 * ((nn + 1) - tie_term / (nn * (nn - 1)));
  if (var <= 0) return 1;  // every value equal
  const double z = std::max(0.0, std::abs(u - mean) - 0.5) / std::sqrt(var);
  return std::min(1.0, 2 * gsl_cdf_ugaussian_Q(z));
}

RatioInterval ratio_interval(std::span<const double> a, std::span<const double> b,
                             double confidence) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t m = a.size(), n = b.size();
  const auto positive = [](double x) { return x > 0 && std::isfinite(x); };
  if (m == 0 || n == 0 || !std::all_of(a.begin(), a.end(), positive) ||
      !std::all_of(b.begin(), b.end(), positive))
    return {nan, nan, nan, 0};
  std::vector<double> d;
  d.reserve(m * n);
  for (double x : a)
    for (double y : b) d.push_back(std::log(x) - std::log(y));
  std::sort(d.begin(), d.end());
  const std::size_t mn = d.size();
  const double hl = mn % 2 ? d[mn / 2] : 0.5 * (d[mn / 2 - 1] + d[mn / 2]);
  // c: the largest count with P(U <= c) <= (1 - confidence) / 2; the interval is
  // [d_(c+1), d_(mn-c)] (1-based), of coverage 1 - 2 P(U <= c).
  const double tail = (1 - confidence) / 2;
  std::size_t c = 0;
  double level = 0;
  if (exact_applies(m, n)) {
    const std::vector<double> cdf = exact_u_cdf(m, n);
    while (c + 1 < (mn + 1) / 2 && cdf[c + 1] <= tail) ++c;
    level = 1 - 2 * cdf[c];  // below `confidence` only when even c = 0 falls short
  } else {
    const double mean = static_cast<double>(mn) / 2;
    const double sd = std::sqrt(static_cast<double>(mn) * static_cast<double>(m + n + 1) / 12);
    const double z = gsl_cdf_ugaussian_Qinv(tail);
    c = static_cast<std::size_t>(std::max(0.0, std::floor(mean - z * sd - 0.5)));
    level = confidence;  // the normal approximation's nominal coverage
  }
  // The 1-based rank c+1 is index c; the upper rank mn-c is index mn-c-1.
  return {std::exp(hl), std::exp(d[c]), std::exp(d[mn - 1 - c]), level};
}

}  // namespace lbb::stats
