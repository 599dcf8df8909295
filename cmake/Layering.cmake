# The layering made true (docs/ARCHITECTURE.md, "Layers"): a library sees its own headers and
# those of the libraries it links to, nothing else. Every header is included by its folder,
# `#include "workloads/workload.h"`; so each folder gets an include root of its own,
# build/include_roots/<folder>/, holding a link to that folder alone (a nested folder keeps its
# path: build/include_roots/harness/exec/harness/exec). A library publishes its
# root, and linking to a library is what makes its headers visible: a balancer including
# "workloads/workload.h" or "kernels/trfd.h" does not compile (tests/layering/ checks it).
function(lbb_include_root target scope folder)
  set(root ${CMAKE_BINARY_DIR}/include_roots/${folder})
  get_filename_component(parent ${root}/${folder} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
  target_include_directories(${target} ${scope} ${root})
endfunction()
