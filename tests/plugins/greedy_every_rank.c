/* examples/balancers/greedy_plugin.c declaring LBB_PLUGIN_ON_EVERY_RANK: under mpirun every rank
 * decides on the same view, so its owners must still be greedy's on every rank. */
#define lbb_balancer_plugin example_greedy_plugin
#include "../../examples/balancers/greedy_plugin.c"
#undef lbb_balancer_plugin

const lbb_plugin* lbb_balancer_plugin(void);
const lbb_plugin* lbb_balancer_plugin(void) {
  static lbb_plugin plugin;
  plugin = *example_greedy_plugin();
  plugin.name = "greedy_every_rank";
  plugin.decides_on = LBB_PLUGIN_ON_EVERY_RANK;
  return &plugin;
}
