# Build speed (issue 34: a first ./run.sh on 2 cores in at most 5 minutes). Most of a file's
# compile time goes to the headers it shares with its neighbours (the standard library, CLI11,
# yaml-cpp, nlohmann_json), so the libraries are compiled in batches (CMake's unity build): each
# header is parsed and its inline functions are optimised once per batch, not once per file.
# Kernels and workloads stay one file per object: theirs is the code the suite times, and batching
# could change how the compiler inlines it. docs/evidence/build-time-2026-11-28.md has the figures.
option(LBB_UNITY "Compile the libraries in batches of LBB_UNITY_BATCH files (faster first build)" ON)
set(LBB_UNITY_BATCH 16 CACHE STRING "Source files per batch of a unity build")

# lbb_fast_build(DIR...): batch every lbb_* library defined in DIR or below it, so a library split
# into more libraries or folders needs no change here.
function(lbb_fast_build)
  if(NOT LBB_UNITY)
    return()
  endif()
  foreach(dir IN LISTS ARGN)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target IN LISTS targets)
      get_target_property(type ${target} TYPE)
      if(target MATCHES "^lbb_" AND type MATCHES "LIBRARY$" AND NOT type STREQUAL "INTERFACE_LIBRARY")
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                                                   UNITY_BUILD_BATCH_SIZE ${LBB_UNITY_BATCH})
        lbb_skip_cblas_from_batches(${target})
      endif()
    endforeach()
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    if(subdirs)
      lbb_fast_build(${subdirs})
    endif()
  endforeach()
endfunction()

# OpenBLAS's <cblas.h> and GSL's <gsl/gsl_cblas.h> declare the same enums differently, so a file
# that includes OpenBLAS's header is compiled alone rather than beside a GSL user.
function(lbb_skip_cblas_from_batches target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${dir})
    file(STRINGS ${source} cblas REGEX "^#include <cblas.h>")
    if(cblas)
      set_source_files_properties(${source} DIRECTORY ${dir} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
