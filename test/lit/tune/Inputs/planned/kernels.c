double sum1(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i];
  return s;
}
