#include "balancers/plugin/plugin_library.h"

#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>

namespace lbb {

namespace {

std::string dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown dlopen error";
}

// Without a slash dlopen searches LD_LIBRARY_PATH and the system's folders: a config's path is
// a file, relative to the working directory.
std::string as_file(const std::string& path) {
  return path.find('/') == std::string::npos ? "./" + path : path;
}

}  // namespace

PluginLibrary::PluginLibrary(const std::string& path) : path_(path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::invalid_argument("plugin library '" + path + "': no such file");
  handle_ = dlopen(as_file(path).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_)
    throw std::invalid_argument("plugin library '" + path + "' does not load: " + dl_error());
  dlerror();
  using Entry = const lbb_plugin* (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(handle_, "lbb_balancer_plugin"));
  const char* why = dlerror();
  if (why || !entry) {
    dlclose(handle_);
    throw std::invalid_argument("plugin library '" + path +
                                "' has no symbol lbb_balancer_plugin (see "
                                "include/lbbench/balancer_plugin.h)");
  }
  plugin_ = entry();
  std::string problem;
  if (!plugin_)
    problem = "lbb_balancer_plugin() returned NULL";
  else if (plugin_->api_version != LBB_PLUGIN_API_VERSION)
    problem = "built against balancer_plugin.h version " + std::to_string(plugin_->api_version) +
              ", but this lbbench has version " + std::to_string(LBB_PLUGIN_API_VERSION) +
              ": rebuild it against this lbbench's include/lbbench/balancer_plugin.h";
  else if (!plugin_->decide)
    problem = "its lbb_plugin has no decide function";
  else if (plugin_->decides_on != LBB_PLUGIN_ON_ONE_RANK &&
           plugin_->decides_on != LBB_PLUGIN_ON_EVERY_RANK)
    problem = "its decides_on is " + std::to_string(plugin_->decides_on) +
              ", neither LBB_PLUGIN_ON_ONE_RANK (0) nor LBB_PLUGIN_ON_EVERY_RANK (1)";
  if (!problem.empty()) {
    dlclose(handle_);
    throw std::invalid_argument("plugin library '" + path + "': " + problem);
  }
}

PluginLibrary::~PluginLibrary() {
  if (handle_) dlclose(handle_);
}

std::string PluginLibrary::label() const {
  const std::string name = plugin_->name ? plugin_->name : "unnamed";
  return name + " (" + path_ + ")";
}

}  // namespace lbb
