// The single table of executors. Adding one: its class (an Executor for module workloads) and
// one line here.
#include "harness/run/executor_registry.h"

#include <stdexcept>

#include "harness/base/process_world.h"
#include "harness/base/schedule.h"
#include "harness/exec/async_executor.h"
#include "harness/exec/bsp_executor.h"
#include "harness/exec/self_scheduled_executor.h"
#include "harness/formats/trace_workload.h"
#if LBB_HAVE_MPI
#include "harness/mpi/mpi_async_executor.h"
#include "harness/mpi/mpi_executor.h"
#endif
#include "harness/results/result_reader.h"
#include "harness/sim/simulate_executor.h"
#include "harness/sim/tree_execution.h"

namespace lbb {

namespace {

// The simulator's line: it sits above the engine (harness/sim/), so the table does too.
ExecutorInfo simulate_executor_info() {
  ExecutorInfo info{
      "simulate",
      "no kernel: the balancers decide on recorded (execution.replay_set) or synthetic module "
      "costs for P virtual processors, charged as a real machine would (execution.sim_*)",
      WorkShape::kModules,
      true,
      true,
      [modules = module_execution([](const RunSpec& spec) {
         return std::make_unique<SimulateExecutor>(
             simulation_settings(spec), nullptr,
             schedule_choice(spec.balancer.schedule_name, spec.balancer.schedule_params),
             [](const std::string& set) { return std::make_unique<ResultReader>(set); });
       })](const RunSpec& spec, const WorkloadInfo& workload) {
        if (std::string why = simulated_run_problem(spec, workload); !why.empty())
          throw std::invalid_argument(why);
        // Hwang & Hong's random trees are balanced generation by generation, not as modules.
        return workload.task_tree ? tree_execution(spec, workload) : modules(spec, workload);
      }};
  info.simulates = true;
  info.record = RecordLevel::kSteps;
  return info;
}

#if LBB_HAVE_MPI
// The executors across ranks are the ones an MPI launcher starts.
void require_launcher(const std::string& executor) {
  if (process_world().size < 2)
    throw std::invalid_argument("executor " + executor +
                                " runs under an MPI launcher: mpirun -np R lbbench run CONFIG");
}
#endif

ExecutorInfo asynchronous(ExecutorInfo info) {
  info.asynchronous = true;
  return info;
}

}  // namespace

std::span<const ExecutorInfo> executor_registry() {
  static const std::vector<ExecutorInfo> all = {
    {"bsp",
     "bulk-synchronous steps: every processor runs its assigned modules phase by phase; "
     "balancers "
     "decide between steps or, profile-driven, when a group's fastest finishes (Zaki, Li & "
     "Parthasarathy 1997)",
     WorkShape::kModules, true, false,
     module_execution([](const RunSpec&) { return std::make_unique<BspExecutor>(); })},
    {"self_scheduled",
     "bulk-synchronous steps whose modules the threads take as an OpenMP schedule hands them out "
     "(the in-step baselines)",
     WorkShape::kModules, false, true, module_execution([](const RunSpec& spec) {
       return std::make_unique<SelfScheduledExecutor>(
           schedule_choice(spec.balancer.schedule_name, spec.balancer.schedule_params));
     })},
    {"level",
     "level-synchronous: the tasks of level i are born, balanced and run before any of level "
     "i+1 (Hwang & Hong 2001, section 3)",
     WorkShape::kLevels, true, true, level_execution},
    asynchronous(
        {"async",
         "no barrier between steps: a module runs step s once the modules it depends on finished "
         "s-1; the predictive balancer moves modules meanwhile (Iqbal, Saltz & Bokhari 1986)",
         WorkShape::kModules, true, false,
         module_execution([](const RunSpec&) { return std::make_unique<AsyncExecutor>(); })}),
    asynchronous(
        {"async_modelled",
         "async in the order of the modelled clocks, one processor acting at a time: the run P "
         "dedicated processors would make, on a host with fewer free cores",
         WorkShape::kModules, true, false, module_execution([](const RunSpec&) {
           return std::make_unique<AsyncExecutor>(AsyncOrder::kModelled);
         })}),
    simulate_executor_info(),
#if LBB_HAVE_MPI
    {"mpi",
     "bsp across MPI ranks (mpirun -np R lbbench run): processors = R x threads per rank; a "
     "module's state lives on its owner's rank and crosses ranks as an MPI message",
     WorkShape::kModules, true, false, module_execution([](const RunSpec&) {
       require_launcher("mpi");
       return std::make_unique<MpiExecutor>();
     })},
    {"mpi_self_scheduled",
     "self_scheduled across MPI ranks (mpirun -np R lbbench run), hybrid MPI+OpenMP: modules "
     "placed in blocks over the R x threads processors, each rank's threads take its modules as "
     "the schedule hands them out; no state crosses ranks",
     WorkShape::kModules, false, true, module_execution([](const RunSpec& spec) {
       require_launcher("mpi_self_scheduled");
       return std::make_unique<MpiExecutor>(
           schedule_choice(spec.balancer.schedule_name, spec.balancer.schedule_params));
     })},
    asynchronous(
        {"mpi_async",
         "async across MPI ranks (mpirun -np R lbbench run): finished module steps and the "
         "predictive balancer's takes cross ranks as MPI messages, a taken module's state with "
         "them",
         WorkShape::kModules, true, false, module_execution([](const RunSpec&) {
           require_launcher("mpi_async");
           return std::make_unique<MpiAsyncExecutor>();
         })}),
#endif
  };
  return all;
}

const ExecutorInfo* find_executor(std::string_view name) {
  for (const auto& info : executor_registry())
    if (info.name == name) return &info;
  return nullptr;
}

std::vector<std::string> executor_choices() {
  std::vector<std::string> names = {"auto"};
  for (const auto& info : executor_registry()) names.push_back(info.name);
  return names;
}

WorkShape workload_shape(const WorkloadInfo& workload) {
  return workload.make_levels      ? WorkShape::kLevels
         : workload.simulated_only ? WorkShape::kCosts
                                   : WorkShape::kModules;
}

std::string executor_mismatch(const ExecutorInfo& info, const RunSpec& spec, WorkShape shape) {
  if (shape == WorkShape::kCosts && !info.simulates)
    return "executor " + info.name +
           " runs kernels; synthetic costs need execution.executor: simulate";
  if (info.shape != shape && !(info.simulates && shape == WorkShape::kCosts))
    return "executor " + info.name + " runs " +
           (info.shape == WorkShape::kLevels ? "level workloads (tasks born level by level)"
                                             : "module workloads (modules that persist)");
  const bool schedule = !spec.balancer.schedule_name.empty();
  if (schedule && !info.takes_schedule)
    return "executor " + info.name + " runs balancers, not the in-step schedule " +
           spec.balancer.schedule_name;
  if (!schedule && !info.takes_balancers)
    return "executor " + info.name +
           " runs an in-step schedule ({ schedule: NAME }), not balancers";
  return "";
}

namespace {

// Under an MPI launcher every run spans the ranks: the bulk-synchronous, self-scheduled and
// asynchronous executors become their versions across ranks, and an executor that runs in one
// process is refused (async_modelled's one-thread order of the modelled clocks has no meaning
// across ranks).
const ExecutorInfo& across_ranks(const ExecutorInfo& chosen) {
  if (process_world().size < 2 || chosen.name.starts_with("mpi")) return chosen;
  const char* spanning = chosen.name == "bsp"              ? "mpi"
                         : chosen.name == "self_scheduled" ? "mpi_self_scheduled"
                         : chosen.name == "async"          ? "mpi_async"
                                                           : "";
  if (const ExecutorInfo* across = find_executor(spanning)) return *across;
  throw std::invalid_argument(
      "executor " + chosen.name + " runs in one process, not across " +
      std::to_string(process_world().size) + " MPI ranks: run this entry without mpirun" +
      (chosen.name == "async_modelled" ? " (or with executor async, which crosses ranks)" : ""));
}

const ExecutorInfo& choose_in_one_process(const RunSpec& spec, const WorkloadInfo& workload) {
  const WorkShape shape = workload_shape(workload);
  if (spec.executor != "auto") {
    const ExecutorInfo* info = find_executor(spec.executor);
    if (!info) throw std::invalid_argument("unknown executor " + spec.executor);
    if (std::string why = executor_mismatch(*info, spec, shape); !why.empty())
      throw std::invalid_argument(why);
    return *info;
  }
  for (const auto& info : executor_registry())
    if (executor_mismatch(info, spec, shape).empty()) return info;
  throw std::invalid_argument("no executor runs " + workload.name + " with " + spec.balancer.label);
}

}  // namespace

bool asynchronous_steps(const ExecutorInfo& info, const RunSpec& spec) {
  return info.asynchronous || (info.simulates && simulation_settings(spec).asynchronous);
}

const ExecutorInfo& choose_executor(const RunSpec& spec, const WorkloadInfo& workload) {
  return across_ranks(choose_in_one_process(spec, workload));
}

const ExecutorInfo& executor_of(const RunSpec& spec) {
  if (spec.executor != "auto") {
    if (const ExecutorInfo* kept = find_executor(spec.executor)) return *kept;
    throw std::invalid_argument("unknown executor " + spec.executor);
  }
  const WorkloadInfo* workload = find_workload_kind(spec.workload);
  if (!workload) throw std::invalid_argument("unknown workload " + spec.workload);
  return choose_executor(spec, *workload);
}

bool runs_simulated(const RunSpec& spec) {
  try {
    return executor_of(spec).simulates;
  } catch (const std::invalid_argument&) {
    return false;  // no executor runs it: the run fails, and says why
  }
}

}  // namespace lbb
