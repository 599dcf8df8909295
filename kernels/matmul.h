#pragma once
// Dense matrix product Z = X Y (Zaki, Li & Parthasarathy 1997, matrix multiplication
// experiment): the product of a block of rows of X with all of Y, by OpenBLAS dgemm on the
// calling thread. No threads, no balancing.
#include <span>

namespace lbb::kernels {

// z (rows x m) = x (rows x r) * y (r x m), all row-major and dense.
void row_block_product(int rows, int r, int m, std::span<const double> x, std::span<const double> y,
                       std::span<double> z);

}  // namespace lbb::kernels
