#pragma once
// `lbbench partition`: one static partitioner on module weights read from a file or standard
// input, its result printed as one JSON object. The pieces are here so tests can call them
// without a process.
#include <istream>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace lbb {

// Bad input to the partition command: the command prints it and exits with kExitBadInput.
class PartitionInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whitespace-separated weights, each a finite non-negative number; at least one. `source` names
// the input in messages ("weights.txt:3: 'x1' is not a number"). Throws PartitionInputError.
std::vector<double> read_weights(std::istream& in, const std::string& source);

// `processors` in [1, most] and one positive speed each (`speeds`, or all 1 when empty), as
// `partition` and `schedule` take them. Throws PartitionInputError naming the option.
std::vector<double> checked_speeds(int processors, int most, std::vector<double> speeds);

// The most processors a request may name: the result lists every processor's part, so a
// larger P only fills memory with empty parts (10^8 ended in std::bad_alloc).
inline constexpr int kMaxPartitionProcessors = 1 << 20;

// The most input `partition` reads, and the longest token: /dev/zero or an endless pipe is
// refused at these instead of filling memory (a million weights are about 10 MB).
inline constexpr std::size_t kMaxWeightInputBytes = std::size_t{256} << 20;
inline constexpr std::size_t kMaxWeightTokenBytes = 1024;

struct PartitionRequest {
  std::string method;               // a static balancer's name
  int processors = 0;               // >= 1
  std::vector<double> speeds;       // empty: all 1; else one positive speed per processor
  std::vector<std::string> params;  // "name=value", checked against the balancer's ParamSpecs
  // Empty: the modules are a chain, without coordinates. Else the extents of a grid (1 to 3)
  // whose cells, first extent fastest, are the modules: coordinates the cells' centres, linked
  // across faces (a 1-extent grid is the chain at coordinates 0.5, 1.5, ...).
  std::vector<int> grid;
};

// Runs the request through the balancer registry and returns {method, processors, bottleneck
// (the largest processor load, weight sum / speed), imbalance, edge_cut and
// communication_volume (core/partition_quality.h, on the chain or the grid), parts, seconds (the
// partitioner's own time)}. parts holds per processor [first, last] (inclusive, [] when empty) for
// balancers whose partitions are contiguous chains, else the list of its modules. Throws
// PartitionInputError.
nlohmann::json run_partition(const PartitionRequest& request, std::span<const double> weights);

}  // namespace lbb
