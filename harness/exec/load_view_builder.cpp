#include "harness/exec/load_view_builder.h"

#include <algorithm>

namespace lbb {

std::vector<unsigned char> migratable_modules(const Workload& workload) {
  std::vector<unsigned char> may(workload.module_count());
  for (int m = 0; m < workload.module_count(); ++m) may[m] = workload.migratable(m) ? 1 : 0;
  if (std::all_of(may.begin(), may.end(), [](unsigned char v) { return v != 0; })) may.clear();
  return may;
}

void keep_unmigratable(const LoadView& view, Decision& d) {
  if (!d.act || view.migratable.empty() || view.owner.size() != d.owner.size()) return;
  for (std::size_t m = 0; m < d.owner.size() && m < view.migratable.size(); ++m)
    if (!view.migratable[m]) d.owner[m] = view.owner[m];
}

}  // namespace lbb
