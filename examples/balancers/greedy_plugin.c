/* lbbench's built-in `greedy` as a plugin (Graham 1969's LPT between steps, the idea of
 * Charm++'s GreedyLB): modules largest first, each onto the processor where it finishes first.
 * Greedy's min_gain (0.05) is the config entry's: { dynamic: plugin, ..., min_gain: 0.05 }. */
#include <stdio.h>
#include <stdlib.h>

#include "lbbench/balancer_plugin.h"

typedef struct {
  double key;
  int id;
} item; /* (-cost, module) or (load, processor), ordered by key, then id */
static int before(item a, item b) {
  return a.key < b.key || (a.key == b.key && a.id < b.id);
}

static void sort(item* a, int n) { /* Hoare 1962's quicksort; qsort's calls would cost 1.5x */
  while (n > 16) {
    const item pivot = a[(n - 1) / 2];
    int i = -1, j = n;
    for (item t;; t = a[i], a[i] = a[j], a[j] = t) {
      while (before(a[++i], pivot)) continue;
      while (before(pivot, a[--j])) continue;
      if (i >= j) break;
    }
    const int left = j + 1; /* a[0..left) before a[left..n): the shorter part first */
    if (left < n - left)
      sort(a, left), a += left, n -= left;
    else
      sort(a + left, n - left), n = left;
  }
  for (int i = 1, j; i < n; ++i) { /* then insertion sort, as std::sort ends */
    const item t = a[i];
    for (j = i; j > 0 && before(t, a[j - 1]); --j) a[j] = a[j - 1];
    a[j] = t;
  }
}
static void sift_down(item* h, int n) { /* h[0] grew: a hole down the smaller children, then up */
  const item x = h[0];
  int i = 0, up;
  for (int c = 1; c < n; i = c, c = 2 * c + 1) h[i] = h[c += c + 1 < n && before(h[c + 1], h[c])];
  for (; i > 0 && before(x, h[up = (i - 1) / 2]); i = up) h[i] = h[up];
  h[i] = x;
}
static int decide(void* state, const lbb_plugin_view* v, int* owner, char* error, size_t size) {
  const int M = v->modules, P = v->processors;
  item *mod = malloc(sizeof(item) * (M + P) + sizeof(int) * (P + 1)), *heap = mod + M;
  int *start = (int*)(heap + P), groups = 0;
  if (!mod) return snprintf(error, size, "out of memory"), LBB_PLUGIN_ERROR;
  for (int m = 0; m < M; ++m) mod[m] = (item){-v->cost[m], m};
  for (int p = 0; p < P; ++p) heap[p] = (item){v->speed[p], p};
  sort(mod, M), sort(heap, P); /* then one heap a speed: its (load 0, processor)s in order */
  for (int p = 0; p < P; heap[p++].key = 0)
    if (p == 0 || heap[p].key != v->speed[heap[p - 1].id]) start[groups++] = p;
  start[groups] = P;
  for (int i = 0, g = 0; i < M; ++i) {
    item first = {0, -1}; /* (finish, processor): the earliest over each speed's least loaded */
    for (int k = 0; k < groups; ++k) {
      const item top = heap[start[k]], at = {(top.key - mod[i].key) / v->speed[top.id], top.id};
      if (k == 0 || before(at, first)) first = at, g = k;
    }
    owner[mod[i].id] = first.id;
    heap[start[g]].key -= mod[i].key;
    sift_down(heap + start[g], start[g + 1] - start[g]);
  }
  free(mod);
  return (void)state, LBB_PLUGIN_MOVE;
}

const lbb_plugin* lbb_balancer_plugin(void) {
  static const lbb_plugin plugin = {LBB_PLUGIN_API_VERSION, "greedy_plugin", NULL, decide, NULL,
                                    LBB_PLUGIN_ON_ONE_RANK};
  return &plugin;
}
