/* suite.h - the calling convention of the validation kernels.
 *
 * Every kernel is  void NAME(long n, void *a, void *b, void *c, void *d):
 * n elements (the unit loopperf-measure reports cycles for), four buffers
 * of 46 KiB usable after the pointer and 16 KiB before it (stencils read
 * behind). An optional NAME_init(nmax, a, b, c, d) fills the buffers
 * before measuring; without one they hold the double 1.0 everywhere.
 * Reductions store their result through d so the loop is not dead.
 * n is a multiple of 256 in every measurement (bench/validation/run.sh).
 */
#ifndef LOOPPERF_SUITE_H
#define LOOPPERF_SUITE_H
#include <stdint.h>

#define KERNEL(name)                                                           \
  void name(long n, void *restrict pa, void *restrict pb, void *restrict pc,   \
            void *restrict pd)
#define INIT(name)                                                             \
  void name##_init(long n, void *pa, void *pb, void *pc, void *pd)

#endif
