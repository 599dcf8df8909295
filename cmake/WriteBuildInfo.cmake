execute_process(COMMAND git -C ${SRC} rev-parse HEAD OUTPUT_VARIABLE GIT_SHA
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR GIT_SHA STREQUAL "")
  set(GIT_SHA "unknown")
else()
  execute_process(COMMAND git -C ${SRC} status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(GIT_SHA "${GIT_SHA}-dirty")
  endif()
endif()
configure_file(${IN} ${OUT}.tmp @ONLY)
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
