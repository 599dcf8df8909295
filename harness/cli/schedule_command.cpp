#include "harness/cli/schedule_command.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <variant>

#include "core/text.h"
#include "harness/base/schedule.h"
#include "harness/cli/commands.h"
#include "harness/cli/partition_command.h"
#include "harness/config/memory_estimate.h"
#include "harness/sim/schedule_model.h"

namespace lbb {

namespace {

ScheduleChoice choice_of(const ScheduleRequest& request, Params& resolved) {
  const ScheduleInfo* info = find_schedule(request.method);
  if (!info || info->kind == InStepSchedule::kAssigned)
    throw PartitionInputError("unknown schedule '" + request.method + "' (see lbbench list)");
  if (std::string why = schedule_model_problem(info->kind); !why.empty())
    throw PartitionInputError(why);
  try {
    Params given;
    for (const auto& kv : request.params) set_param_from_text(info->params, kv, given);
    resolved = resolve_params(info->params, given);
    return schedule_choice(request.method, resolved);
  } catch (const ParamError& e) {
    throw PartitionInputError("--param " + e.param() + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw PartitionInputError(e.what());
  }
}

// The loop's nominal times: the file's, N of them (N 0: all), or N of 1 s. A chunk of one
// iteration each (ss) lists N chunks: the report's bytes are bounded by the machine's memory.
std::vector<double> nominal_of(const ScheduleRequest& request, std::span<const double> times) {
  if (request.iterations < 0)
    throw PartitionInputError("--iterations must be >= 1, got " +
                              std::to_string(request.iterations));
  const std::int64_t n =
      request.iterations > 0 ? request.iterations : static_cast<std::int64_t>(times.size());
  if (n < 1) throw PartitionInputError("--iterations: give N >= 1 or --iteration-times FILE");
  if (!times.empty() && n != static_cast<std::int64_t>(times.size()))
    throw PartitionInputError("--iterations " + std::to_string(n) + " but the file gives " +
                              std::to_string(times.size()) + " iteration times");
  constexpr double kBytesPerIteration = 8 + 40 + 160;  // a time, a chunk, its JSON (measured order)
  if (n > (std::int64_t{1} << 31) - 1 || n * kBytesPerIteration > machine_memory_bytes() / 2)
    throw PartitionInputError("--iterations " + std::to_string(n) +
                              ": its report may need more than half of this machine's memory");
  if (!times.empty()) return {times.begin(), times.end()};
  return std::vector<double>(static_cast<std::size_t>(n), 1.0);
}

nlohmann::json to_json(const ParamValue& value) {
  return std::visit([](const auto& v) { return nlohmann::json(v); }, value);
}

}  // namespace

nlohmann::json run_schedule(const ScheduleRequest& request, std::span<const double> times) {
  Params resolved;
  const ScheduleChoice schedule = choice_of(request, resolved);
  const std::vector<double> speeds =
      checked_speeds(request.processors, kMaxScheduleProcessors, request.speeds);
  const std::vector<double> nominal = nominal_of(request, times);
  nlohmann::json chunks = nlohmann::json::array(), per = nlohmann::json::array(),
                 params = nlohmann::json::object();
  std::vector<double> busy(speeds.size());
  std::vector<std::int64_t> iterations(speeds.size()), count(speeds.size());
  double makespan = 0;
  for (const ModelledChunk& c : modelled_chunks(schedule, nominal, speeds)) {
    chunks.push_back({{"processor", c.processor},
                      {"first", c.first},
                      {"count", c.count},
                      {"start", c.start},
                      {"end", c.end}});
    busy[c.processor] += c.end - c.start;
    iterations[c.processor] += c.count;
    ++count[c.processor];
    makespan = std::max(makespan, c.end);
  }
  for (std::size_t p = 0; p < speeds.size(); ++p)
    per.push_back({{"iterations", iterations[p]}, {"chunks", count[p]}, {"busy", busy[p]}});
  for (const auto& [name, value] : resolved.values()) params[name] = to_json(value);
  return {{"method", request.method},
          {"processors", request.processors},
          {"iterations", nominal.size()},
          {"params", std::move(params)},
          {"speeds", speeds},
          {"chunks", std::move(chunks)},
          {"per_processor", std::move(per)},
          {"makespan", makespan}};
}

void add_schedule_command(CLI::App& app) {
  auto request = std::make_shared<ScheduleRequest>();
  auto times_file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "schedule",
      "hand one loop's iterations out under a loop schedule on P modelled processors (the "
      "processor idle first takes the next chunk) and print its chunk sequence as JSON");
  cmd->add_option("--method", request->method,
                  "schedule: omp_static, omp_dynamic, omp_guided, omp_tasks or a loop "
                  "self-scheduling technique (see lbbench list)")
      ->required();
  cmd->add_option("--iterations", request->iterations, "iterations N of the loop (each 1 s)");
  cmd->add_option("--processors", request->processors, "number of processors P >= 1")->required();
  cmd->add_option("--speeds", request->speeds, "processor speeds s1,s2,... (default all 1)")
      ->delimiter(',');
  cmd->add_option("--param", request->params, "schedule parameter name=value (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--iteration-times", *times_file,
                  "file of whitespace-separated nominal seconds, one per iteration; '-': "
                  "standard input");
  cmd->callback([request, times_file] {
    try {
      std::vector<double> times;
      if (*times_file == "-") {
        times = read_weights(std::cin, "<stdin>");
      } else if (!times_file->empty()) {
        std::ifstream file(*times_file);
        if (!file) throw PartitionInputError(*times_file + ": cannot open");
        times = read_weights(file, *times_file);
      }
      std::cout << run_schedule(*request, times).dump() << "\n";
    } catch (const PartitionInputError& e) {
      std::cerr << "lbbench schedule: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
  });
}

}  // namespace lbb
