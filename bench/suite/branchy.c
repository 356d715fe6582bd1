/* Loops with a branch inside whose direction the data controls (issue 15,
 * item 4): one loop, five patterns of the selector array, so the measured
 * differences are the branch predictor's and the paths' own costs. The
 * arms store to different arrays (a partition), which no compiler turns
 * into a select, so the branch stays a branch at every -O level.
 *   br_always     every element takes the first arm
 *   br_never      every element takes the second arm
 *   br_alternate  first, second, first, ... (predictable by history)
 *   br_random50   each arm with probability 1/2, a fixed pseudo-random
 *                 sequence (unpredictable)
 *   br_random90   the first arm with probability 9/10, pseudo-random
 * brdiv_*: the same five patterns on a partition whose arms differ in cost:
 * the first divides (v / 3.0 stays a divide without -freciprocal-math: the
 * divider's throughput limits it), the second adds (the front end limits
 * it). Interleaved, the adds run while the divider is busy, so the loop is
 * faster than the weighted average of the two arms alone: the case where
 * loopperf's mix of paths and the weighted average differ.
 * loopperf's paths: two per element, weighed by --branch-probability (CLI)
 * or the compiler's estimate; the misprediction estimate is min(p, 1 - p)
 * per element times the model's penalty, right for the random patterns and
 * an upper estimate for the others (history predicts them).
 * The outputs are checkable: with the suite's buffers (1.0 everywhere) the
 * first arm writes 2.0 (br_) or 1/3 (brdiv_) to a[0..j), the second 2.0 to
 * c[0..k), j + k = n, and j is the number of non-zero selectors, which
 * bench/validation/validate.py (`branch_shares`) computes the same way. */
#include "suite.h"

static inline __attribute__((always_inline)) void
partition(long n, const int32_t *restrict sel, double *restrict a,
          double *restrict c, const double *restrict v) {
  long j = 0, k = 0;
  for (long i = 0; i < n; ++i) {
    if (sel[i])
      a[j++] = v[i] * 2.0;
    else
      c[k++] = v[i] + 1.0;
  }
}

static inline __attribute__((always_inline)) void
partition_div(long n, const int32_t *restrict sel, double *restrict a,
              double *restrict c, const double *restrict v) {
  long j = 0, k = 0;
  for (long i = 0; i < n; ++i) {
    if (sel[i])
      a[j++] = v[i] / 3.0;
    else
      c[k++] = v[i] + 1.0;
  }
}

/* xorshift32: the same sequence on every run and host. */
static void fill_sel(long n, int32_t *sel, unsigned percent_first,
                     int alternate) {
  uint32_t x = 2463534242u;
  for (long i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    sel[i] = alternate ? (i % 2 == 0) : (x % 100 < percent_first);
  }
}

#define BRANCHY(name, loop, percent, alternate)                                \
  INIT(name) {                                                                 \
    (void)pa; (void)pc; (void)pd;                                              \
    fill_sel(n, pb, percent, alternate);                                       \
  }                                                                            \
  KERNEL(name) { loop(n, pb, pa, pd, pc); }

BRANCHY(br_always, partition, 100, 0)
BRANCHY(br_never, partition, 0, 0)
BRANCHY(br_alternate, partition, 0, 1)
BRANCHY(br_random50, partition, 50, 0)
BRANCHY(br_random90, partition, 90, 0)
BRANCHY(brdiv_always, partition_div, 100, 0)
BRANCHY(brdiv_never, partition_div, 0, 0)
BRANCHY(brdiv_alternate, partition_div, 0, 1)
BRANCHY(brdiv_random50, partition_div, 50, 0)
BRANCHY(brdiv_random90, partition_div, 90, 0)
