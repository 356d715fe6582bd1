// Clock.cpp - see Clock.h.
#include "Clock.h"

#include <linux/perf_event.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

namespace loopperf::measure {

double nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC_RAW, &T);
  return double(T.tv_sec) * 1e9 + double(T.tv_nsec);
}

#define LP_ADD10                                                               \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %0\n\t"

uint64_t addChain(long Iterations) {
  uint64_t X = 0;
  if (Iterations <= 0)
    return X;
  __asm__ volatile(".p2align 6\n"
                   "1:\n\t" LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10
                       LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10
                   "decq %1\n\t"
                   "jnz 1b\n"
                   : "+r"(X), "+r"(Iterations)
                   :
                   : "cc");
  return X;
}

#define LP_ADD4                                                                \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %1\n\t"                                                            \
  "addq $1, %2\n\t"                                                            \
  "addq $1, %3\n\t"
#define LP_ADD20 LP_ADD4 LP_ADD4 LP_ADD4 LP_ADD4 LP_ADD4

uint64_t addThroughputProbe(long Iterations) {
  uint64_t A = 0, B = 0, C = 0, D = 0;
  if (Iterations <= 0)
    return A;
  __asm__ volatile(".p2align 6\n"
                   "1:\n\t" LP_ADD20 LP_ADD20 LP_ADD20 LP_ADD20 LP_ADD20
                   "decq %4\n\t"
                   "jnz 1b\n"
                   : "+r"(A), "+r"(B), "+r"(C), "+r"(D), "+r"(Iterations)
                   :
                   : "cc");
  return A + B + C + D;
}

// One group: 3 adds, 2 loads, 1 store (to another cache line than the loads).
#define LP_MIX1                                                                \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %1\n\t"                                                            \
  "addq $1, %2\n\t"                                                            \
  "movups (%4), %%xmm0\n\t"                                                    \
  "movups 16(%4), %%xmm1\n\t"                                                  \
  "movups %%xmm0, 128(%4)\n\t"
#define LP_MIX4 LP_MIX1 LP_MIX1 LP_MIX1 LP_MIX1

uint64_t mixedThroughputProbe(long Iterations) {
  alignas(64) static unsigned char Buffer[256];
  uint64_t A = 0, B = 0, C = 0;
  if (Iterations <= 0)
    return A;
  __asm__ volatile(".p2align 6\n"
                   "1:\n\t" LP_MIX4 LP_MIX4 LP_MIX4 LP_MIX4 "decq %3\n\t"
                   "jnz 1b\n"
                   : "+r"(A), "+r"(B), "+r"(C), "+r"(Iterations)
                   : "r"(Buffer)
                   : "cc", "memory", "xmm0", "xmm1");
  return A + B + C;
}

CycleCounter::CycleCounter() {
  perf_event_attr A;
  std::memset(&A, 0, sizeof A);
  A.type = PERF_TYPE_HARDWARE;
  A.size = sizeof A;
  A.config = PERF_COUNT_HW_CPU_CYCLES;
  A.exclude_kernel = 1;
  A.exclude_hv = 1;
  Fd = int(syscall(SYS_perf_event_open, &A, 0, -1, -1, 0));
  if (Fd >= 0 && read() == 0) {
    // Some hypervisors accept the event but never count.
    addChain(100);
    if (read() == 0) {
      close(Fd);
      Fd = -1;
    }
  }
}

CycleCounter::~CycleCounter() {
  if (Fd >= 0)
    close(Fd);
}

uint64_t CycleCounter::read() const {
  uint64_t V = 0;
  if (Fd < 0 || ::read(Fd, &V, sizeof V) != sizeof V)
    return 0;
  return V;
}

int pinToCpu(int Cpu) {
  cpu_set_t Set;
  if (Cpu < 0) {
    CPU_ZERO(&Set);
    if (sched_getaffinity(0, sizeof Set, &Set) != 0)
      return -1;
    for (int C = CPU_SETSIZE - 1; C >= 0; --C)
      if (CPU_ISSET(C, &Set)) {
        Cpu = C;
        break;
      }
    if (Cpu < 0)
      return -1;
  }
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  return sched_setaffinity(0, sizeof Set, &Set) == 0 ? Cpu : -1;
}

} // namespace loopperf::measure
