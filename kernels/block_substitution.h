#pragma once
// One diagonal block of the 2-D Poisson operator (5-point stencil on a lines x width grid,
// Dirichlet boundary), held as a banded Cholesky factor: the numerical core of block iterative
// substitution (Iqbal, Saltz & Bokhari 1986, section 2). No threads, no balancing.
#include <cstddef>
#include <span>

namespace lbb::kernels {

// Doubles in the upper band storage of an n x n matrix with kd superdiagonals.
inline std::size_t band_storage(int n, int kd) {
  return static_cast<std::size_t>(kd + 1) * static_cast<std::size_t>(n);
}

// n = lines * width, the order of a block's matrix, as the int LAPACK takes. Throws
// std::invalid_argument when it does not fit (int arithmetic wrapped there before).
int band_order(std::size_t lines, std::size_t width);

// Writes the Poisson block of a lines x width grid into LAPACK upper band storage (kd = width).
void poisson_block_band(int lines, int width, std::span<double> ab);

// Factors the band in place (LAPACK dpbtrf). Returns LAPACK's info (0 on success).
int band_cholesky(int n, int kd, std::span<double> ab);

// Solves A x = rhs in place with the factor from band_cholesky (LAPACK dpbtrs).
int band_solve(int n, int kd, std::span<const double> factor, std::span<double> rhs);

// rhs = b - A_up x_up - A_down x_down, where the couplings to the neighbouring blocks are -I on
// the adjacent grid lines: the first line gains `above`, the last gains `below` (either may be
// empty at the physical boundary).
void coupled_rhs(int lines, int width, std::span<const double> b, std::span<const double> above,
                 std::span<const double> below, std::span<double> rhs);

// || rhs - A_block x ||^2 with A_block the Poisson block, applied matrix-free.
double block_residual_sq(int lines, int width, std::span<const double> x,
                         std::span<const double> rhs);

// e^T A e for the Poisson operator of a lines x width grid (the squared A-norm), matrix-free.
double poisson_energy(int lines, int width, std::span<const double> e);

}  // namespace lbb::kernels
