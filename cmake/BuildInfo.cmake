# Build provenance for the archive: compiler and flags are fixed at configure time; the git sha is
# refreshed on every build by a small script so an archive never names a stale commit.
string(TOUPPER "${CMAKE_BUILD_TYPE}" _lbb_bt)
set(LBB_COMPILER "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
set(LBB_FLAGS "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_lbb_bt}} ${OpenMP_CXX_FLAGS} (${CMAKE_BUILD_TYPE})")
set(LBB_BUILD_INFO_IN ${CMAKE_SOURCE_DIR}/cmake/build_info.h.in)
set(LBB_BUILD_INFO_OUT ${CMAKE_BINARY_DIR}/generated/lbb/build_info.h)
add_custom_target(lbb_build_info ALL
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR} -DIN=${LBB_BUILD_INFO_IN} -DOUT=${LBB_BUILD_INFO_OUT}
          "-DCOMPILER=${LBB_COMPILER}" "-DFLAGS=${LBB_FLAGS}" "-DBUILD_TYPE=${CMAKE_BUILD_TYPE}" -P ${CMAKE_SOURCE_DIR}/cmake/WriteBuildInfo.cmake
  BYPRODUCTS ${LBB_BUILD_INFO_OUT}
  COMMENT "build provenance"
  VERBATIM)
