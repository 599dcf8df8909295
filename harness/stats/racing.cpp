#include "harness/stats/racing.h"

#include <algorithm>
#include <cmath>

namespace lbb::stats {

std::vector<int> look_rounds(int first, int last) {
  std::vector<int> out;
  first = std::max(1, first);
  last = std::max(first, last);
  for (int r = first; r < last; r = std::max(r + 1, static_cast<int>(std::ceil(1.5 * r))))
    out.push_back(r);
  out.push_back(last);
  return out;
}

std::vector<bool> still_racing(const GroupJudgement& judged) {
  std::vector<bool> out(judged.rows.size(), false);
  bool open = false;
  for (std::size_t i = 0; i < judged.rows.size(); ++i)
    if (static_cast<int>(i) != judged.best && judged.rows[i].verdict == Verdict::kUndecided)
      out[i] = open = true;
  if (open && judged.best >= 0) out[static_cast<std::size_t>(judged.best)] = true;
  return out;
}

}  // namespace lbb::stats
