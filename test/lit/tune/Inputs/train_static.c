/* train_static.c - the training run of tune-gcc-static.c: 1000 calls on 3
 * bytes each, so its static function's loop runs 3 iterations per entry. */
long count_entry(const unsigned char *s, long n);

int main(void) {
  static const unsigned char S[] = "eel";
  long c = 0;
  for (int r = 0; r < 1000; ++r)
    c += count_entry(S, 3);
  return c == 0;
}
