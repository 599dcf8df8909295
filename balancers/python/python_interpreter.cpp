#include "balancers/python/python_interpreter.h"

#include <mutex>
#include <stdexcept>

// The interpreter lives until the process exits (NumPy does not survive Py_Finalize and a new
// start), so LeakSanitizer would report Python's memory at exit. Its fast unwinder sees only the
// allocating library of NumPy's and hashlib's (libcrypto) blocks; lbbench's one libcrypto use,
// harness/run/file_digest.cpp, frees its context through a unique_ptr.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libpython3\nleak:_multiarray_umath\nleak:libcrypto.so\n";
}
#endif

namespace lbb {

namespace {

// Formats an exception in Python itself: the traceback module knows every exception's text.
constexpr const char* kDescribe = R"PY(
def describe(e):
    import traceback
    if isinstance(e, SyntaxError):
        return f"{e.filename}:{e.lineno}:{e.offset or 0}: {type(e).__name__}: {e.msg}"
    text = "".join(traceback.format_exception_only(type(e), e)).strip().replace("\n", " ")
    frames = traceback.extract_tb(e.__traceback__)
    if frames:
        text += f" (at {frames[-1].filename}:{frames[-1].lineno}, in {frames[-1].name})"
    return text
)PY";

PyObject* describe = nullptr;  // the function above, made once with the interpreter

// lbbench's locale stays as it was (Python would set LC_CTYPE from the environment); scripts read
// and write UTF-8 whatever the locale.
void preinitialize() {
  PyPreConfig pre;
  PyPreConfig_InitPythonConfig(&pre);
  pre.configure_locale = 0;
  pre.utf8_mode = 1;
  const PyStatus status = Py_PreInitialize(&pre);
  if (PyStatus_Exception(status))
    throw std::runtime_error(std::string("the Python interpreter does not start: ") +
                             (status.err_msg ? status.err_msg : "unknown error"));
}

void start() {
  preinitialize();
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.install_signal_handlers = 0;
  config.parse_argv = 0;
  // The interpreter this was built against (CMake's Python3_EXECUTABLE): its prefix, and the
  // sys.executable a script's subprocess or multiprocessing starts, not a python3 earlier on PATH.
  PyConfig_SetBytesString(&config, &config.executable, LBB_PYTHON_EXECUTABLE);
  const PyStatus status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status))
    throw std::runtime_error(std::string("the Python interpreter does not start: ") +
                             (status.err_msg ? status.err_msg : "unknown error"));
  PyObject* globals = PyDict_New();
  PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
  PyObject* done = PyRun_String(kDescribe, Py_file_input, globals, globals);
  Py_XDECREF(done);
  describe = PyDict_GetItemString(globals, "describe");
  Py_XINCREF(describe);
  Py_DECREF(globals);
  PyEval_SaveThread();  // the lock is taken by each PythonLock from here on
}

}  // namespace

PythonLock::PythonLock() {
  static std::once_flag once;
  std::call_once(once, start);
  state_ = PyGILState_Ensure();
}

std::string take_python_error() {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  if (!type) return "no Python exception";
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback) PyException_SetTraceback(value, traceback);
  std::string text = "an exception that cannot be described";
  PyRef said(describe ? PyObject_CallOneArg(describe, value) : nullptr);
  if (said && PyUnicode_Check(said.get())) text = PyUnicode_AsUTF8(said.get());
  PyErr_Clear();
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return text;
}

}  // namespace lbb
