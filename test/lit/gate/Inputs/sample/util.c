// Unchanged between the two builds of the sample project.
long count_zeros(const int *a, long n) {
  long c = 0;
  for (long i = 0; i < n; ++i)
    c += a[i] == 0;
  return c;
}
