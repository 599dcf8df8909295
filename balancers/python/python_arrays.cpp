#include "balancers/python/python_arrays.h"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <stdexcept>

namespace lbb {

namespace {

// A read-only array over n values at data, which the caller keeps alive; None for null.
PyRef wrap(const void* data, npy_intp n, int type, std::vector<PyRef>& arrays) {
  if (!data) return PyRef(Py_NewRef(Py_None));
  PyRef a(PyArray_SimpleNewFromData(1, &n, type, const_cast<void*>(data)));
  if (!a) throw std::runtime_error("NumPy could not wrap the view: " + take_python_error());
  PyArray_CLEARFLAGS(reinterpret_cast<PyArrayObject*>(a.get()), NPY_ARRAY_WRITEABLE);
  arrays.emplace_back(Py_NewRef(a.get()));
  return a;
}

void put(PyObject* dict, const char* key, PyRef value) {
  PyDict_SetItemString(dict, key, value.get());
}

}  // namespace

void require_numpy() {
  static bool ready = false;  // read and written under the lock
  if (ready) return;
  if (_import_array() < 0)
    throw std::invalid_argument("NumPy does not import (Debian's python3-numpy): " +
                                take_python_error());
  ready = true;
}

PyRef view_namespace(const lbb_plugin_view& v, std::vector<PyRef>& arrays) {
  const npy_intp p = v.processors, m = v.modules;
  const npy_intp links = v.comm_offset ? v.comm_offset[m] : 0;
  PyRef d(PyDict_New());
  put(d.get(), "step", PyRef(PyLong_FromLong(v.step)));
  put(d.get(), "phase", PyRef(PyLong_FromLong(v.phase)));
  put(d.get(), "processors", PyRef(PyLong_FromLong(v.processors)));
  put(d.get(), "modules", PyRef(PyLong_FromLong(v.modules)));
  put(d.get(), "speed", wrap(v.speed, p, NPY_DOUBLE, arrays));
  put(d.get(), "busy", wrap(v.busy, p, NPY_DOUBLE, arrays));
  put(d.get(), "proc_offset", wrap(v.proc_offset, p + 1, NPY_INT, arrays));
  put(d.get(), "proc_neighbour",
      wrap(v.proc_neighbour, v.proc_offset ? v.proc_offset[p] : 0, NPY_INT, arrays));
  put(d.get(), "owner", wrap(v.owner, m, NPY_INT, arrays));
  put(d.get(), "cost", wrap(v.cost, m, NPY_DOUBLE, arrays));
  put(d.get(), "bytes", wrap(v.bytes, m, NPY_UINT64, arrays));
  put(d.get(), "migratable", wrap(v.migratable, m, NPY_UINT8, arrays));
  put(d.get(), "comm_offset", wrap(v.comm_offset, m + 1, NPY_INT, arrays));
  put(d.get(), "comm_neighbour", wrap(v.comm_neighbour, links, NPY_INT, arrays));
  put(d.get(), "comm_bytes", wrap(v.comm_bytes, links, NPY_DOUBLE, arrays));
  static PyObject* make = nullptr;  // types.SimpleNamespace, looked up once under the lock
  if (!make) {
    PyRef types(PyImport_ImportModule("types"));
    make = types ? PyObject_GetAttrString(types.get(), "SimpleNamespace") : nullptr;
    if (!make) throw std::runtime_error("types.SimpleNamespace: " + take_python_error());
  }
  PyRef none(PyTuple_New(0));
  return PyRef(PyObject_Call(make, none.get(), d.get()));
}

std::vector<std::int64_t> answer_owners(PyObject* answer, std::string& problem) {
  PyRef given(PyArray_FROM_O(answer));
  if (!given) {
    problem = "returned " + std::string(Py_TYPE(answer)->tp_name) +
              ", not an array of owners: " + take_python_error();
    return {};
  }
  auto* a = reinterpret_cast<PyArrayObject*>(given.get());
  if (PyArray_NDIM(a) != 1 || !PyArray_ISINTEGER(a)) {
    PyRef type(PyObject_Str(reinterpret_cast<PyObject*>(PyArray_DESCR(a))));
    problem = "returned a " + std::to_string(PyArray_NDIM(a)) + "-D array of " +
              (type ? PyUnicode_AsUTF8(type.get()) : "?") +
              ", not a 1-D array of integer owners (None keeps the assignment)";
    return {};
  }
  PyRef wide(PyArray_FROM_OTF(given.get(), NPY_INT64, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST));
  if (!wide) {
    problem = "owners not readable as 64-bit integers: " + take_python_error();
    return {};
  }
  const auto* at =
      static_cast<const std::int64_t*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(wide.get())));
  return {at, at + PyArray_SIZE(reinterpret_cast<PyArrayObject*>(wide.get()))};
}

}  // namespace lbb
