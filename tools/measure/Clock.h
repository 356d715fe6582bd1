// Clock.h - what a measurement reads: the monotonic clock, the calibration
// chain of dependent one-cycle adds, and the hardware cycle counter when the
// machine has one (perf_event_open; KVM guests usually do not).
#pragma once

#include <cstdint>

namespace loopperf::measure {

/// CLOCK_MONOTONIC_RAW in nanoseconds.
double nowNs();

/// Runs `iterations` x 100 dependent `addq $1` (100 cycles per iteration on
/// every x86-64 core: the loop counter runs beside the chain). Returns the
/// chain's value so it cannot be optimised away.
uint64_t addChain(long Iterations);
inline constexpr double KAddsPerChainIteration = 100;

/// Runs `iterations` x 100 adds in 4 independent chains (25 cycles per
/// iteration on a core with 4 or more integer ALUs to itself). Timed next
/// to the add chain it shows whether the core's execution ports are shared
/// at the moment (an SMT sibling busy: on KVM guests vCPUs can be siblings).
uint64_t addThroughputProbe(long Iterations);
inline constexpr double KProbeCyclesPerIteration = 25;

/// Runs `iterations` x 16 groups of { 3 independent adds, 2 loads, 1 store }
/// (16-byte SSE moves on an L1-resident buffer of its own): 6 instructions
/// per group, at best about one group per cycle where 6 instructions
/// dispatch per cycle and 2 loads and a store issue per cycle. It slows
/// down when an SMT sibling takes op-cache, dispatch or load/store
/// bandwidth, which the add probe does not see (on this host a streaming
/// copy ran at 1.7-2.6 instead of 1.0 cycles/iteration while the add probe
/// read 1.01). Its best rate differs between cores, so it is used relative
/// to its least time over the rounds (combinedContention).
uint64_t mixedThroughputProbe(long Iterations);
inline constexpr double KMixedProbeCyclesPerIteration = 16;

/// User-mode CPU cycles of this thread via perf_event_open, if available.
class CycleCounter {
public:
  CycleCounter();
  ~CycleCounter();
  CycleCounter(const CycleCounter &) = delete;
  CycleCounter &operator=(const CycleCounter &) = delete;
  bool available() const { return Fd >= 0; }
  /// Current count (0 when unavailable).
  uint64_t read() const;

private:
  int Fd = -1;
};

/// Pins the calling thread to `cpu` (or, for -1, to the last CPU of its
/// current affinity mask). Returns the CPU used, -1 on failure.
int pinToCpu(int Cpu);

} // namespace loopperf::measure
