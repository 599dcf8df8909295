#pragma once
// Shared machinery of the chains-on-chains partitioners (Iqbal, Saltz & Bokhari 1986, sections
// 3-5): prefix sums of the module weights, the load of a subchain on a processor, and the greedy
// PROBE. Every chain partitioner computes loads through ChainLoads::load, so the exact methods
// return bit-identical bottlenecks.
//
// The chain is the module order, whatever the workload's ModuleStructure says; processor k of
// the chain of processors takes the k-th subchain. A subchain may be empty: the paper's proof of
// PROBE (section 5) allows empty subchains, and with unequal speeds leaving a slow processor
// empty can be optimal.
#include <span>
#include <vector>

#include "core/assignment.h"

namespace lbb {

// Processor k holds modules [first[k], first[k+1]); first[0] = 0 and first[P] = m.
struct ChainPartition {
  std::vector<int> first;
  double bottleneck = 0;  // the largest ChainLoads::load over the processors

  int processors() const { return static_cast<int>(first.size()) - 1; }
};

// The owner of every module of a chain partition.
Owners chain_owners(const ChainPartition& partition);

class ChainLoads {
 public:
  // Checks the input (check_partition_input) and builds the prefix sums, in one pass.
  ChainLoads(std::span<const double> weights, std::span<const double> speeds);
  ~ChainLoads();
  ChainLoads(const ChainLoads&) = delete;
  ChainLoads& operator=(const ChainLoads&) = delete;

  int modules() const { return modules_; }
  int processors() const { return static_cast<int>(speed_.size()); }
  double speed(int processor) const { return speed_[processor]; }
  double total_weight() const { return prefix_[modules_]; }
  double total_speed() const { return total_speed_; }
  double max_weight() const { return max_weight_; }
  int fastest() const { return fastest_; }
  // Weight of modules [begin, end).
  double weight(int begin, int end) const { return prefix_[end] - prefix_[begin]; }
  // Time processor k needs for modules [begin, end): their weight over its speed.
  double load(int begin, int end, int processor) const {
    return (prefix_[end] - prefix_[begin]) / speed_[processor];
  }
  // The largest end in [lo, hi] with load(begin, end, processor) <= bound; the caller
  // guarantees that load(begin, lo, processor) <= bound. Loads grow with end, so any search
  // finds the same end: this one guesses it by interpolation, gallops, and counts.
  int reach(int begin, int processor, double bound, int lo, int hi) const;
  // Asks the cache for the prefix sums a later reach over [lo, hi] reads first.
  void prefetch(int lo, int hi) const {
    __builtin_prefetch(&prefix_[lo]);
    __builtin_prefetch(&prefix_[lo + (hi - lo) / 2]);
    __builtin_prefetch(&prefix_[hi]);
  }
  // Largest load of the partition given by separators (first.size() == P + 1).
  double bottleneck(std::span<const int> first) const;
  // The smallest bound above which a failed greedy partition would change: the least load any
  // processor would carry with its next module added. Every processor must have a next module.
  double next_bound(std::span<const int> first) const;

 private:
  int modules_ = 0;
  std::vector<double> prefix_;  // prefix_[i] = weight of modules [0, i), i <= modules_
  std::vector<double> speed_;
  double total_speed_ = 0;
  double max_weight_ = 0;
  int fastest_ = 0;
};

// PROBE (Iqbal, Saltz & Bokhari 1986, section 5): each processor in turn takes the longest
// subchain whose load stays within bound, looking at every module once. Fills first (P + 1
// separators) and returns true when the last processor reached the end of the chain.
bool probe_chain(const ChainLoads& loads, double bound, std::vector<int>& first);

// The same greedy partition found by bisection over prefix sums, in O(P log m), when every
// separator is known to lie in a window: below[k] <= first[k] <= above[k] (the separators of the
// greedy partitions at any smaller and any larger bound; the greedy separators grow with the
// bound). Windows [0, m] always hold.
bool probe_chain_within(const ChainLoads& loads, double bound, std::span<const int> below,
                        std::span<const int> above, std::vector<int>& first);

}  // namespace lbb
