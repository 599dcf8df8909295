# Debian's serial OpenBLAS: BLAS and LAPACK in one library that never starts threads of its own,
# so a module's dgemm or band solve runs on exactly the processor (thread) that owns the module.
set(LBB_OPENBLAS_DIR /usr/lib/x86_64-linux-gnu/openblas-serial CACHE PATH "serial OpenBLAS")
find_library(LBB_OPENBLAS_LIB NAMES openblas PATHS ${LBB_OPENBLAS_DIR} NO_DEFAULT_PATH REQUIRED)
find_path(LBB_CBLAS_INCLUDE cblas.h PATHS /usr/include/x86_64-linux-gnu/openblas-serial NO_DEFAULT_PATH REQUIRED)
find_path(LBB_LAPACK_INCLUDE lapack.h REQUIRED)
add_library(lbb_openblas INTERFACE)
target_link_libraries(lbb_openblas INTERFACE ${LBB_OPENBLAS_LIB})
target_include_directories(lbb_openblas SYSTEM INTERFACE ${LBB_CBLAS_INCLUDE} ${LBB_LAPACK_INCLUDE})
