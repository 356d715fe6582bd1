// STREAM triad: a[i] = b[i] + s * c[i]. The bundled example for
//   clang-19 -O3 -march=znver5 -S -fno-asynchronous-unwind-tables triad.c -o triad.s
//   loopperf --mcpu=znver5 triad.s
void triad(double *restrict a, const double *restrict b, const double *restrict c,
           double s, long n) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}
