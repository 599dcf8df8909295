#pragma once
// Racing (Birattari et al. 2002, F-Race): rounds are run only for the rows of a group whose
// verdict is still open, and a row leaves the race once it is decided. The looks at the data
// are fixed in advance and each is judged at alpha / looks (Bonferroni), so that the error
// rates hold over all of them however early the race stops.
#include <vector>

#include "harness/stats/verdict.h"

namespace lbb::stats {

// The rounds after which a race looks: `first`, then each about 1.5 times the last, and `last`
// (first <= last). 4, 20: 4, 6, 9, 14, 20.
std::vector<int> look_rounds(int first, int last);

// Which rows of a judged group run another round: the undecided ones, and the best while any
// other row is undecided (it is what they are compared with).
std::vector<bool> still_racing(const GroupJudgement& judged);

}  // namespace lbb::stats
