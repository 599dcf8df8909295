/* Greedy between steps as a plugin: the owners of lbbench's built-in `greedy` at every step.
 * Largest measured cost first onto the processor where it finishes first (Graham 1969's LPT),
 * one min-heap of (load, processor) per distinct speed; moves only when the predicted makespan
 * falls by more than min_gain (default 0.05, as greedy's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbbench/balancer_plugin.h"

typedef struct {
  double key;
  int id;
} item; /* (cost, module) or (load, processor) */

static int before(item a, item b) {
  return a.key < b.key || (a.key == b.key && a.id < b.id);
}
static int ascending(const void* a, const void* b) {
  return before(*(const item*)a, *(const item*)b) ? -1 : before(*(const item*)b, *(const item*)a);
}
/* Largest cost first, ties by module: a quicksort (Hoare 1962) with the order inlined, which
 * qsort's comparison through a pointer would make 1.5x slower than the built-in's std::sort. */
static int first(item a, item b) {
  return a.key > b.key || (a.key == b.key && a.id < b.id);
}
static void sort_largest_first(item* a, int n) {
  while (n > 16) {
    const item pivot = a[(n - 1) / 2];
    int i = -1, j = n;
    for (;;) {
      do ++i;
      while (first(a[i], pivot));
      do --j;
      while (first(pivot, a[j]));
      if (i >= j) break;
      const item t = a[i];
      a[i] = a[j], a[j] = t;
    }
    if (j + 1 < n - j - 1)
      sort_largest_first(a, j + 1), a += j + 1, n -= j + 1;
    else
      sort_largest_first(a + j + 1, n - j - 1), n = j + 1;
  }
  for (int i = 1; i < n; ++i) /* insertion sort of the short rest */
    for (int k = i; k > 0 && first(a[k], a[k - 1]); --k) {
      const item t = a[k];
      a[k] = a[k - 1], a[k - 1] = t;
    }
}
static void sift_down(item* h, int n, int i) {
  for (int s = i;; i = s) {
    if (2 * i + 1 < n && before(h[2 * i + 1], h[s])) s = 2 * i + 1;
    if (2 * i + 2 < n && before(h[2 * i + 2], h[s])) s = 2 * i + 2;
    if (s == i) return;
    item t = h[i];
    h[i] = h[s];
    h[s] = t;
  }
}
static double makespan(const lbb_plugin_view* v, const int* owner, double* load) {
  double worst = 0;
  memset(load, 0, sizeof(double) * v->processors);
  for (int m = 0; m < v->modules; ++m) load[owner[m]] += v->cost[m];
  for (int p = 0; p < v->processors; ++p)
    worst = load[p] / v->speed[p] > worst ? load[p] / v->speed[p] : worst;
  return worst;
}

static int init(const lbb_plugin_param* params, int count, void** state, char* error, size_t size) {
  double* min_gain = malloc(sizeof(double));
  *min_gain = 0.05;
  for (int i = 0; i < count; ++i)
    if (strcmp(params[i].key, "min_gain") == 0)
      *min_gain = atof(params[i].value);
    else
      return snprintf(error, size, "unknown param '%s' (known: min_gain)", params[i].key),
             free(min_gain), 1;
  *state = min_gain;
  return 0;
}

static int decide(void* state, const lbb_plugin_view* v, int* owner, char* error, size_t size) {
  const int M = v->modules, P = v->processors;
  item *mod = malloc(sizeof(item) * M), *heap = malloc(sizeof(item) * P);
  int* start = malloc(sizeof(int) * (P + 1));
  double* load = malloc(sizeof(double) * P);
  if (!mod || !heap || !start || !load)
    return snprintf(error, size, "out of memory"), free(mod), free(heap), free(start), free(load),
           LBB_PLUGIN_ERROR;
  for (int m = 0; m < M; ++m) mod[m] = (item){v->cost[m], m};
  sort_largest_first(mod, M);
  for (int p = 0; p < P; ++p) heap[p] = (item){v->speed[p], p};
  qsort(heap, P, sizeof(item), ascending); /* groups of one speed, slowest first, as std::map */
  int groups = 0;
  for (int p = 0; p < P; ++p) {
    if (p == 0 || v->speed[heap[p].id] != v->speed[heap[p - 1].id]) start[groups++] = p;
    heap[p].key = 0; /* each group's (load, processor) in increasing order: already a heap */
  }
  start[groups] = P;
  for (int i = 0; i < M; ++i) {
    int best = 0;
    double best_finish = 0;
    for (int g = 0; g < groups; ++g) {
      const item top = heap[start[g]];
      const double finish = (top.key + mod[i].key) / v->speed[top.id];
      if (g == 0 || finish < best_finish ||
          (finish == best_finish && top.id < heap[start[best]].id))
        best = g, best_finish = finish;
    }
    owner[mod[i].id] = heap[start[best]].id;
    heap[start[best]].key += mod[i].key;
    sift_down(heap + start[best], start[best + 1] - start[best], 0);
  }
  const double gain = *(const double*)state, now = makespan(v, v->owner, load);
  const int pays = gain <= 0 || makespan(v, owner, load) < (1 - gain) * now;
  free(mod), free(heap), free(start), free(load);
  return pays ? LBB_PLUGIN_MOVE : LBB_PLUGIN_KEEP;
}

static void finish(void* state) {
  free(state);
}

const lbb_plugin* lbb_balancer_plugin(void) {
  static const lbb_plugin plugin = {LBB_PLUGIN_API_VERSION, "greedy_plugin", init, decide, finish};
  return &plugin;
}
