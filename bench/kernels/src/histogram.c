// Histogram: a read-modify-write of memory at a data-dependent address.
void histogram(unsigned *restrict hist, const unsigned char *restrict in, long n) {
  for (long i = 0; i < n; ++i)
    hist[in[i]]++;
}
