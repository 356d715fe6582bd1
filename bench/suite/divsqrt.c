/* Divisions and square roots (compiled with -fno-math-errno so sqrt is an
 * instruction). */
#include "suite.h"

KERNEL(div_f64) {
  double *restrict a = pa; const double *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] / c[i];
}
static void fill_f32(long n, float *x, float v) { for (long i = 0; i < n; ++i) x[i] = v; }
INIT(div_f32) { (void)pa; (void)pd; fill_f32(n, pb, 3.0f); fill_f32(n, pc, 1.5f); }
KERNEL(div_f32) {
  float *restrict a = pa; const float *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] / c[i];
}
KERNEL(sqrt_f64) {
  double *restrict a = pa; const double *restrict b = pb;
  for (long i = 0; i < n; ++i) a[i] = __builtin_sqrt(b[i]);
}
INIT(sqrt_f32) { (void)pa; (void)pc; (void)pd; fill_f32(n, pb, 3.0f); }
KERNEL(sqrt_f32) {
  float *restrict a = pa; const float *restrict b = pb;
  for (long i = 0; i < n; ++i) a[i] = __builtin_sqrtf(b[i]);
}
static void fill_i32(long n, int32_t *x, int32_t v) { for (long i = 0; i < n; ++i) x[i] = v + (int32_t)(i & 15); }
INIT(div_i32) { (void)pa; (void)pd; fill_i32(n, pb, 1000000); fill_i32(n, pc, 7); }
KERNEL(div_i32) {
  int32_t *restrict a = pa; const int32_t *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] / c[i];
}
static void fill_i64(long n, int64_t *x, int64_t v) { for (long i = 0; i < n; ++i) x[i] = v + (i & 15); }
INIT(div_u64) { (void)pa; (void)pd; fill_i64(n, pb, 1000000007); fill_i64(n, pc, 13); }
KERNEL(div_u64) {
  uint64_t *restrict a = pa; const uint64_t *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] / c[i];
}
