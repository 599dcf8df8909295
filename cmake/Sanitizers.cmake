# Hardening builds (./run.sh test --sanitize), each in its own build folder:
#   LBB_SANITIZE: every target with AddressSanitizer and UndefinedBehaviorSanitizer (GCC or
#                 clang); a finding aborts the test that hit it.
#   LBB_FUZZ:     clang only; everything instrumented for libFuzzer's coverage feedback as well,
#                 and the fuzz targets of fuzz/ built.
option(LBB_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(LBB_FUZZ "Build the libFuzzer targets in fuzz/ (clang; implies LBB_SANITIZE)" OFF)
if(LBB_SANITIZE OR LBB_FUZZ)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(LBB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "LBB_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
