#include "balancers/python/python_script.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "balancers/python/python_arrays.h"
#include "balancers/python/python_interpreter.h"

namespace lbb {

struct PythonScript::Impl {
  std::string path, function, name;  // name: the module's in sys.modules
  PyRef module, callable, params;
  bool every_rank = false;
};

namespace {

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw PythonLoadError("script", "python script '" + path + "': no such file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The script run as a new module registered under a name of its own (so that dataclasses,
// pickle and friends find it), once.
PyRef run_module(const std::string& path, const std::string& name) {
  const std::string source = read_file(path);
  PyRef code(Py_CompileString(source.c_str(), path.c_str(), Py_file_input));
  if (!code)
    throw PythonLoadError("script",
                          "python script '" + path + "' does not compile: " + take_python_error());
  PyObject* added = PyImport_AddModule(name.c_str());  // borrowed, held by sys.modules
  PyRef module(added ? Py_NewRef(added) : nullptr);
  if (!module) throw PythonLoadError("script", "python: " + take_python_error());
  PyObject* globals = PyModule_GetDict(module.get());
  PyRef file(PyUnicode_FromString(path.c_str()));
  PyDict_SetItemString(globals, "__file__", file.get());
  PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
  PyRef done(PyEval_EvalCode(code.get(), globals, globals));
  if (!done)
    throw PythonLoadError("script", "python script '" + path +
                                        "' raised while it was imported: " + take_python_error());
  return module;
}

PyRef params_dict(const PythonParams& params) {
  PyRef d(PyDict_New());
  for (const auto& [k, v] : params) {
    PyRef value(PyUnicode_FromString(v.c_str()));
    PyDict_SetItemString(d.get(), k.c_str(), value.get());
  }
  return d;
}

// The function's decides_on attribute: true for "every_rank", false where absent or "one_rank".
bool decides_on_every_rank(PyObject* callable, const std::string& label) {
  PyRef kind(PyObject_GetAttrString(callable, "decides_on"));
  if (!kind) return PyErr_Clear(), false;
  const char* text = PyUnicode_Check(kind.get()) ? PyUnicode_AsUTF8(kind.get()) : nullptr;
  if (text && std::string(text) == "one_rank") return false;
  if (text && std::string(text) == "every_rank") return true;
  PyErr_Clear();
  throw PythonLoadError(
      "function", "python " + label + ": decides_on is neither \"one_rank\" nor \"every_rank\"");
}

void forget_module(const std::string& name) {
  PyObject* modules = PyImport_GetModuleDict();
  if (PyDict_GetItemString(modules, name.c_str())) PyDict_DelItemString(modules, name.c_str());
}

}  // namespace

PythonScript::PythonScript(const std::string& path, const std::string& function,
                           const PythonParams& params)
    : impl_(std::make_unique<Impl>()) {
  static std::atomic<int> made{0};
  impl_->path = path;
  impl_->function = function;
  impl_->name = "lbb_balancer_script_" + std::to_string(made++);
  PythonLock lock;
  try {
    require_numpy();
    impl_->module = run_module(path, impl_->name);
    impl_->callable = PyRef(PyObject_GetAttrString(impl_->module.get(), function.c_str()));
    if (!impl_->callable || !PyCallable_Check(impl_->callable.get())) {
      PyErr_Clear();
      throw PythonLoadError("function", "python script '" + path + "' has no function '" +
                                            function + "' (called as " + function +
                                            "(view, params) at every decision)");
    }
    impl_->params = params_dict(params);
    impl_->every_rank = decides_on_every_rank(impl_->callable.get(), label());
  } catch (...) {
    release();  // here, under the lock: the members outlive this body
    throw;
  }
}

void PythonScript::release() {
  forget_module(impl_->name);
  impl_->callable = PyRef();
  impl_->params = PyRef();
  impl_->module = PyRef();
}

PythonScript::~PythonScript() {
  PythonLock lock;
  release();
}

std::string PythonScript::label() const {
  return impl_->function + " in " + impl_->path;
}

bool PythonScript::every_rank() const {
  return impl_->every_rank;
}

const std::string& PythonScript::path() const {
  return impl_->path;
}

std::optional<std::vector<std::int64_t>> PythonScript::call(const lbb_plugin_view& view) {
  PythonLock lock;
  std::vector<PyRef> arrays;
  PyRef ns = view_namespace(view, arrays);
  if (!ns) throw std::runtime_error("the view: " + take_python_error());
  PyRef answer(
      PyObject_CallFunctionObjArgs(impl_->callable.get(), ns.get(), impl_->params.get(), nullptr));
  if (!answer) throw std::runtime_error("raised " + take_python_error());
  std::optional<std::vector<std::int64_t>> owners;
  std::string problem;
  if (answer.get() != Py_None) owners = answer_owners(answer.get(), problem);
  answer = PyRef();  // it may be one of the view's arrays (`return view.owner`)
  // Ours and the namespace's references only: the arrays wrap buffers freed after the call.
  bool kept = Py_REFCNT(ns.get()) > 1;
  for (const PyRef& a : arrays) kept = kept || Py_REFCNT(a.get()) > 2;
  if (kept)
    throw std::runtime_error(
        "kept the view or one of its arrays past the call: they wrap lbbench's buffers, valid "
        "during the call only (keep a copy: numpy's .copy())");
  if (!problem.empty()) throw std::runtime_error(problem);
  return owners;
}

}  // namespace lbb
