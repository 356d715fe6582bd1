/* Loops with a branch inside (data patterns are predictable: the models
 * do not predict mispredictions). */
#include "suite.h"

KERNEL(cond_scale) {
  double *restrict a = pa; const double *restrict b = pb;
  for (long i = 0; i < n; ++i)
    if (b[i] > 0.5) a[i] = 2.0 * b[i];
}
KERNEL(clamp_f64) {
  double *restrict a = pa; const double *restrict b = pb;
  for (long i = 0; i < n; ++i) a[i] = b[i] > 0.75 ? 0.75 : b[i];
}
static void fill_i64(long n, int64_t *x) { for (long i = 0; i < n; ++i) x[i] = 2 * i + 1; }
INIT(cond_sum_i64) { (void)pa; (void)pc; (void)pd; fill_i64(n, pb); }
KERNEL(cond_sum_i64) {
  const int64_t *restrict x = pb;
  int64_t s = 0;
  for (long i = 0; i < n; ++i) {
    if (x[i] & 1) s += x[i];
    else s -= 3;
  }
  *(int64_t *)pd = s;
}
/* Search with an early exit that never triggers: the compare-and-branch
 * stays in the loop. */
KERNEL(find_first_neg) {
  const double *b = pb;
  long i = 0;
  for (; i < n; ++i)
    if (b[i] < 0) break;
  *(long *)pd = i;
}
