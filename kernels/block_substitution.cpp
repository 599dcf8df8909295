#include "kernels/block_substitution.h"

#include <lapack.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lbb::kernels {

int band_order(std::size_t lines, std::size_t width) {
  if (width != 0 && lines > static_cast<std::size_t>(INT_MAX) / width)
    throw std::invalid_argument("a block of " + std::to_string(lines) + " lines x " +
                                std::to_string(width) +
                                " columns has more than 2^31 - 1 "
                                "unknowns, the most LAPACK's int indexes");
  return static_cast<int>(lines * width);
}

void poisson_block_band(int lines, int width, std::span<double> ab) {
  const std::size_t n = static_cast<std::size_t>(band_order(lines, width));
  const std::size_t kd = static_cast<std::size_t>(width);
  const std::size_t ldab = kd + 1;
  std::fill(ab.begin(), ab.end(), 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    ab[kd + j * ldab] = 4.0;                        // A(j, j)
    if (j % kd != 0) ab[kd - 1 + j * ldab] = -1.0;  // A(j-1, j)
    if (j >= kd) ab[j * ldab] = -1.0;               // A(j-width, j)
  }
}

int band_cholesky(int n, int kd, std::span<double> ab) {
  const char uplo = 'U';
  const int ldab = kd + 1;
  int info = 0;
  LAPACK_dpbtrf(&uplo, &n, &kd, ab.data(), &ldab, &info);
  return info;
}

int band_solve(int n, int kd, std::span<const double> factor, std::span<double> rhs) {
  const char uplo = 'U';
  const int ldab = kd + 1;
  const int nrhs = 1;
  int info = 0;
  LAPACK_dpbtrs(&uplo, &n, &kd, &nrhs, factor.data(), &ldab, rhs.data(), &n, &info);
  return info;
}

void coupled_rhs(int lines, int width, std::span<const double> b, std::span<const double> above,
                 std::span<const double> below, std::span<double> rhs) {
  std::memcpy(rhs.data(), b.data(), b.size_bytes());
  if (!above.empty())
    for (int c = 0; c < width; ++c) rhs[c] += above[c];
  if (!below.empty()) {
    double* last =
        rhs.data() + static_cast<std::size_t>(lines - 1) * static_cast<std::size_t>(width);
    for (int c = 0; c < width; ++c) last[c] += below[c];
  }
}

double block_residual_sq(int lines, int width, std::span<const double> x,
                         std::span<const double> rhs) {
  double sum = 0;
  for (int r = 0; r < lines; ++r) {
    const double* xr = x.data() + static_cast<std::size_t>(r) * width;
    const double* br = rhs.data() + static_cast<std::size_t>(r) * width;
    for (int c = 0; c < width; ++c) {
      double ax = 4.0 * xr[c];
      if (c > 0) ax -= xr[c - 1];
      if (c + 1 < width) ax -= xr[c + 1];
      if (r > 0) ax -= xr[c - width];
      if (r + 1 < lines) ax -= xr[c + width];
      const double d = br[c] - ax;
      sum += d * d;
    }
  }
  return sum;
}

double poisson_energy(int lines, int width, std::span<const double> e) {
  double sum = 0;
  for (int r = 0; r < lines; ++r) {
    const double* er = e.data() + static_cast<std::size_t>(r) * width;
    for (int c = 0; c < width; ++c) {
      double ae = 4.0 * er[c];
      if (c > 0) ae -= er[c - 1];
      if (c + 1 < width) ae -= er[c + 1];
      if (r > 0) ae -= er[c - width];
      if (r + 1 < lines) ae -= er[c + width];
      sum += er[c] * ae;
    }
  }
  return sum;
}

}  // namespace lbb::kernels
