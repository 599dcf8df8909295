#pragma once
// The cost model of Zaki, Li & Parthasarathy 1997 (section "Total Cost"): what one
// redistribution costs under each scheme. Used by the profitability rule of the four schemes and
// exposed so that a simulator can pick the cheapest scheme automatically, as the paper does.
// Two machines: the paper's processors exchanging messages, and threads sharing memory (the
// executors here), whose schemes send no message and pay what bsp_executor.cpp does instead.
#include "balancers/in_step/profiled_redistribution.h"

namespace lbb {

struct ZakiNetwork {
  double latency = 0;    // L: seconds per message (threads: per wake-up of waiting threads)
  double bandwidth = 1;  // B: bytes per second
  // kMessages: the paper's network of workstations, L per message; kThreads: threads sharing
  // memory, L per wake-up and `atomic` per atomic exchange.
  ZakiMachine machine = ZakiMachine::kMessages;
  double atomic = 0;  // s per atomic exchange on a cache line the group shares (threads only)
};

struct ZakiCost {
  double synchronisation = 0;  // gathering profiles (and, distributed, broadcasting them)
  double instructions = 0;     // centralised only: the new distribution sent to processors
  double data_movement = 0;    // the modules' states
  // The cost of computing the new distribution is left out: "usually very small" (the paper).
  double total() const { return synchronisation + instructions + data_movement; }
};

// Synchronisation over n processors (P for global schemes, K for local ones): one-to-all +
// all-to-one (centralised: n + n messages), one-to-all + all-to-all (distributed: n + n^2).
double synchronisation_cost(ProfiledScheme scheme, int n, double latency);

// Centralised schemes send one instruction message to each processor whose modules change; the
// distributed ones compute the distribution everywhere and send none.
double instruction_cost(ProfiledScheme scheme, int instructed, double latency);

// Messages x latency + iterations moved x bytes per iteration / bandwidth; `bytes` is the sum,
// iterations x bytes per iteration.
double data_movement_cost(int messages, double bytes, const ZakiNetwork& network);

// What one synchronisation of a group of n threads costs, every time, moving or not (the bsp
// executor's in-step round): the trigger's compare-exchange and n arrivals at the group's
// barrier, whose last wakes the sleepers (n atomics + L); the profiles stay in shared memory,
// read in place. Centralised: the others wait for the decider's published pointer (one more
// wake-up, L); distributed: every thread decides and compare-exchanges it (n atomics).
double threads_synchronisation_cost(ProfiledScheme scheme, int n, const ZakiNetwork& network);

// Per synchronisation on `network`'s machine: the paper's messages (synchronisation_cost), or
// threads_synchronisation_cost.
double sync_cost(ProfiledScheme scheme, int n, const ZakiNetwork& network);

// A redistribution's total on `network`'s machine. On threads no instruction is sent (the
// decision is published in the synchronisation) and no message carries states: each thread
// copies what it gained, bytes / B.
ZakiCost zaki_cost(ProfiledScheme scheme, int n, int instructed, int messages, double bytes,
                   const ZakiNetwork& network);

}  // namespace lbb
