/* Streaming kernels (STREAM and friends), double precision, L1-resident. */
#include "suite.h"

KERNEL(copy) {
  double *restrict a = pa; const double *restrict b = pb;
  for (long i = 0; i < n; ++i) a[i] = b[i];
}
KERNEL(scale) {
  double *restrict a = pa; const double *restrict b = pb;
  for (long i = 0; i < n; ++i) a[i] = 3.0 * b[i];
}
KERNEL(add) {
  double *restrict a = pa; const double *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] + c[i];
}
KERNEL(triad) {
  double *restrict a = pa; const double *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
}
KERNEL(daxpy) {
  double *restrict a = pa; const double *restrict b = pb;
  for (long i = 0; i < n; ++i) a[i] += 3.0 * b[i];
}
KERNEL(schoenauer) {
  double *restrict a = pa; const double *restrict b = pb, *restrict c = pc, *restrict d = pd;
  for (long i = 0; i < n; ++i) a[i] = b[i] + c[i] * d[i];
}
KERNEL(triad_f32) {
  float *restrict a = pa; const float *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0f * c[i];
}
