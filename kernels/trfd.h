#pragma once
// A TRFD-like two-electron integral transformation (the Perfect benchmarks' TRFD, as run by
// Zaki, Li & Parthasarathy 1997): (pq|rs) = sum_ijkl C_ip C_jq C_kr C_ls (ij|kl) over an array
// of n(n+1)/2 x n(n+1)/2 integrals indexed by packed pairs ij = i(i+1)/2 + j, j <= i. It is done
// as two half-transformations with triangular loops, one row (or column) of the array at a
// time. C is row-major n x n: C[k n + r] couples orbital k to transformed orbital r.
// No threads, no balancing.
#include <cstddef>
#include <span>

namespace lbb::kernels {

inline std::size_t pair_count(int n) {
  return static_cast<std::size_t>(n) * (n + 1) / 2;
}
// The packed index of the pair (i, j), j <= i.
inline std::size_t pair_index(int i, int j) {
  return static_cast<std::size_t>(i) * (i + 1) / 2 + static_cast<std::size_t>(j);
}

// First half-transformation of one row: row holds (ij|kl) over packed kl on entry and
// (ij|rs) = sum_kl C_kr C_ls (ij|kl) over packed rs on return. work: n * n doubles.
void first_half_transform(int n, std::span<const double> c, std::span<double> row,
                          std::span<double> work);

// Second half-transformation of one transformed pair rs = pair_index(r, s): column holds
// (ij|rs) over packed ij; writes (pq|rs) = sum_ij C_ip C_jq (ij|rs) for every pq <= rs (the lower
// triangle of the symmetric result) into out[0 .. rs]. work: n * (r + 1) doubles.
void second_half_transform(int n, int r, int s, std::span<const double> c,
                           std::span<const double> column, std::span<double> out,
                           std::span<double> work);

// The plain reference: unpacks the symmetric array `packed` (pair_count^2, both halves) to the
// full n^4 tensor, applies the four quarter-transformations with dgemm and packs the result into
// `out` (pair_count^2, both halves).
void plain_transform(int n, std::span<const double> c, std::span<const double> packed,
                     std::span<double> out);

// Replaces the n x n row-major matrix a by the orthogonal factor Q of its QR decomposition.
void orthogonalize(int n, std::span<double> a);

}  // namespace lbb::kernels
