#include "workloads/tree_search.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/text.h"

namespace lbb {

namespace {

using kernels::kUtsDigestBytes;
using kernels::UtsDigest;

// Task state: this header, then `count` digests of nodes at `height`.
struct TaskHeader {
  std::int32_t height;
  std::int32_t count;
};

TaskHeader header_of(std::span<const std::byte> task) {
  if (task.size() < sizeof(TaskHeader)) throw std::runtime_error("tree task state too short");
  TaskHeader h;
  std::memcpy(&h, task.data(), sizeof h);
  if (h.count < 0 || task.size() != sizeof(TaskHeader) + std::size_t(h.count) * kUtsDigestBytes)
    throw std::runtime_error("tree task state has a bad header");
  return h;
}

UtsDigest digest_at(std::span<const std::byte> task, int k) {
  UtsDigest d;
  std::memcpy(d.data(), task.data() + sizeof(TaskHeader) + std::size_t(k) * kUtsDigestBytes,
              kUtsDigestBytes);
  return d;
}

// The tree, once its parameters are known to describe a finite UTS tree (before the child rule
// tabulates its per-height constants).
const kernels::UtsParams& checked_tree(const kernels::UtsParams& tree) {
  if (auto err = kernels::uts_params_error(tree))
    throw std::invalid_argument("tree_search: " + *err);
  return tree;
}

TaskState make_task(int height, std::span<const std::byte> digests) {
  const auto count = static_cast<std::int32_t>(digests.size() / kUtsDigestBytes);
  TaskState s(sizeof(TaskHeader) + digests.size());
  const TaskHeader h{height, count};
  std::memcpy(s.data(), &h, sizeof h);
  std::memcpy(s.data() + sizeof h, digests.data(), digests.size());
  return s;
}

}  // namespace

kernels::UtsParams uts_params_from(const Params& params) {
  kernels::UtsParams p;
  p.type = static_cast<kernels::UtsTreeType>(params.integer("t"));
  p.root_branching = params.real("b");
  p.root_seed = static_cast<int>(params.integer("r"));
  p.depth = static_cast<int>(params.integer("d"));
  p.non_leaf_prob = params.real("q");
  p.non_leaf_children = static_cast<int>(params.integer("m"));
  p.shape = static_cast<kernels::UtsShape>(params.integer("a"));
  p.shift_fraction = params.real("f");
  p.granularity = static_cast<int>(params.integer("g"));
  return p;
}

namespace {

// Bytes per node of the widest two levels: digests (20 B, in a task or a children buffer, 1.7
// copies on average) and a task's header and vector per batch. Measured as max RSS over a
// 85-node tree's, P = 2: 241 MB for 6.70 M such nodes (d 10), 940 MB for 26.8 M (d 11).
constexpr double kNodeCopies = 1.7, kTaskBytes = 96;

// Mean children of a node at height h under UTS's child rule (Olivier et al. 2006): floor(b_0)
// at a binomial root and q m below it; the shape's b_h, capped as UTS caps the draw, for a
// geometric node; floor(b_0) above depth d in a balanced tree.
double mean_children(const kernels::UtsParams& t, int h, bool& shrinking) {
  using kernels::UtsTreeType;
  const bool binomial = t.type == UtsTreeType::kBinomial ||
                        (t.type == UtsTreeType::kHybrid && h >= t.shift_fraction * t.depth);
  if (t.type == UtsTreeType::kBalanced) return h < t.depth ? std::floor(t.root_branching) : 0;
  if (binomial && h == 0) return std::floor(t.root_branching);
  // Below the root a binomial level shrinks by q m < 1 for ever; past depth d no shape grows.
  shrinking = binomial || h >= t.depth;
  if (binomial) return t.non_leaf_prob * t.non_leaf_children;
  return std::min<double>(kernels::uts_target_branching(t, h), kernels::kUtsMaxChildren);
}

// Expected nodes of the widest two adjacent levels: W_0 = 1, W_{h+1} = W_h * mean children.
// The level executor holds a level's tasks and the children they make at once. An expectation:
// a tree of these parameters may be wider (T1 has 4.1 M nodes where 1.4 M are expected).
double expected_widest_levels(const kernels::UtsParams& t) {
  double width = 1, peak = 1;
  for (int h = 0; h <= 5 * t.depth + 1; ++h) {
    bool shrinking = false;
    const double next = width * mean_children(t, h, shrinking);
    peak = std::max(peak, width + next);
    if (next == 0 || (shrinking && next < width)) break;
    width = next;
  }
  return peak;
}

}  // namespace

WorkloadInfo TreeSearch::info() {
  WorkloadInfo info{
      "tree_search",
      "Unbalanced Tree Search trees (Olivier et al. 2006) expanded level by level; a module is "
      "a batch of one level's nodes, born on its parent's processor (Hwang & Hong 2001)",
      {
          int_param("t", 1, "UTS -t tree type: 0 binomial, 1 geometric, 2 hybrid, 3 balanced", 0,
                    3),
          real_param("b", 4.0, "UTS -b root branching factor b_0", 0, 1e7),
          int_param("r", 0, "UTS -r root seed", 0, 2147483647.0),
          int_param("d", 6, "UTS -d tree depth gen_mx (geometric, hybrid, balanced)", 1, 1e6),
          real_param("q", 15.0 / 64.0, "UTS -q probability of a non-leaf node (binomial)", 0, 1),
          int_param("m", 4, "UTS -m children of a non-leaf node (binomial)", 0, 1e6),
          int_param("a", 0,
                    "UTS -a geometric shape: 0 linear, 1 exponential decrease, 2 cyclic, 3 fixed",
                    0, 3),
          real_param("f", 0.5, "UTS -f hybrid: geometric above depth f * d, binomial below", 0, 1),
          int_param("g", 1, "UTS -g compute granularity: SHA-1 evaluations per child", 1, 1e6),
          int_param("batch", 64, "tree nodes per task (module)", 1, 1 << 24),
          real_param("c_cost", 0.3,
                     "B_a + M_a per unit of E_a: communication proportional to work "
                     "(Hwang & Hong's C-COST)",
                     0),
          real_param("byte_cost", 0.0, "B_a per byte of task state, in units of E_a", 0),
          real_param("message_cost", 0.0, "M_a per task (its result message), in units of E_a", 0),
      },
      nullptr,
      [](const Params& p) {
        // Refuses a malformed or infinite tree before anything runs; any P suits a tree.
        if (auto err = kernels::uts_params_error(uts_params_from(p)))
          throw std::invalid_argument("tree_search: " + *err);
        return INT_MAX;
      },
  };
  info.make_levels = [](const Params& p) -> std::unique_ptr<LevelWorkload> {
    return std::make_unique<TreeSearch>(p);
  };
  info.state_estimate = [](const Params& p, int) {
    const double batch = static_cast<double>(p.integer("batch"));
    return expected_widest_levels(uts_params_from(p)) *
           (kNodeCopies * kernels::kUtsDigestBytes + kTaskBytes / batch);
  };
  return info;
}

TreeSearch::TreeSearch(const Params& params)
    : TreeSearch(uts_params_from(params), static_cast<int>(params.integer("batch")),
                 params.real("c_cost"), params.real("byte_cost"), params.real("message_cost")) {}

TreeSearch::TreeSearch(const kernels::UtsParams& tree, int batch, double c_cost, double byte_cost,
                       double message_cost)
    : tree_(tree),
      rule_(checked_tree(tree)),
      batch_(batch),
      c_cost_(c_cost),
      byte_cost_(byte_cost),
      message_cost_(message_cost) {
  if (batch_ < 1) throw std::invalid_argument("tree_search: batch must be at least 1");
}

std::vector<TaskState> TreeSearch::start(int processors) {
  tally_.assign(processors, Tally{});
  level_nodes_.clear();
  level_leaves_.clear();
  nodes_before_ = leaves_before_ = 0;
  const UtsDigest root = kernels::uts_root_digest(tree_.root_seed);
  std::vector<TaskState> tasks;
  tasks.push_back(make_task(0, std::as_bytes(std::span(root))));
  return tasks;
}

double TreeSearch::predicted_cost(std::span<const std::byte> task) const {
  // One unit per node visited plus one per SHA-1 evaluation its children take.
  const TaskHeader h = header_of(task);
  double cost = 0;
  for (int k = 0; k < h.count; ++k)
    cost += 1.0 + static_cast<double>(tree_.granularity) *
                      rule_.child_count(digest_at(task, k), h.height);
  return cost;
}

double TreeSearch::hop_cost(std::span<const std::byte> task, double predicted) const {
  return c_cost_ * predicted + byte_cost_ * static_cast<double>(task.size()) + message_cost_;
}

void TreeSearch::run_task(int level, int processor, std::span<const std::byte> task,
                          std::vector<std::byte>& children) {
  const TaskHeader h = header_of(task);
  if (h.height != level) throw std::runtime_error("tree task of another level");
  Tally& t = tally_[processor];
  for (int k = 0; k < h.count; ++k) {
    const UtsDigest node = digest_at(task, k);
    const int n = rule_.child_count(node, h.height);
    ++t.nodes;
    t.depth = std::max(t.depth, h.height);
    if (n == 0) {
      ++t.leaves;
      continue;
    }
    const std::size_t at = children.size();
    const std::size_t bytes = std::size_t(n) * kUtsDigestBytes;
    children.resize(at + bytes);
    // The parent's SHA-1 block is built once and its children's spawns overlap.
    kernels::UtsSpawner(node).children(
        0, n, tree_.granularity,
        std::span(reinterpret_cast<std::uint8_t*>(children.data() + at), bytes));
  }
}

void TreeSearch::cut_tasks(int level, std::span<const std::byte> children,
                           std::vector<TaskState>& tasks) const {
  const std::size_t per_task = std::size_t(batch_) * kUtsDigestBytes;
  for (std::size_t at = 0; at < children.size(); at += per_task)
    tasks.push_back(
        make_task(level + 1, children.subspan(at, std::min(per_task, children.size() - at))));
}

kernels::UtsCounts TreeSearch::counts() const {
  kernels::UtsCounts c;
  for (const Tally& t : tally_) {
    c.nodes += t.nodes;
    c.leaves += t.leaves;
    c.depth = std::max(c.depth, t.depth);
  }
  return c;
}

void TreeSearch::finish_level(int level) {
  const kernels::UtsCounts c = counts();
  level_nodes_.resize(level + 1, 0.0);
  level_leaves_.resize(level + 1, 0.0);
  level_nodes_[level] = static_cast<double>(c.nodes - nodes_before_);
  level_leaves_[level] = static_cast<double>(c.leaves - leaves_before_);
  nodes_before_ = c.nodes;
  leaves_before_ = c.leaves;
}

std::vector<StepMetric> TreeSearch::level_metrics() const {
  return {{"nodes", "tree nodes expanded in the level"},
          {"leaves", "leaves among them (nodes with no children)"}};
}

std::vector<double> TreeSearch::level_metric_values(int level) const {
  return {level_nodes_.at(level), level_leaves_.at(level)};
}

namespace {

// The counts of a serial traversal of the tree.
struct TraversalReference : SerialReference {
  explicit TraversalReference(kernels::UtsCounts c) : SerialReference(0), counts(c) {}
  kernels::UtsCounts counts;
};

}  // namespace

std::shared_ptr<const SerialReference> TreeSearch::reference() const {
  return std::make_shared<TraversalReference>(kernels::uts_count_serial(tree_));
}

Verification TreeSearch::verify_against(const SerialReference& serial) {
  const kernels::UtsCounts reference = reference_as<TraversalReference>(serial, 0).counts;
  const kernels::UtsCounts run = counts();
  Verification v;
  v.tolerance = 0;
  auto diff = [](std::uint64_t a, std::uint64_t b) {
    return static_cast<double>(a > b ? a - b : b - a);
  };
  v.error = diff(run.nodes, reference.nodes) + diff(run.leaves, reference.leaves) +
            std::abs(run.depth - reference.depth);
  v.checksum = static_cast<double>(run.nodes);
  v.reference_checksum = static_cast<double>(reference.nodes);
  v.passed = v.error == 0;
  v.detail = "nodes " + std::to_string(run.nodes) + ", depth " + std::to_string(run.depth) +
             ", leaves " + std::to_string(run.leaves) + " vs serial traversal " +
             std::to_string(reference.nodes) + ", " + std::to_string(reference.depth) + ", " +
             std::to_string(reference.leaves) + (v.passed ? " (equal)" : " (DIFFER)");
  for (const auto& sample : kernels::uts_sample_trees()) {
    if (!kernels::uts_same_tree(sample.params, tree_)) continue;
    const bool published = sample.counts.nodes == run.nodes && sample.counts.leaves == run.leaves &&
                           (sample.counts.depth < 0 || sample.counts.depth == run.depth);
    v.passed = v.passed && published;
    v.detail += "; UTS sample tree " + std::string(sample.name) +
                (published ? " published counts match" : " published counts DIFFER");
  }
  return v;
}

std::vector<WorkloadAttribute> TreeSearch::attributes() const {
  const kernels::UtsCounts c = counts();
  return {{"nodes", static_cast<double>(c.nodes)},
          {"depth", static_cast<double>(c.depth)},
          {"leaves", static_cast<double>(c.leaves)}};
}

}  // namespace lbb
