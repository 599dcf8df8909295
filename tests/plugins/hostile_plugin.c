/* Plugins that misbehave on purpose, one per HOSTILE value (tests/CMakeLists.txt builds each):
 * lbbench must refuse every one with a message naming the plugin, the step and the problem. */
#include <stdio.h>

#include "lbbench/balancer_plugin.h"

static int decide(void* state, const lbb_plugin_view* v, int* owner, char* error, size_t size) {
  (void)state;
  if (HOSTILE == 9) return snprintf(error, size, "refusing at step %d", v->step), -9; /* at once */
  if (v->step < 1) return LBB_PLUGIN_KEEP; /* misbehave from the second decision on */
  switch (HOSTILE) {
    case 1:
      owner[v->modules] = 0;
      return LBB_PLUGIN_MOVE; /* wrong length */
    case 2:
      owner[0] = v->processors;
      return LBB_PLUGIN_MOVE; /* owner out of range */
    case 3:
      snprintf(error, size, "refusing on purpose");
      return -7; /* an error code */
    case 4:
      return 5; /* an unknown code */
    case 5:
      owner[0] = -1 - 0x7fffffff;
      return LBB_PLUGIN_MOVE; /* garbage */
  }
  return LBB_PLUGIN_KEEP;
}

static int init(const lbb_plugin_param* params, int count, void** state, char* error, size_t size) {
  (void)params, (void)state;
  if (HOSTILE == 7 || count > 0) return snprintf(error, size, "init refuses"), 1;
  return 0;
}

#if HOSTILE == 8
const lbb_plugin* not_the_entry(void); /* no lbb_balancer_plugin symbol */
const lbb_plugin* not_the_entry(void) {
#else
const lbb_plugin* lbb_balancer_plugin(void) {
#endif
  /* 6: built against a later version of the interface; 10: decides on neither kind of rank */
  static const lbb_plugin plugin = {
      LBB_PLUGIN_API_VERSION + (HOSTILE == 6),   "hostile", init, decide, NULL,
      HOSTILE == 10 ? 7 : LBB_PLUGIN_ON_ONE_RANK};
  return &plugin;
}
