#include "balancers/plugin/plugin_view.h"

namespace lbb {

namespace {

template <class Rows>
void lay_out(int rows, Rows neighbours_of, std::vector<int>& offset, std::vector<int>& target) {
  offset.assign(1, 0);
  target.clear();
  for (int i = 0; i < rows; ++i) {
    const auto& n = neighbours_of(i);
    target.insert(target.end(), n.begin(), n.end());
    offset.push_back(static_cast<int>(target.size()));
  }
}

}  // namespace

lbb_plugin_view PluginViewBuilder::build(const LoadView& view, std::span<const int> owner) {
  if (view.topology && (view.topology != topology_ ||
                        static_cast<int>(proc_offset_.size()) != view.processors() + 1)) {
    topology_ = view.topology;
    lay_out(
        view.processors(), [&](int p) { return topology_->neighbours(p); }, proc_offset_,
        proc_neighbour_);
  }
  if (view.communication != graph_) {
    graph_ = view.communication;
    if (graph_)
      lay_out(
          graph_->modules(), [&](int m) { return graph_->neighbours(m); }, comm_offset_,
          comm_neighbour_);
  }
  lbb_plugin_view v{};
  v.api_version = LBB_PLUGIN_API_VERSION;
  v.step = view.step;
  v.phase = view.phase;
  v.processors = view.processors();
  v.modules = view.modules();
  v.speed = view.speed.data();
  v.busy = view.busy.empty() ? nullptr : view.busy.data();
  v.proc_offset = view.topology ? proc_offset_.data() : nullptr;
  v.proc_neighbour = view.topology ? proc_neighbour_.data() : nullptr;
  v.owner = owner.data();
  v.cost = view.cost.data();
  v.bytes = view.bytes.empty() ? nullptr : view.bytes.data();
  v.migratable = view.migratable.empty() ? nullptr : view.migratable.data();
  if (graph_ && graph_->modules() == view.modules()) {
    v.comm_offset = comm_offset_.data();
    v.comm_neighbour = comm_neighbour_.data();
  }
  return v;
}

}  // namespace lbb
