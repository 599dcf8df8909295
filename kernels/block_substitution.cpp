#include "kernels/block_substitution.h"

#include <lapack.h>

#include <algorithm>
#include <cstring>

namespace lbb::kernels {

void poisson_block_band(int lines, int width, std::span<double> ab) {
  const int n = lines * width;
  const int kd = width;
  const int ldab = kd + 1;
  std::fill(ab.begin(), ab.end(), 0.0);
  for (int j = 0; j < n; ++j) {
    ab[kd + static_cast<std::size_t>(j) * ldab] = 4.0;                           // A(j, j)
    if (j % width != 0) ab[kd - 1 + static_cast<std::size_t>(j) * ldab] = -1.0;  // A(j-1, j)
    if (j >= width) ab[static_cast<std::size_t>(j) * ldab] = -1.0;               // A(j-width, j)
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
    double* last = rhs.data() + static_cast<std::size_t>(lines - 1) * width;
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
