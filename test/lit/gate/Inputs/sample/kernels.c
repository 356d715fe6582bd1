// A sample project for the loopperf-gate tests (test/lit/gate). The tests
// build it twice; the second time with three lines inserted at the top
// (every loop moves) and `* k` in scale changed to `/ k` (a division).
void scale(float *restrict y, const float *restrict x, float k, long n) {
  for (long i = 0; i < n; ++i)
    y[i] = x[i] * k;
}

double dot(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

void saxpy(float *restrict y, const float *restrict x, float a, long n) {
  for (long i = 0; i < n; ++i)
    y[i] += a * x[i];
}
