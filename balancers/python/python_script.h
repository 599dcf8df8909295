#pragma once
// A user's balancer in Python (docs/your-balancer.md): a script run once as a module of its own
// when this object is made (once per run), then one of its functions called per decision as
// FUNCTION(view, params), the view as read-only NumPy arrays over lbbench's buffers and params
// the config's, a dict of str to str. It answers an integer array of owners, or None to keep
// the assignment. No Python type in this header: the interpreter stays inside this folder.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lbbench/balancer_plugin.h"

namespace lbb {

using PythonParams = std::vector<std::pair<std::string, std::string>>;

// Which of the entry's keys a load problem belongs to, for `lbbench validate`'s position.
struct PythonLoadError : std::invalid_argument {
  PythonLoadError(std::string key, const std::string& what)
      : std::invalid_argument(what), key(std::move(key)) {}
  std::string key;  // "script" or "function"
};

class PythonScript {
 public:
  // Throws PythonLoadError: no such file, a syntax error (its file:line:col), an exception while
  // the module runs, no such function or not callable, a decides_on of neither kind; or NumPy
  // missing.
  PythonScript(const std::string& path, const std::string& function, const PythonParams& params);
  ~PythonScript();
  PythonScript(const PythonScript&) = delete;
  PythonScript& operator=(const PythonScript&) = delete;

  // The owners the function answered (any length, any integers: the caller checks them), or
  // nullopt for None. Throws std::runtime_error with the exception's text, or for an answer that
  // is not a 1-D integer array, or for a view kept past the call. Takes the interpreter's lock:
  // callable from any thread.
  std::optional<std::vector<std::int64_t>> call(const lbb_plugin_view& view);

  // The function's `decides_on` attribute is "every_rank": under mpirun every rank calls it on
  // the same view (docs/your-balancer.md); absent or "one_rank": rank 0 alone.
  bool every_rank() const;
  // "balance in greedy.py": how messages name the script.
  std::string label() const;
  const std::string& path() const;

 private:
  void release();  // drops the module and its objects; under the lock
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lbb
