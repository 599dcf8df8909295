#pragma once

namespace lbb::kernels {

// Makes every BLAS/LAPACK call run on its calling thread only, also outside parallel regions,
// so a module's kernel, its serial reference and a plain benchmark call compute identically.
void use_one_blas_thread();

}  // namespace lbb::kernels
