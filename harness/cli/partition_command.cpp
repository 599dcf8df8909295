#include "harness/cli/partition_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>

#include "balancers/balancer.h"
#include "core/assignment.h"
#include "core/module_graph.h"
#include "core/partition_quality.h"
#include "core/text.h"
#include "core/topology.h"
#include "harness/cli/commands.h"
#include "harness/cli/number_options.h"
#include "harness/cli/weight_parser.h"
#include "harness/exec/load_view_builder.h"

namespace lbb {

std::vector<double> read_weights(std::istream& in, const std::string& source) {
  return parse_weights(in, source);
}

std::vector<double> checked_speeds(int processors, int most, std::vector<double> speeds) {
  if (processors < 1 || processors > most)
    throw PartitionInputError("--processors must be in [1, " + std::to_string(most) + "], got " +
                              std::to_string(processors));
  if (speeds.empty()) speeds.assign(processors, 1.0);
  if (static_cast<int>(speeds.size()) != processors)
    throw PartitionInputError("--speeds gives " + std::to_string(speeds.size()) + " speeds for " +
                              std::to_string(processors) + " processors");
  for (double s : speeds)
    if (auto why = check_value(relative_speed_spec(), s))
      throw PartitionInputError("--speeds: " + format_number(s) + " " + *why);
  return speeds;
}

namespace {

// The centres of the cells of a grid of these extents, first extent fastest (empty: none).
std::vector<double> grid_centres(std::span<const int> grid, int modules) {
  if (grid.empty()) return {};
  long long cells = 1;
  for (int e : grid) cells = std::min<long long>(cells * e, modules + 1LL);
  if (grid.size() > 3 || cells != modules)
    throw PartitionInputError(
        "--grid: give 1 to 3 extents whose product is the number of "
        "weights, " +
        std::to_string(modules));
  std::vector<double> c;
  for (int cell = 0; cell < modules; ++cell)
    for (int rest = cell; int e : grid) c.push_back(rest % e + 0.5), rest /= e;
  return c;
}

}  // namespace

nlohmann::json run_partition(const PartitionRequest& request, std::span<const double> weights) {
  const BalancerInfo* info = find_balancer(request.method, BalancerKind::kStatic);
  if (!info) info = find_balancer(request.method);
  if (!info)
    throw PartitionInputError("unknown method '" + request.method + "' (see lbbench list)");
  if (info->kind() != BalancerKind::kStatic)
    throw PartitionInputError("'" + request.method + "' is not a static balancer");
  const std::vector<double> speeds =
      checked_speeds(request.processors, kMaxPartitionProcessors, request.speeds);
  // Every load a partitioner forms is at most this; past a double's range it became inf (and
  // the bottleneck printed as null).
  const double most = std::accumulate(weights.begin(), weights.end(), 0.0) /
                      *std::min_element(speeds.begin(), speeds.end());
  if (!std::isfinite(most))
    throw PartitionInputError(
        "the weights' total over the slowest speed exceeds a double's range; scale the weights "
        "down");

  std::unique_ptr<Balancer> balancer;
  try {
    Params given;
    for (const auto& kv : request.params) set_param_from_text(info->params, kv, given);
    balancer = make_balancer(request.method, BalancerKind::kStatic, given);
  } catch (const ParamError& e) {
    throw PartitionInputError("--param " + e.param() + ": " + e.what());
  }

  const int m = static_cast<int>(weights.size());
  const Topology chain(TopologyKind::kChain, request.processors);
  const std::vector<std::uint64_t> bytes(m, 0);
  const std::vector<double> coords = grid_centres(request.grid, m);
  const ModuleGraph graph =
      request.grid.size() > 1 ? ModuleGraph::grid(request.grid) : ModuleGraph::chain(m);
  const LoadView view = LoadViewBuilder(speeds, &chain, ModuleStructure::kChain,
                                        static_cast<int>(request.grid.size()), coords, &graph)
                            .view(-1, ViewLoads(weights, bytes));  // an initial partition
  Decision decision;
  const auto start = std::chrono::steady_clock::now();
  try {
    decision = balancer->decide(view);
  } catch (const std::invalid_argument& e) {
    throw PartitionInputError(request.method + ": " + e.what());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (auto error = assignment_error(decision.owner, m, request.processors))
    throw std::logic_error(request.method + " returned a bad assignment: " + *error);
  if (info->capabilities.contiguous && !is_contiguous_chain(decision.owner, request.processors))
    throw std::logic_error(request.method + " returned a non-contiguous partition");

  nlohmann::json parts = nlohmann::json::array();
  for (const auto& modules : modules_by_processor(decision.owner, request.processors)) {
    if (!info->capabilities.contiguous)
      parts.push_back(modules);
    else if (modules.empty())
      parts.push_back(nlohmann::json::array());
    else
      parts.push_back({modules.front(), modules.back()});
  }
  const PartitionQuality quality = partition_quality(decision.owner, weights, speeds, &graph);
  return {{"method", request.method},
          {"processors", request.processors},
          {"bottleneck", bottleneck(decision.owner, weights, speeds)},
          {"imbalance", quality.imbalance},
          {"edge_cut", quality.edge_cut},
          {"communication_volume", quality.communication_volume},
          {"parts", std::move(parts)},
          {"seconds", seconds}};
}

void add_partition_command(CLI::App& app) {
  auto request = std::make_shared<PartitionRequest>();
  auto input = std::make_shared<std::string>("-");
  CLI::App* cmd =
      app.add_subcommand("partition",
                         "partition module weights (a file or standard input) with one static "
                         "balancer and print the result as JSON");
  cmd->add_option("--method", request->method, "static balancer (see lbbench list)")->required();
  cmd->add_option("--processors", request->processors, "number of processors P >= 1")->required();
  cmd->add_option("--speeds", request->speeds, "processor speeds s1,s2,... (default all 1)")
      ->delimiter(',');
  cmd->add_option("--grid", request->grid,
                  "the modules are the cells of a grid NX[xNY[xNZ]] (first extent fastest): "
                  "coordinates for geometric partitioners, links for the edge cut (default: a "
                  "chain without coordinates)")
      ->delimiter('x')
      ->check(CLI::PositiveNumber);
  cmd->add_option("--param", request->params, "balancer parameter name=value (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("weights", *input,
                  "file of whitespace-separated module weights; '-' or none: standard input");
  cmd->callback([request, input] {
    try {
      std::vector<double> weights;
      if (*input == "-") {
        weights = read_weights(std::cin, "<stdin>");
      } else {
        // A device (/dev/zero) or a directory is no file of weights; a pipe (<(...)) is read, as
        // standard input is, up to the cap.
        std::error_code ec;
        const auto st = std::filesystem::status(*input, ec);
        if (std::filesystem::is_character_file(st) || std::filesystem::is_block_file(st) ||
            std::filesystem::is_directory(st) || std::filesystem::is_socket(st))
          throw PartitionInputError(*input + ": not a regular file (a device or a directory)");
        std::ifstream file(*input);
        if (!file) throw PartitionInputError(*input + ": cannot open");
        weights = read_weights(file, *input);
      }
      std::cout << run_partition(*request, weights).dump() << "\n";
    } catch (const PartitionInputError& e) {
      std::cerr << "lbbench partition: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
  });
}

}  // namespace lbb
