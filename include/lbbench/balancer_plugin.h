/* lbbench's stable C interface for a balancer of your own (docs/your-balancer.md).
 *
 * A plugin is a shared library exporting one function, lbb_balancer_plugin, that returns a
 * description of the balancer: the interface version it was built against, its name, and the
 * functions lbbench calls. A config names it as
 *   { dynamic: plugin, library: PATH, params: { key: value, ... } }
 * and lbbench calls init once per run with those params, decide after every step on the
 * step's measured load, and finish at the end of the run.
 *
 * C99, no lbbench type leaks in: a plugin needs this header alone. Every array in a view is
 * lbbench's own memory, valid during the call only, never written by the plugin (except
 * new_owner). decide is never called concurrently within a process: one processor decides for
 * all; under mpirun rank 0 alone, its owners broadcast, or every rank, as decides_on says. */
#ifndef LBBENCH_BALANCER_PLUGIN_H
#define LBBENCH_BALANCER_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct below or a function's meaning changes; lbbench refuses a plugin
 * built against another version, naming both. */
#define LBB_PLUGIN_API_VERSION 2

/* What decide returns. Negative values are errors: the run fails, naming the plugin, the step
 * and the message the plugin wrote (nothing moves). */
#define LBB_PLUGIN_MOVE 0 /* new_owner holds the new owner of every module */
#define LBB_PLUGIN_KEEP 1 /* keep the current assignment; new_owner is ignored */
#define LBB_PLUGIN_ERROR (-1)

/* Where decide runs under mpirun (lbb_plugin.decides_on); within one process, once either way. */
#define LBB_PLUGIN_ON_ONE_RANK 0   /* rank 0 decides, sends its owners to the others */
#define LBB_PLUGIN_ON_EVERY_RANK 1 /* every rank decides on the same view, no owners sent */

/* One key: value of the config entry's params, both as written in the YAML (numbers as text). */
typedef struct lbb_plugin_param {
  const char* key;
  const char* value;
} lbb_plugin_param;

/* The load a decision reads. Compressed sparse rows (CSR): the neighbours of row i are
 * target[offset[i] .. offset[i+1]). */
typedef struct lbb_plugin_view {
  int api_version; /* LBB_PLUGIN_API_VERSION */
  int step;        /* the step just finished, from 0; -1 before the first */
  int phase;       /* the workload's phase within the step, from 0 */
  int processors;  /* P */
  int modules;     /* M */

  /* Processors. speed[P]: relative speed, 1 = nominal. busy[P]: seconds each spent running
   * modules in the phase, or NULL. Topology neighbours in CSR: proc_offset[P + 1],
   * proc_neighbour[proc_offset[P]]. */
  const double* speed;
  const double* busy;
  const int* proc_offset;
  const int* proc_neighbour;

  /* Modules. owner[M]: current processor of each module (a block assignment before the first
   * step). cost[M]: measured seconds of the step (or predicted weight before it). bytes[M]:
   * state size, what moving the module copies. migratable[M]: 0 where the module must stay
   * with its owner, or NULL when every module may move. */
  const int* owner;
  const double* cost;
  const uint64_t* bytes;
  const unsigned char* migratable;

  /* Communication between modules in CSR, or all NULL when the workload declares none:
   * comm_offset[M + 1], comm_neighbour[comm_offset[M]], and comm_bytes[comm_offset[M]] the
   * bytes exchanged per step on each link (NULL when the workload gives no volumes). */
  const int* comm_offset;
  const int* comm_neighbour;
  const double* comm_bytes;
} lbb_plugin_view;

typedef struct lbb_plugin {
  int api_version;  /* set to LBB_PLUGIN_API_VERSION */
  const char* name; /* shown in messages, e.g. "greedy_plugin" */

  /* Optional (NULL: no state, no params accepted). Reads the config's params and sets *state
   * (handed to decide and finish). Returns 0, or nonzero with a message in error[error_size]:
   * `lbbench validate` then refuses the config entry. */
  int (*init)(const lbb_plugin_param* params, int count, void** state, char* error,
              size_t error_size);

  /* Required. new_owner[M] holds the current owners on entry; write the new owner of every
   * module and return LBB_PLUGIN_MOVE, or return LBB_PLUGIN_KEEP, or a negative code with a
   * message in error[error_size]. */
  int (*decide)(void* state, const lbb_plugin_view* view, int* new_owner, char* error,
                size_t error_size);

  /* Optional: frees the state at the end of the run. */
  void (*finish)(void* state);

  /* LBB_PLUGIN_ON_ONE_RANK (0, the default of an initializer that leaves it out) or
   * LBB_PLUGIN_ON_EVERY_RANK (1): then every rank receives every processor's busy time, calls
   * decide on the same view and applies its own answer, which must equal every other rank's
   * (a decide that differs between ranks fails the run). Added in version 2. */
  int decides_on;
} lbb_plugin;

/* The one symbol a plugin exports. */
const lbb_plugin* lbb_balancer_plugin(void);

#ifdef __cplusplus
}
#endif

#endif /* LBBENCH_BALANCER_PLUGIN_H */
