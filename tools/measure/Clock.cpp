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
  timespec t;
  clock_gettime(CLOCK_MONOTONIC_RAW, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
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

uint64_t addChain(long iterations) {
  uint64_t x = 0;
  if (iterations <= 0)
    return x;
  __asm__ volatile(".p2align 6\n"
                   "1:\n\t" LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10
                       LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10 LP_ADD10
                   "decq %1\n\t"
                   "jnz 1b\n"
                   : "+r"(x), "+r"(iterations)
                   :
                   : "cc");
  return x;
}

#define LP_ADD4                                                                \
  "addq $1, %0\n\t"                                                            \
  "addq $1, %1\n\t"                                                            \
  "addq $1, %2\n\t"                                                            \
  "addq $1, %3\n\t"
#define LP_ADD20 LP_ADD4 LP_ADD4 LP_ADD4 LP_ADD4 LP_ADD4

uint64_t addThroughputProbe(long iterations) {
  uint64_t a = 0, b = 0, c = 0, d = 0;
  if (iterations <= 0)
    return a;
  __asm__ volatile(".p2align 6\n"
                   "1:\n\t" LP_ADD20 LP_ADD20 LP_ADD20 LP_ADD20 LP_ADD20
                   "decq %4\n\t"
                   "jnz 1b\n"
                   : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(iterations)
                   :
                   : "cc");
  return a + b + c + d;
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

uint64_t mixedThroughputProbe(long iterations) {
  alignas(64) static unsigned char buffer[256];
  uint64_t a = 0, b = 0, c = 0;
  if (iterations <= 0)
    return a;
  __asm__ volatile(".p2align 6\n"
                   "1:\n\t" LP_MIX4 LP_MIX4 LP_MIX4 LP_MIX4 "decq %3\n\t"
                   "jnz 1b\n"
                   : "+r"(a), "+r"(b), "+r"(c), "+r"(iterations)
                   : "r"(buffer)
                   : "cc", "memory", "xmm0", "xmm1");
  return a + b + c;
}

CycleCounter::CycleCounter() {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.type = PERF_TYPE_HARDWARE;
  a.size = sizeof a;
  a.config = PERF_COUNT_HW_CPU_CYCLES;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  fd_ = int(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
  if (fd_ >= 0 && read() == 0) {
    // Some hypervisors accept the event but never count.
    addChain(100);
    if (read() == 0) {
      close(fd_);
      fd_ = -1;
    }
  }
}

CycleCounter::~CycleCounter() {
  if (fd_ >= 0)
    close(fd_);
}

uint64_t CycleCounter::read() const {
  uint64_t v = 0;
  if (fd_ < 0 || ::read(fd_, &v, sizeof v) != sizeof v)
    return 0;
  return v;
}

int pinToCpu(int cpu) {
  cpu_set_t set;
  if (cpu < 0) {
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
      return -1;
    for (int c = CPU_SETSIZE - 1; c >= 0; --c)
      if (CPU_ISSET(c, &set)) {
        cpu = c;
        break;
      }
    if (cpu < 0)
      return -1;
  }
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}

} // namespace loopperf::measure
