#pragma once
// The load view as Python sees it and the owners it answers: NumPy arrays over lbbench's own
// buffers (no copy, read-only), and the answer read back as 64-bit integers. The only file
// that uses NumPy's C API (its function table is a static of this file).
#include <cstdint>
#include <string>
#include <vector>

#include "balancers/python/python_interpreter.h"
#include "lbbench/balancer_plugin.h"

namespace lbb {

// Imports NumPy's C API once; throws std::invalid_argument when NumPy cannot be imported.
// Holds the lock.
void require_numpy();

// A types.SimpleNamespace of the view: step, phase, processors, modules as ints; speed, busy,
// proc_offset, proc_neighbour, owner, cost, bytes, migratable, comm_offset, comm_neighbour,
// comm_bytes as read-only 1-D arrays (None where the view has none). `arrays` receives a
// reference to each array, to tell afterwards whether the script kept one.
PyRef view_namespace(const lbb_plugin_view& v, std::vector<PyRef>& arrays);

// The owners in an answer (any 1-D sequence or array of integers), or "" and a problem in
// words in `problem` ("returned a float64 array, not integers").
std::vector<std::int64_t> answer_owners(PyObject* answer, std::string& problem);

}  // namespace lbb
