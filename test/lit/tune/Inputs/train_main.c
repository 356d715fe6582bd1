/* train_main.c - the training run of tune-gcc.c's count_e: GCC's
 * -fprofile-generate writes the profile of tune-gcc.c's object beside it. */
long count_e(const unsigned char *s, long n);

int main(void) {
  static const unsigned char S[] =
      "the quick brown fox jumps over the lazy dog, see every keen eel";
  long c = 0;
  for (int r = 0; r < 1000; ++r)
    c += count_e(S, sizeof S - 1);
  return c == 0;
}
