#include "kernels/matmul.h"

#include <cblas.h>

#include <cstddef>
#include <stdexcept>

namespace lbb::kernels {

void row_block_product(int rows, int r, int m, std::span<const double> x, std::span<const double> y,
                       std::span<double> z) {
  const auto need = [](int a, int b) { return static_cast<std::size_t>(a) * b; };
  if (x.size() < need(rows, r) || y.size() < need(r, m) || z.size() < need(rows, m))
    throw std::invalid_argument("row_block_product: spans smaller than the matrices");
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, m, r, 1.0, x.data(), r, y.data(), m,
              0.0, z.data(), m);
}

}  // namespace lbb::kernels
