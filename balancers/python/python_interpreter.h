#pragma once
// CPython embedded in lbbench (Debian's python3-dev): started once per process, on the first
// use from whichever thread, without Python's signal handlers (lbbench keeps SIGINT and
// SIGTERM); then the global interpreter lock is released, so each caller, an OpenMP thread
// or the main one, takes it for the length of a PythonLock.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string>
#include <utility>

namespace lbb {

class PythonLock {
 public:
  PythonLock();
  ~PythonLock() { PyGILState_Release(state_); }
  PythonLock(const PythonLock&) = delete;
  PythonLock& operator=(const PythonLock&) = delete;

 private:
  PyGILState_STATE state_;
};

// The raised exception, cleared, in one line: "ValueError: bad (at x.py:12, in balance)"; a
// syntax error as "x.py:3:7: SyntaxError: invalid syntax". Holds the lock (a PythonLock).
std::string take_python_error();

// A new reference that owns its object; null stays null.
class PyRef {
 public:
  explicit PyRef(PyObject* o = nullptr) : o_(o) {}
  ~PyRef() { Py_XDECREF(o_); }
  PyRef(PyRef&& r) noexcept : o_(r.o_) { r.o_ = nullptr; }
  PyRef& operator=(PyRef&& r) noexcept {
    std::swap(o_, r.o_);
    return *this;
  }
  PyObject* get() const { return o_; }
  explicit operator bool() const { return o_ != nullptr; }

 private:
  PyObject* o_;
};

}  // namespace lbb
