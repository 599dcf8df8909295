# Build provenance for the archive: compiler and flags are fixed at configure time; the git sha is
# refreshed on every build by a small script so an archive never names a stale commit.
string(TOUPPER "${CMAKE_BUILD_TYPE}" _lbb_bt)
set(LBB_COMPILER "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
# The instruction set is recorded as what -march=native resolved to and its widest vector set.
set(_lbb_isa "portable x86-64")
if(NOT LBB_PORTABLE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -march=native -Q --help=target
                  OUTPUT_VARIABLE _lbb_target ERROR_QUIET)
  string(REGEX MATCH "-march=[ \t]*([a-z0-9_-]+)" _ "${_lbb_target}")
  set(_lbb_arch "${CMAKE_MATCH_1}")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -march=native -dM -E -x c++ /dev/null
                  OUTPUT_VARIABLE _lbb_macros ERROR_QUIET)
  set(_lbb_vector sse2)
  foreach(_isa AVX AVX2 AVX512F)
    if(_lbb_macros MATCHES "__${_isa}__")
      string(TOLOWER ${_isa} _lbb_vector)
    endif()
  endforeach()
  set(_lbb_isa "-march=native = ${_lbb_arch}, ${_lbb_vector}")
endif()
set(LBB_FLAGS "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_lbb_bt}} ${OpenMP_CXX_FLAGS} [${_lbb_isa}] (${CMAKE_BUILD_TYPE})")
set(LBB_BUILD_INFO_IN ${CMAKE_SOURCE_DIR}/cmake/build_info.h.in)
set(LBB_BUILD_INFO_OUT ${CMAKE_BINARY_DIR}/generated/lbb/build_info.h)
add_custom_target(lbb_build_info ALL
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR} -DIN=${LBB_BUILD_INFO_IN} -DOUT=${LBB_BUILD_INFO_OUT}
          "-DCOMPILER=${LBB_COMPILER}" "-DFLAGS=${LBB_FLAGS}" "-DBUILD_TYPE=${CMAKE_BUILD_TYPE}" -P ${CMAKE_SOURCE_DIR}/cmake/WriteBuildInfo.cmake
  BYPRODUCTS ${LBB_BUILD_INFO_OUT}
  COMMENT "build provenance"
  VERBATIM)
