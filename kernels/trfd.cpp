#include "kernels/trfd.h"

#include <cblas.h>
#include <lapack.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace lbb::kernels {

void first_half_transform(int n, std::span<const double> c, std::span<double> row,
                          std::span<double> work) {
  const std::size_t un = static_cast<std::size_t>(n);
  if (row.size() < pair_count(n) || work.size() < un * un || c.size() < un * un)
    throw std::invalid_argument("first_half_transform: spans too small");
  // Quarter 1: t[k][s] = sum_l (ij|kl) C_ls, visiting each packed kl once and using it for both
  // (k, l) and (l, k): the inner bound l <= k depends on the outer index.
  double* t = work.data();
  std::fill(t, t + un * un, 0.0);
  const double* cc = c.data();
  for (int k = 0; k < n; ++k)
    for (int l = 0; l <= k; ++l) {
      const double v = row[pair_index(k, l)];
      double* tk = t + k * un;
      const double* cl = cc + l * un;
      for (int s = 0; s < n; ++s) tk[s] += v * cl[s];
      if (l != k) {
        double* tl = t + l * un;
        const double* ck = cc + k * un;
        for (int s = 0; s < n; ++s) tl[s] += v * ck[s];
      }
    }
  // Quarter 2: (ij|rs) = sum_k C_kr t[k][s] for s <= r.
  std::fill(row.begin(), row.begin() + pair_count(n), 0.0);
  for (int r = 0; r < n; ++r) {
    double* out = row.data() + pair_index(r, 0);
    for (int k = 0; k < n; ++k) {
      const double ckr = cc[k * un + r];
      const double* tk = t + k * un;
      for (int s = 0; s <= r; ++s) out[s] += ckr * tk[s];
    }
  }
}

void second_half_transform(int n, int r, int s, std::span<const double> c,
                           std::span<const double> column, std::span<double> out,
                           std::span<double> work) {
  const std::size_t un = static_cast<std::size_t>(n);
  const std::size_t width = static_cast<std::size_t>(r) + 1;
  const std::size_t rs = pair_index(r, s);
  if (column.size() < pair_count(n) || out.size() < rs + 1 || work.size() < un * width ||
      c.size() < un * un || s > r || r >= n)
    throw std::invalid_argument("second_half_transform: bad pair or spans too small");
  // Quarter 3: u[i][q] = sum_j (ij|rs) C_jq, only for q <= r (pq <= rs needs q <= p <= r).
  double* u = work.data();
  std::fill(u, u + un * width, 0.0);
  const double* cc = c.data();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      const double v = column[pair_index(i, j)];
      double* ui = u + i * width;
      const double* cj = cc + j * un;
      for (std::size_t q = 0; q < width; ++q) ui[q] += v * cj[q];
      if (j != i) {
        double* uj = u + j * width;
        const double* ci = cc + i * un;
        for (std::size_t q = 0; q < width; ++q) uj[q] += v * ci[q];
      }
    }
  // Quarter 4: (pq|rs) = sum_i C_ip u[i][q] for pq <= rs: the bound on q depends on p.
  std::fill(out.begin(), out.begin() + rs + 1, 0.0);
  for (int p = 0; p <= r; ++p) {
    const int q_last = p < r ? p : s;
    double* o = out.data() + pair_index(p, 0);
    for (int i = 0; i < n; ++i) {
      const double cip = cc[i * un + p];
      const double* ui = u + i * width;
      for (int q = 0; q <= q_last; ++q) o[q] += cip * ui[q];
    }
  }
}

void plain_transform(int n, std::span<const double> c, std::span<const double> packed,
                     std::span<double> out) {
  const std::size_t un = static_cast<std::size_t>(n), np = pair_count(n);
  if (packed.size() < np * np || out.size() < np * np || c.size() < un * un)
    throw std::invalid_argument("plain_transform: spans too small");
  const std::size_t n2 = un * un, n3 = n2 * un, n4 = n3 * un;
  std::vector<double> a(n4), b(n4);
  auto pair = [](int i, int j) { return i >= j ? pair_index(i, j) : pair_index(j, i); };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l)
          a[((i * un + j) * un + k) * un + l] = packed[pair(i, j) * np + pair(k, l)];
  // Four times: b[s][ijk] = sum_l C_ls a[ijk][l], i.e. b = C^T a^T, which transforms the last
  // index and moves it to the front; after four, b[p][q][r][s] is the transformed tensor.
  for (int quarter = 0; quarter < 4; ++quarter) {
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasTrans, n, static_cast<int>(n3), n, 1.0, c.data(), n,
                a.data(), n, 0.0, b.data(), static_cast<int>(n3));
    a.swap(b);
  }
  for (int p = 0; p < n; ++p)
    for (int q = 0; q <= p; ++q)
      for (int r = 0; r < n; ++r)
        for (int s = 0; s <= r; ++s)
          out[pair_index(p, q) * np + pair_index(r, s)] = a[((p * un + q) * un + r) * un + s];
}

void orthogonalize(int n, std::span<double> a) {
  if (a.size() < static_cast<std::size_t>(n) * n) throw std::invalid_argument("orthogonalize");
  // LAPACK is column-major: factor A^T = Q R; Q's transpose is orthogonal as well.
  std::vector<double> tau(n);
  int info = 0, lwork = -1;
  double query = 0;
  LAPACK_dgeqrf(&n, &n, a.data(), &n, tau.data(), &query, &lwork, &info);
  lwork = std::max(1, static_cast<int>(query));
  std::vector<double> w(lwork);
  LAPACK_dgeqrf(&n, &n, a.data(), &n, tau.data(), w.data(), &lwork, &info);
  if (info != 0) throw std::runtime_error("dgeqrf failed");
  LAPACK_dorgqr(&n, &n, &n, a.data(), &n, tau.data(), w.data(), &lwork, &info);
  if (info != 0) throw std::runtime_error("dorgqr failed");
}

}  // namespace lbb::kernels
