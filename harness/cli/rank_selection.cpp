#include "harness/cli/rank_selection.h"

#include "harness/base/process_world.h"
#include "harness/mpi/mpi_session.h"

namespace lbb {

std::vector<PlannedRun> leaders_selection(const std::vector<PlannedRun>& chosen,
                                          const std::vector<PlannedRun>& all) {
  std::vector<int> places;
  if (process_world().leader())
    for (std::size_t i = 0, k = 0; i < all.size() && k < chosen.size(); ++i)
      if (all[i].spec == chosen[k].spec && all[i].repetition == chosen[k].repetition)
        places.push_back(static_cast<int>(i)), ++k;
  share_from_leader(places);
  std::vector<PlannedRun> out;
  for (int i : places) out.push_back(all.at(i));
  return out;
}

}  // namespace lbb
