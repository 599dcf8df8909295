#include "harness/results/result_schema.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace lbb {

namespace {

using T = ColumnType;
using P = Presence;
using R = StepRecord;
using Q = RunRecord;

constexpr std::string_view kRunId = "run id, the key that joins the tables";

// One line a column, in the order of the docs' tables and the writer's columns.
constexpr ColumnSpec kRuns[] = {
    {"run", T::kText, "", kRunId, P::kAlways, &Q::run},
    {"name", T::kText, "", "the config's name", P::kAlways, &Q::name},
    {"workload", T::kText, "", "workload kind", P::kAlways, &Q::workload},
    {"balancer", T::kText, "", "balancer entry's label", P::kAlways, &Q::balancer},
    {"static", T::kText, "", "initial partitioner (\"\" when none applies)", P::kAlways,
     &Q::static_name},
    {"dynamic", T::kText, "", "between-step or level balancer (\"\" when none)", P::kAlways,
     &Q::dynamic},
    {"plugin_library", T::kText, "",
     "`dynamic: plugin`: the plugin's shared library as the config named it; `dynamic: python`: "
     "the script; else the same of `static: plugin` or `static: python` (\"\" when none)",
     P::kAlways, &Q::plugin_library},
    {"plugin_sha256", T::kText, "",
     "`dynamic: plugin` or `python`: SHA-256 of that library's or script's bytes when the run "
     "started, in hex (\"\" when none)",
     P::kAlways, &Q::plugin_sha256},
    {"schedule", T::kText, "", "in-step schedule (\"\" when none)", P::kAlways, &Q::schedule},
    {"sweep", T::kText, "", "the sweep point, key=value,... (\"\" when none)", P::kAlways,
     &Q::sweep},
    {"balance_every", T::kInt64, "",
     "the entry's balance_every k: its between-step balancer decided after steps k, 2k, ... "
     "only (-1: no between-step balancer, or a set older than the column)",
     P::kAlways, &Q::balance_every},
    {"load_model", T::kText, "",
     "the entry's model: what its between-step balancer decided on, last (the last step's "
     "costs), persistence, moving_average or linear (\"\": no between-step balancer, or a set "
     "older than the column)",
     P::kAlways, &Q::load_model},
    {"load_model_window", T::kInt64, "",
     "the entry's model_window: steps its load model read, at most (1 for last; -1: none)",
     P::kAlways, &Q::load_model_window},
    {"mode", T::kText, "", "execution.mode", P::kAlways, &Q::mode},
    {"executor", T::kText, "",
     "the executor that ran it (lbbench list); self-scheduled in one process, the in-step "
     "schedule's name",
     P::kAlways, &Q::executor},
    {"topology", T::kText, "", "processor topology", P::kAlways, &Q::topology},
    {"processors", T::kInt64, "", "P, threads run as processors", P::kAlways, &Q::processors},
    {"speeds", T::kText, "", "each processor's emulated speed, comma-separated (1: nominal)",
     P::kAlways, &Q::speeds},
    {"external_load_max", T::kText, "",
     "each processor's largest emulated external load level m, comma-separated (0: none)",
     P::kAlways, &Q::external_load_max},
    {"modules", T::kInt64, "", "M, modules of the workload (0: level workloads)", P::kAlways,
     &Q::modules},
    {"steps", T::kInt64, "", "S, measured steps (levels for level workloads)", P::kAlways,
     &Q::steps},
    {"warmup", T::kInt64, "", "unrecorded warm-up steps", P::kAlways, &Q::warmup},
    {"repetition", T::kInt64, "", "repetition index, from 0", P::kAlways, &Q::repetition},
    {"status", T::kText, "", "complete, or failed (an error, or a result that did not verify)",
     P::kAlways, &Q::status},
    {"verified", T::kInt64, "",
     "1 when the result matched the serial reference; 0 when it did not, when the run failed "
     "first, or when the run was simulated (simulated 1: no kernel ran, nothing was verified)",
     P::kAlways, &Q::verified},
    {"simulated", T::kInt64, "",
     "1 when a simulating executor ran it (no kernel, nothing to verify: `table`, `show` and the "
     "report say \"not verified: simulated\"), 0 when a kernel ran (-1: a set older than the "
     "column)",
     P::kAlways, &Q::simulated},
    {"config_yaml", T::kText, "", "the run's fully resolved config", P::kAlways, &Q::config_yaml},
    {"record", T::kText, "",
     "execution.record: the tables the run wrote, runs, steps, procs or modules (each level "
     "with every coarser one's; the tables below say which); \"\": a set older than the "
     "column, whose runs wrote steps and procs, and modules where execution.module_detail was "
     "true",
     P::kAlways, &Q::record},
    {"invocation", T::kText, "", "the invocations row of the `lbbench run` that ran it", P::kAlways,
     &Q::invocation},
    {"run_uuid", T::kText, "", "random id; the same run in two sets", P::kAlways, &Q::run_uuid},
    {"git_sha", T::kText, "", "lbbench's commit (-dirty: uncommitted changes)", P::kAlways,
     &Q::git_sha},
    {"compiler", T::kText, "", "compiler id and version", P::kAlways, &Q::compiler},
    {"flags", T::kText, "", "compile flags and build type", P::kAlways, &Q::flags},
    {"host", T::kText, "", "host name", P::kAlways, &Q::host},
    {"cpu_model", T::kText, "", "CPU model (hwloc)", P::kAlways, &Q::cpu_model},
    {"omp_env", T::kText, "", "OMP_*/GOMP_* variables, proc_bind, places", P::kAlways, &Q::omp_env},
    {"hdf5_version", T::kText, "", "HDF5 library version", P::kAlways, &Q::hdf5_version},
    {"openblas", T::kText, "", "openblas_get_config()", P::kAlways, &Q::openblas},
    {"cores", T::kInt64, "", "physical cores (hwloc)", P::kAlways, &Q::cores},
    {"hardware_threads", T::kInt64, "", "processing units (hwloc)", P::kAlways,
     &Q::hardware_threads},
    {"available_processors", T::kInt64, "", "processors this process may use", P::kAlways,
     &Q::available_processors},
    {"oversubscribed", T::kInt64, "",
     "1 when P > available_processors and the run's threads are real (0 when simulated)",
     P::kAlways, &Q::oversubscribed},
    {"started", T::kText, "", "UTC start, ISO 8601", P::kAlways, &Q::started},
    {"load_start", T::kFloat64, "", "1-minute load average at the start", P::kAlways,
     &Q::load_start},
    {"load_end", T::kFloat64, "", "1-minute load average at the end", P::kAlways, &Q::load_end},
    {"finished", T::kText, "", "UTC end, ISO 8601", P::kAlways, &Q::finished},
    {"verification", T::kText, "", "what was compared with the reference", P::kSometimes,
     &Q::verification},
    {"verification_error", T::kFloat64, "", "error against the reference", P::kSometimes,
     &Q::verification_error},
    {"verification_tolerance", T::kFloat64, "", "largest error accepted", P::kSometimes,
     &Q::verification_tolerance},
    {"checksum", T::kFloat64, "", "checksum of the result", P::kSometimes, &Q::checksum},
    {"reference_checksum", T::kFloat64, "", "checksum of the serial reference", P::kSometimes,
     &Q::reference_checksum},
    {"makespan_total", T::kFloat64, "s", "sum of modelled step makespans", P::kSometimes,
     &Q::makespan_total},
    {"wall_total", T::kFloat64, "s", "sum of step wall times", P::kSometimes, &Q::wall_total},
    {"ideal_total", T::kFloat64, "s", "sum of ideal step times", P::kSometimes, &Q::ideal_total},
    {"largest_module_total", T::kFloat64, "s",
     "sum over steps of the largest module's cost over the fastest speed (0: costs not recorded)",
     P::kSometimes, &Q::largest_module_total},
    {"replayed_makespan_total", T::kFloat64, "s",
     "in-step schedules and fastest-finish schemes run on threads: the run's measured module costs "
     "(thread CPU time) replayed through the simulator's model at P processors of its speeds, "
     "summed over steps; the modelled verdict on an oversubscribed host (NaN: not replayed)",
     P::kSometimes, &Q::replayed_makespan_total},
    {"efficiency", T::kFloat64, "", "ideal_total / makespan_total", P::kSometimes, &Q::efficiency},
    {"imbalance", T::kFloat64, "", "mean over steps of max/mean busy - 1", P::kSometimes,
     &Q::imbalance},
    {"balance_total", T::kFloat64, "s", "sum of decision times", P::kSometimes, &Q::balance_total},
    {"migrations_total", T::kInt64, "", "module copies", P::kSometimes, &Q::migrations_total},
    {"bytes_moved_total", T::kInt64, "B", "bytes of module state copied", P::kSometimes,
     &Q::bytes_moved_total},
    {"initial_partition_seconds", T::kFloat64, "s", "initial partition time", P::kSometimes,
     &Q::initial_partition_seconds},
    {"results_seconds", T::kFloat64, "s", "thread CPU time handing step records to the writer",
     P::kSometimes, &Q::results_seconds},
    {"run_wall", T::kFloat64, "s", "wall time of the whole run", P::kSometimes, &Q::run_wall},
    {"tasks_total", T::kInt64, "", "level workloads: tasks over all levels", P::kSometimes,
     &Q::tasks_total},
    {"max_distance", T::kInt64, "", "level workloads: farthest hop of a task", P::kSometimes,
     &Q::max_distance},
    {"error", T::kText, "", "why the run failed", P::kOnFailure, &Q::error},
    {"interrupted", T::kInt64, "",
     "1: failed because the process was stopped as it ran (SIGINT, SIGTERM; under mpirun, "
     "another rank ended); `run --resume` runs it again, and the table and the report count the "
     "run that completes it instead; 0: not interrupted (-1: a set written before this column "
     "was always written)",
     P::kAlways, &Q::interrupted},
    {"ranks", T::kText, "",
     "a run across MPI ranks: rank:host:threads for each rank, comma-separated", P::kSometimes,
     &Q::ranks},
    {"auto_predicted_*", T::kFloat64, "s",
     "`dynamic: auto`: each candidate's predicted total at the run's first synchronisation (Zaki "
     "et al.'s cost model); a later phase's with the suffix _phase<k>",
     P::kSometimes},
    {"auto_chose_*", T::kFloat64, "", "`dynamic: auto`: 1 for the candidate it chose and ran",
     P::kSometimes},
    {"auto_decision_step", T::kFloat64, "",
     "`dynamic: auto`: the step of its choice, warm-up included (0: the run's first)",
     P::kSometimes},
    {"plugin_shadow_decisions", T::kFloat64, "",
     "`dynamic: plugin` with a shadow: decisions where the built-in shadow decided on the same "
     "view beside the plugin",
     P::kSometimes},
    {"plugin_shadow_differ", T::kFloat64, "",
     "`dynamic: plugin` with a shadow: of those, decisions whose owners differed from the "
     "shadow's (0: the plugin reproduced it)",
     P::kSometimes},
    {"plugin_shadow_*", T::kFloat64, "",
     "`dynamic: plugin` with a shadow: the two figures above of a later phase's plugin, with the "
     "suffix _phase<k>",
     P::kSometimes},
    {"partition_imbalance", T::kFloat64, "",
     "a static partitioner's placement on the predicted weights: the largest processor's load "
     "(cost / speed) over its share of the total, 1 = perfect (core/partition_quality.h)",
     P::kSometimes},
    {"partition_edge_cut", T::kFloat64, "",
     "the same placement: links of the workload's communication graph between two processors "
     "(absent: no graph)",
     P::kSometimes},
    {"partition_communication_volume", T::kFloat64, "",
     "the same placement: sum over modules of the other processors owning a neighbour (METIS's "
     "total communication volume; absent: no graph)",
     P::kSometimes},
    // The figures workloads and executors report after a run (WorkloadAttribute), by source.
    {"remote_runs", T::kFloat64, "",
     "in-step schedules on threads: module runs (one per module and phase) on a thread other than "
     "the one holding the module's state, over the run",
     P::kSometimes},
    {"utilization", T::kFloat64, "",
     "asynchronous runs: busy time / (P x the run's modelled time), over the whole run",
     P::kSometimes},
    {"modules_moved_per_step", T::kFloat64, "",
     "asynchronous runs: modules the predictive balancer moved, over the run, per step",
     P::kSometimes},
    {"idle_wall_total", T::kFloat64, "s",
     "asynchronous runs on threads: wall time the processors waited for a module they could run, "
     "summed over processors",
     P::kSometimes},
    {"sim_latency", T::kFloat64, "s",
     "simulated runs: execution.sim_latency, charged per message (a migrated module, a loop "
     "schedule's chunk request)",
     P::kSometimes},
    {"sim_bandwidth", T::kFloat64, "B/s",
     "simulated runs: execution.sim_bandwidth, the rate migrated bytes are charged at (0: free)",
     P::kSometimes},
    {"sim_decision_modelled", T::kFloat64, "",
     "simulated runs: 1 when a decision is charged sim_decision_seconds (execution.sim_decision: "
     "modelled), 0 when the balancer's own measured CPU time",
     P::kSometimes},
    {"sim_decision_seconds", T::kFloat64, "s",
     "simulated runs: execution.sim_decision_seconds, what a modelled decision costs",
     P::kSometimes},
    {"sim_contention", T::kFloat64, "",
     "simulated runs: execution.sim_contention c, a busy processor running 1 + c (n - 1) times "
     "slower while n are busy (0: none)",
     P::kSometimes},
    {"sim_exchange_all", T::kFloat64, "",
     "simulated runs: 1 under execution.sim_exchange: all (each step an all-to-all exchange of "
     "the holders' module states), 0: only migrations move data",
     P::kSometimes},
    {"mpi_ranks", T::kFloat64, "", "runs across MPI ranks: R, the ranks", P::kSometimes},
    {"mpi_threads_per_rank", T::kFloat64, "",
     "runs across MPI ranks: threads (processors) of each rank", P::kSometimes},
    {"exchange_bytes_total", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the workload's outputs (and states finish_step reads) sent "
     "to other ranks, summed over steps (metric_exchange_bytes)",
     P::kSometimes},
    {"exchange_seconds_total", T::kFloat64, "s",
     "runs across MPI ranks: wall time of the slowest rank's exchanges, summed over steps "
     "(metric_exchange_seconds)",
     P::kSometimes},
    {"remote_migrations_total", T::kFloat64, "",
     "runs across MPI ranks: module states sent to another rank, summed over steps", P::kSometimes},
    {"remote_bytes_total", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the module states sent to another rank, summed over steps",
     P::kSometimes},
    {"remote_seconds_total", T::kFloat64, "s",
     "runs across MPI ranks: wall time of the slowest rank's sends and receives of module states, "
     "summed over steps",
     P::kSometimes},
    {"local_migrations_total", T::kFloat64, "",
     "runs across MPI ranks: module states copied within a rank, summed over steps", P::kSometimes},
    {"local_bytes_total", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the module states copied within a rank, summed over steps",
     P::kSometimes},
    {"local_seconds_total", T::kFloat64, "s",
     "runs across MPI ranks: CPU time of the slowest processor's copies within its rank, summed "
     "over steps",
     P::kSometimes},
    {"balance_messages_total", T::kFloat64, "",
     "runs across MPI ranks: messages of the balancers' decisions, all ranks together, summed over "
     "steps (metric_balance_messages)",
     P::kSometimes},
    {"balance_bytes_total", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the decisions' messages, summed over steps", P::kSometimes},
    {"remote_takes_total", T::kFloat64, "",
     "asynchronous runs across MPI ranks: modules the predictive balancer took from a processor of "
     "another rank",
     P::kSometimes},
    {"remote_take_bytes_total", T::kFloat64, "B",
     "asynchronous runs across MPI ranks: bytes of the states those takes sent", P::kSometimes},
    {"remote_take_seconds_total", T::kFloat64, "s",
     "asynchronous runs across MPI ranks: wall time from each take's request to the state's "
     "arrival, summed",
     P::kSometimes},
    {"local_takes_total", T::kFloat64, "",
     "asynchronous runs across MPI ranks: modules taken from a processor of the same rank",
     P::kSometimes},
    {"takes_refused_total", T::kFloat64, "",
     "asynchronous runs across MPI ranks: requests for another rank's module refused (running, "
     "moving, or no longer the giver's)",
     P::kSometimes},
    {"notice_messages_total", T::kFloat64, "",
     "asynchronous runs across MPI ranks: messages telling another rank of a finished module step "
     "or a module's new owner",
     P::kSometimes},
    {"notice_bytes_total", T::kFloat64, "B",
     "asynchronous runs across MPI ranks: bytes of those notices", P::kSometimes},
    {"levels", T::kFloat64, "", "level workloads: levels (generations) run", P::kSometimes},
    {"LB_model", T::kFloat64, "task cost",
     "level workloads: LB, the predicted task costs over the sum of speeds, summed over levels "
     "(Hwang & Hong 2001)",
     P::kSometimes},
    {"T_model", T::kFloat64, "task cost",
     "level workloads: T, the largest processor load plus the farthest task's communication term, "
     "summed over levels",
     P::kSometimes},
    {"comm_model", T::kFloat64, "task cost",
     "level workloads: T's communication terms max_a d(f(a), g(a)) (B_a + M_a), summed over levels",
     P::kSometimes},
    {"LB_mean", T::kFloat64, "task cost", "simulated task trees: LB_model / levels", P::kSometimes},
    {"T_mean", T::kFloat64, "task cost", "simulated task trees: T_model / levels", P::kSometimes},
    {"T_over_LB", T::kFloat64, "", "simulated task trees: T_model / LB_model (1: the lower bound)",
     P::kSometimes},
    {"c_cost", T::kFloat64, "",
     "simulated task trees: C-COST, a parent-child communication cost over the child's cost",
     P::kSometimes},
    {"min", T::kFloat64, "task cost", "simulated task trees: MIN, the least task cost",
     P::kSometimes},
    {"max", T::kFloat64, "task cost", "simulated task trees: MAX, the largest task cost",
     P::kSometimes},
    {"restarts", T::kFloat64, "",
     "simulated task trees: generations that would have been empty and restarted the tree",
     P::kSometimes},
    {"children_per_task", T::kFloat64, "",
     "simulated task trees: children born per task that bore any", P::kSometimes},
    {"nodes", T::kFloat64, "", "tree_search: nodes of the whole UTS tree", P::kSometimes},
    {"depth", T::kFloat64, "", "tree_search: depth of the UTS tree", P::kSometimes},
    {"leaves", T::kFloat64, "", "tree_search: leaves of the UTS tree", P::kSometimes},
    {"force_rms_error", T::kFloat64, "",
     "barnes_hut: rms relative error of the tree forces against direct summation on sampled bodies",
     P::kSometimes},
    {"force_max_error", T::kFloat64, "", "barnes_hut: largest relative force error on those bodies",
     P::kSometimes},
    {"force_error_bound", T::kFloat64, "", "barnes_hut: the rms force error accepted (from theta)",
     P::kSometimes},
    {"energy_drift", T::kFloat64, "",
     "barnes_hut: relative change of the total energy over the run", P::kSometimes},
    {"energy_drift_bound", T::kFloat64, "", "barnes_hut: the energy drift accepted", P::kSometimes},
    {"interactions_per_body", T::kFloat64, "", "barnes_hut: tree interactions per body and step",
     P::kSometimes},
    {"tree_cells", T::kFloat64, "", "barnes_hut: cells of the tree", P::kSometimes},
    {"*", T::kFloat64, "",
     "a figure of a workload or executor that this table does not describe yet (a test fails "
     "for every one lbbench writes)",
     P::kSometimes},
};

constexpr ColumnSpec kSteps[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index, from 0 (warm-up steps are not recorded)"},
    {"wall", T::kFloat64, "s", "compute + serial + balance + migration phases, wall clock",
     P::kAlways, &R::wall},
    {"compute_wall", T::kFloat64, "s", "first processor start to last processor end", P::kAlways,
     &R::compute_wall},
    {"makespan", T::kFloat64, "s",
     "modelled: sum over phases of the slowest processor + serial (CPU time)", P::kAlways,
     &R::makespan},
    {"ideal", T::kFloat64, "s", "sum of busy CPU time / sum of speeds (the lower bound)",
     P::kAlways, &R::ideal},
    {"serial", T::kFloat64, "s", "the workload's serial end-of-step work (CPU)", P::kAlways,
     &R::serial},
    {"balance", T::kFloat64, "s", "decision time, sum over phases of the largest processor's (CPU)",
     P::kAlways, &R::balance},
    {"balance_wall", T::kFloat64, "s", "wall time of the step's decisions, waiting included",
     P::kAlways, &R::balance_wall},
    {"migrations", T::kInt64, "", "module copies during and after the step", P::kAlways,
     &R::migrations},
    {"bytes_moved", T::kInt64, "B", "bytes of module state copied", P::kAlways, &R::bytes_moved},
    {"predicted_before", T::kFloat64, "s",
     "predicted makespan (max over processors of sum(cost) / speed, summed over phases) of the "
     "assignment the step's decisions started from; NaN when none predicted",
     P::kAlways, &R::predicted_before},
    {"predicted_after", T::kFloat64, "s",
     "predicted makespan of the decisions' proposal, moved or declined; NaN when none predicted",
     P::kAlways, &R::predicted_after},
    // The step metrics workloads and executors declare (StepMetric), by source; NaN in the
    // rows of runs without them.
    {"metric_residual", T::kFloat64, "",
     "block_substitution: relative residual ||b - A x|| / ||b|| of the iterate entering the step",
     P::kSometimes},
    {"metric_norm", T::kFloat64, "",
     "trfd: Frobenius norm of the transformed n^4 tensor (invariant: C is orthogonal)",
     P::kSometimes},
    {"metric_checksum", T::kFloat64, "", "matmul: sum of all entries of Z after the step",
     P::kSometimes},
    {"metric_energy", T::kFloat64, "",
     "barnes_hut: total energy (kinetic + tree potential) at the start of the step, in the "
     "model's units",
     P::kSometimes},
    {"metric_crossings", T::kFloat64, "",
     "barnes_hut: bodies that moved to another module (cell) at the end of the step",
     P::kSometimes},
    {"metric_interactions", T::kFloat64, "",
     "barnes_hut: tree interactions (cells accepted + bodies summed) in the step", P::kSometimes},
    {"metric_nodes", T::kFloat64, "", "tree_search: tree nodes expanded in the level",
     P::kSometimes},
    {"metric_leaves", T::kFloat64, "", "tree_search: leaves among the level's nodes",
     P::kSometimes},
    {"metric_tasks", T::kFloat64, "", "level workloads: tasks (modules) of the level",
     P::kSometimes},
    {"metric_lb_model", T::kFloat64, "task cost",
     "level workloads: the level's LB, the sum of predicted task costs E_a over the sum of speeds",
     P::kSometimes},
    {"metric_t_model", T::kFloat64, "task cost",
     "level workloads: the level's T_i, the largest processor load + max_a d(f(a), g(a)) (B_a + "
     "M_a)",
     P::kSometimes},
    {"metric_comm_model", T::kFloat64, "task cost",
     "level workloads: T_i's communication term max_a d(f(a), g(a)) (B_a + M_a)", P::kSometimes},
    {"metric_max_distance", T::kFloat64, "",
     "level workloads: hops from its creator of the level's farthest task", P::kSometimes},
    {"metric_remote_runs", T::kFloat64, "",
     "in-step schedules on threads: module runs (one per module and phase) on a thread other than "
     "the one holding the module's state",
     P::kSometimes},
    {"metric_schedule_choice", T::kFloat64, "",
     "auto4omp runs: the candidate the step's last loop ran under, its place in `candidates` "
     "from 0",
     P::kSometimes},
    {"metric_utilization", T::kFloat64, "",
     "asynchronous runs: busy time / (P x modelled time) over the step's stretch of the run",
     P::kSometimes},
    {"metric_modules_moved", T::kFloat64, "",
     "asynchronous runs: modules the predictive balancer moved in the step's stretch",
     P::kSometimes},
    {"metric_sim_migration", T::kFloat64, "s",
     "simulated runs: latency + bytes / bandwidth charged for the step's copies", P::kSometimes},
    {"metric_sim_synchronisation", T::kFloat64, "s",
     "simulated runs: synchronisation and instruction messages of in-step schemes (Zaki et al.)",
     P::kSometimes},
    {"metric_sim_decision", T::kFloat64, "s",
     "simulated runs: balancer decision time charged, measured or modelled", P::kSometimes},
    {"metric_sim_contention", T::kFloat64, "s",
     "simulated runs: busy time the contention model added", P::kSometimes},
    {"metric_sim_exchange", T::kFloat64, "s",
     "simulated runs: the application's exchange (sim_exchange: all), summed over processors; "
     "replaying an mpi run, the ranks' exchange and decision broadcast (the step's serial part)",
     P::kSometimes},
    {"metric_exchange_bytes", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the workload's outputs (and states, where finish_step reads "
     "them) sent to other ranks in the step",
     P::kSometimes},
    {"metric_exchange_seconds", T::kFloat64, "s",
     "runs across MPI ranks: wall time of the slowest rank's exchanges, waiting for the others "
     "excluded",
     P::kSometimes},
    {"metric_remote_migrations", T::kFloat64, "",
     "runs across MPI ranks: module states sent to another rank (one MPI message each)",
     P::kSometimes},
    {"metric_remote_bytes", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the module states sent to another rank", P::kSometimes},
    {"metric_remote_seconds", T::kFloat64, "s",
     "runs across MPI ranks: wall time of the slowest rank's sends and receives of states",
     P::kSometimes},
    {"metric_local_migrations", T::kFloat64, "",
     "runs across MPI ranks: module states copied within a rank", P::kSometimes},
    {"metric_local_bytes", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the module states copied within a rank", P::kSometimes},
    {"metric_local_seconds", T::kFloat64, "s",
     "runs across MPI ranks: CPU time of the slowest processor's copies within its rank",
     P::kSometimes},
    {"metric_balance_messages", T::kFloat64, "",
     "runs across MPI ranks: messages of the step's decisions, all ranks together, as the "
     "balancer's scope sends them (docs/engine.md); a collective counts each rank's part to each "
     "other rank",
     P::kSometimes},
    {"metric_balance_bytes", T::kFloat64, "B",
     "runs across MPI ranks: bytes of the step's decision messages", P::kSometimes},
    {"metric_remote_takes", T::kFloat64, "",
     "asynchronous runs across MPI ranks: modules the predictive balancer took from a processor "
     "of another rank (a request, then the state in one MPI message)",
     P::kSometimes},
    {"metric_remote_take_bytes", T::kFloat64, "B",
     "asynchronous runs across MPI ranks: bytes of the states the step's takes sent",
     P::kSometimes},
    {"metric_remote_take_seconds", T::kFloat64, "s",
     "asynchronous runs across MPI ranks: wall time from each take's request to the state's "
     "arrival on the taker's rank, summed",
     P::kSometimes},
    {"metric_local_takes", T::kFloat64, "",
     "asynchronous runs across MPI ranks: modules taken from a processor of the same rank",
     P::kSometimes},
    {"metric_takes_refused", T::kFloat64, "",
     "asynchronous runs across MPI ranks: requests for a module of another rank refused in the "
     "step",
     P::kSometimes},
    {"metric_notice_messages", T::kFloat64, "",
     "asynchronous runs across MPI ranks: messages telling another rank of a finished module step "
     "or a module's new owner, each message to each rank",
     P::kSometimes},
    {"metric_notice_bytes", T::kFloat64, "B",
     "asynchronous runs across MPI ranks: bytes of the step's notices", P::kSometimes},
    {"metric_*", T::kFloat64, "",
     "a step metric that this table does not describe yet (a test fails for every one lbbench "
     "writes)",
     P::kSometimes},
};

constexpr ColumnSpec kProcs[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index"},
    {"proc", T::kInt64, "", "processor index, from 0"},
    {"busy", T::kFloat64, "s", "thread CPU time running modules", P::kAlways, &R::busy},
    {"busy_wall", T::kFloat64, "s", "wall time running modules (preemption included)", P::kAlways,
     &R::busy_wall},
    {"idle", T::kFloat64, "s", "makespan - serial - (busy + balance + migration)", P::kAlways,
     &R::idle},
    {"balance", T::kFloat64, "s", "own decision time, or the decider's it waited for", P::kAlways,
     &R::proc_balance},
    {"migration", T::kFloat64, "s", "CPU time copying module states in", P::kAlways,
     &R::proc_migration},
    {"external_load", T::kFloat64, "",
     "emulated load level, mean over the step's module time (0: none)", P::kAlways,
     &R::external_load},
    {"triggered", T::kInt32, "", "in-step synchronisations the processor triggered (0: none)",
     P::kAlways, &R::triggered},
};

constexpr ColumnSpec kModules[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index"},
    {"phase", T::kInt32, "", "the workload's phase within the step, from 0"},
    {"module", T::kInt64, "", "module index, from 0"},
    {"cost", T::kFloat64, "s", "the module's cost in the phase, scaled to its owner's CPU time"},
    {"owner", T::kInt32, "", "the processor that ran it in the phase (-1: not recorded)"},
    {"start_owner", T::kInt32, "",
     "the processor that held it when the phase began: owner unless an in-step balancer moved "
     "it before it ran (-1: not recorded)"},
    {"state_bytes", T::kInt64, "B",
     "its state's size at the step's end, after the workload's end of step: what a move after "
     "the step copies (-1: not recorded)"},
    {"start_bytes", T::kInt64, "B",
     "its state's size when the step began (after a warm-up, at its end): what it ran with "
     "(-1: not recorded)"},
};

constexpr ColumnSpec kTransfers[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index"},
    {"phase", T::kInt32, "", "the phase whose end moved it (the last: the workload's end of step)"},
    {"from", T::kInt64, "", "the module whose state it left"},
    {"to", T::kInt64, "", "the module whose state it joined"},
    {"bytes", T::kFloat64, "B",
     "state bytes handed over (Barnes-Hut: the records of the bodies that crossed cells)"},
};

constexpr ColumnSpec kInvocations[] = {
    {"invocation", T::kText, "", "invocation id (UTC start and a random suffix)"},
    {"started", T::kText, "", "UTC start, ISO 8601"},
    {"command", T::kText, "", "the command line"},
    {"host", T::kText, "", "host name"},
    {"git_sha", T::kText, "", "lbbench's commit"},
    {"git_dirty", T::kInt64, "", "1 when built with uncommitted changes"},
    {"compiler", T::kText, "", "compiler id and version"},
    {"flags", T::kText, "", "compile flags"},
    {"build_type", T::kText, "", "CMake build type"},
    {"cpu_model", T::kText, "", "CPU model (hwloc, else /proc/cpuinfo)"},
    {"cpu_governor", T::kText, "", "cpufreq governor of cpu0 (\"unknown\")"},
    {"omp_env", T::kText, "", "every OMP_*/GOMP_* variable, proc_bind, places"},
    {"openblas", T::kText, "", "openblas_get_config()"},
    {"openblas_core", T::kText, "", "openblas_get_corename(): the kernel chosen"},
    {"hdf5_version", T::kText, "", "HDF5 library version"},
    {"slice", T::kText, "", "i/n of `run --slice`, \"\" for the whole sweep"},
    {"hwloc_topology", T::kText, "", "the host's hwloc XML export"},
};

constexpr ColumnSpec kSpans[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index"},
    {"phase", T::kInt32, "", "the workload's phase within the step, from 0"},
    {"proc", T::kInt64, "", "processor index, from 0: the track the span is on"},
    {"rank", T::kInt32, "", "MPI rank that ran the processor (0: one process)"},
    {"kind", T::kText, "",
     "module (a module's execution), decision (a balancer's), migration (copying or sending "
     "states), wait (at a barrier or for a decision), serial (the workload's end of step)"},
    {"module", T::kInt64, "", "the module of a module span (-1: another kind)"},
    {"start", T::kInt64, "ns",
     "from the run's time base: the run's start on its monotonic clock (across MPI ranks rank "
     "0's, docs/results.md \"Timeline\")"},
    {"end", T::kInt64, "ns", "from the run's time base; no span of a processor overlaps another"},
};

constexpr TableSpec kTables[] = {
    {TableId::kRuns, "runs", "one row per run that ended", kRuns, RecordLevel::kRuns},
    {TableId::kSteps, "steps", "one row per measured step of a run", kSteps, RecordLevel::kSteps},
    {TableId::kProcs, "procs", "one row per processor of a measured step", kProcs,
     RecordLevel::kProcs},
    {TableId::kModules, "modules", "one row per module of a phase of a measured step", kModules,
     RecordLevel::kModules},
    {TableId::kInvocations, "invocations", "one row per `lbbench run` that wrote the part",
     kInvocations, RecordLevel::kRuns},
    {TableId::kSpans, "spans", "one row per measured span of a processor's timeline", kSpans,
     RecordLevel::kRuns, "execution.timeline: true"},
    {TableId::kTransfers, "transfers",
     "one row per pair of modules a measured step's end moved state between", kTransfers,
     RecordLevel::kModules, "", true},
};

// "written by every run" or "written by runs with execution.record: procs or modules".
std::string written_by(RecordLevel level) {
  if (level == RecordLevel::kRuns) return "written by every run";
  std::string levels;
  for (std::size_t k = static_cast<std::size_t>(level); k < kRecordLevelNames.size(); ++k)
    levels += std::string(levels.empty()                      ? ""
                          : k + 1 == kRecordLevelNames.size() ? " or "
                                                              : ", ") +
              std::string(kRecordLevelNames[k]);
  return "written by runs with execution.record: " + levels;
}

std::string_view presence_name(Presence p) {
  switch (p) {
    case Presence::kAlways:
      return "always";
    case Presence::kOnFailure:
      return "on failure";
    case Presence::kSometimes:
      return "sometimes";
  }
  return "?";
}

}  // namespace

std::span<const TableSpec> result_tables() {
  return kTables;
}

const TableSpec& table_spec(TableId id) {
  return kTables[static_cast<int>(id)];
}

const ColumnSpec* find_column(TableId table, std::string_view name) {
  const ColumnSpec* family = nullptr;
  for (const ColumnSpec& c : table_spec(table).columns) {
    if (c.name == name) return &c;
    const std::string_view prefix = c.name.substr(0, c.name.size() - 1);
    if (!family && c.name.ends_with('*') && name.starts_with(prefix) && name.size() > prefix.size())
      family = &c;
  }
  return family;
}

std::optional<std::string> run_text(const RunRecord& run, std::string_view column) {
  const ColumnSpec* spec = find_column(TableId::kRuns, column);
  const auto* member = spec ? std::get_if<std::string RunRecord::*>(&spec->field) : nullptr;
  return member ? std::optional<std::string>(run.**member) : std::nullopt;
}

std::optional<double> run_number(const RunRecord& run, std::string_view column) {
  const ColumnSpec* spec = find_column(TableId::kRuns, column);
  if (!spec) return run.figure(column);
  if (const auto* member = std::get_if<std::int64_t RunRecord::*>(&spec->field))
    return run.**member == -1 ? std::nullopt : std::optional<double>(run.**member);
  if (const auto* member = std::get_if<double RunRecord::*>(&spec->field))
    return std::isnan(run.**member) ? std::nullopt : std::optional<double>(run.**member);
  if (spec->field.index() == 0) return run.figure(column);
  return std::nullopt;
}

std::string_view column_type_name(ColumnType t) {
  switch (t) {
    case ColumnType::kText:
      return "text";
    case ColumnType::kInt32:
      return "int32";
    case ColumnType::kInt64:
      return "int64";
    case ColumnType::kFloat64:
      return "float64";
  }
  return "?";
}

std::string result_schema_json() {
  nlohmann::json j;
  j["schema"] = kResultSchemaName;
  j["schema_version"] = kResultSchemaVersion;
  for (const TableSpec& t : kTables) {
    nlohmann::json table{
        {"name", t.name}, {"meaning", t.meaning}, {"record", record_level_name(t.record)}};
    if (!t.switch_key.empty()) table["written_with"] = t.switch_key;
    for (const ColumnSpec& c : t.columns)
      table["columns"].push_back({{"name", c.name},
                                  {"type", column_type_name(c.type)},
                                  {"unit", c.unit},
                                  {"presence", presence_name(c.presence)},
                                  {"meaning", c.meaning}});
    j["tables"].push_back(table);
  }
  return j.dump(2);
}

void write_result_schema_markdown(std::ostream& out) {
  out << "Schema `" << kResultSchemaName << "` version " << kResultSchemaVersion
      << ". A name ending in `*` is a family of columns. A row without a value holds \"\" (text), "
         "-1 (integer) or NaN (float64).\n";
  for (const TableSpec& t : kTables) {
    out << "\n`/" << t.name << "`: " << t.meaning << "; "
        << (t.switch_key.empty()
                ? written_by(t.record)
                : "written by runs with " + std::string(t.switch_key) + ", at any execution.record")
        << ".\n\n"
        << "| column | type | unit | present | meaning |\n|---|---|---|---|---|\n";
    for (const ColumnSpec& c : t.columns)
      out << "| `" << c.name << "` | " << column_type_name(c.type) << " | " << c.unit << " | "
          << presence_name(c.presence) << " | " << c.meaning << " |\n";
  }
}

}  // namespace lbb
