/* Indirect accesses through an index array (b: int32 indices < 1024). */
#include "suite.h"

static void fill_idx(long n, int32_t *idx) {
  for (long i = 0; i < n; ++i) idx[i] = (int32_t)((i * 37) & 1023);
}
INIT(gather_sum) { (void)pa; (void)pc; (void)pd; fill_idx(n, pb); }
KERNEL(gather_sum) {
  const double *restrict a = pa; const int32_t *restrict idx = pb;
  double s = 0;
  for (long i = 0; i < n; ++i) s += a[idx[i]];
  *(double *)pd = s;
}
INIT(gather_copy) { (void)pa; (void)pc; (void)pd; fill_idx(n, pb); }
KERNEL(gather_copy) {
  const double *restrict a = pa; const int32_t *restrict idx = pb; double *restrict c = pc;
  for (long i = 0; i < n; ++i) c[i] = a[idx[i]];
}
INIT(gather_f32) { (void)pa; (void)pc; (void)pd; fill_idx(n, pb); }
KERNEL(gather_f32) {
  const float *restrict a = pa; const int32_t *restrict idx = pb; float *restrict c = pc;
  for (long i = 0; i < n; ++i) c[i] = 2.0f * a[idx[i]];
}
