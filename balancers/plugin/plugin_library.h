#pragma once
// A balancer plugin's shared library, opened with the C library's dlopen and closed with the
// object: its descriptor read through the one symbol include/lbbench/balancer_plugin.h names,
// and its interface version checked against lbbench's before anything else is read.
#include <string>

#include "lbbench/balancer_plugin.h"

namespace lbb {

class PluginLibrary {
 public:
  // Throws std::invalid_argument naming the path: missing file, not a shared library, missing
  // symbol, no decide, a decides_on of neither kind, or a version other than
  // LBB_PLUGIN_API_VERSION (both named).
  explicit PluginLibrary(const std::string& path);
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const lbb_plugin& plugin() const { return *plugin_; }
  const std::string& path() const { return path_; }
  bool every_rank() const { return plugin_->decides_on == LBB_PLUGIN_ON_EVERY_RANK; }
  // "greedy_plugin (lib/libgreedy_plugin.so)": how messages name the plugin.
  std::string label() const;

 private:
  std::string path_;
  void* handle_ = nullptr;
  const lbb_plugin* plugin_ = nullptr;
};

}  // namespace lbb
