#pragma once
// The order verdicts of expectation rows: a row against its trend group, and a monotone row's
// claim over a swept key (Iqbal, Saltz & Bokhari 1986, Figs. 6-7), both by the comparison the
// table uses (harness/stats/verdict.h), Holm-adjusted.
#include <string>
#include <vector>

#include "harness/papers/expectation_samples.h"
#include "harness/papers/expectation_verdicts.h"

namespace lbb {

// The row's order against each comparable row of its trend group: holds when every comparison
// finds the paper's order, differs when any finds the opposite, else tied. Sets r.order and
// returns the text ("order holds (paired, 50 trials) against ..."); "" when nothing to order.
std::string judge_order(ExpectationResult& r, const std::vector<ExpectationResult>& all,
                        double alpha);

// A monotone row: its runs grouped by the value of `over` (ascending); each value compared with
// the next, and the last with the first, Holm-adjusted over those k comparisons. Holds when no
// step goes against the claim and the last differs from the first the claimed way; differs when
// a step (or the last against the first) goes against it; else tied. Sets measured (the last
// value's ratio to the first), runs, order, kind and verdict.
void judge_monotone(ExpectationResult& r, const std::vector<RunRecord>& runs,
                    const RunFactsMap& facts, double alpha);

}  // namespace lbb
