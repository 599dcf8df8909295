#include "kernels/blas_threads.h"

#include <cblas.h>

namespace lbb::kernels {

void use_one_blas_thread() {
  openblas_set_num_threads(1);
}

}  // namespace lbb::kernels
