// int32 -> float conversion and scaling.
void convert(float *restrict out, const int *restrict in, float scale, long n) {
  for (long i = 0; i < n; ++i)
    out[i] = scale * (float)in[i];
}
