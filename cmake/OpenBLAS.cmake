# Debian's OpenMP build of OpenBLAS (BLAS and LAPACK in one library). Inside an OpenMP parallel
# region it runs on the calling thread only, and unlike the serial build it is safe to call from
# many threads at once (the serial build's dpbtrf corrupts results when called concurrently:
# measured here, 19251 of 20000 factorizations wrong on 4 threads). The cache names carry
# "OPENMP" so a build folder configured for another variant cannot keep it.
set(LBB_OPENBLAS_OPENMP_DIR /usr/lib/x86_64-linux-gnu/openblas-openmp)
find_library(LBB_OPENBLAS_OPENMP_LIB NAMES openblas PATHS ${LBB_OPENBLAS_OPENMP_DIR}
             NO_DEFAULT_PATH REQUIRED)
find_path(LBB_OPENBLAS_OPENMP_INCLUDE cblas.h PATHS /usr/include/x86_64-linux-gnu/openblas-openmp
          NO_DEFAULT_PATH REQUIRED)
find_path(LBB_LAPACK_INCLUDE lapack.h REQUIRED)
add_library(lbb_openblas INTERFACE)
target_link_libraries(lbb_openblas INTERFACE ${LBB_OPENBLAS_OPENMP_LIB} OpenMP::OpenMP_CXX)
target_include_directories(lbb_openblas SYSTEM INTERFACE ${LBB_OPENBLAS_OPENMP_INCLUDE}
                           ${LBB_LAPACK_INCLUDE})
