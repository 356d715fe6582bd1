// Linked-list walk: each load's address is the previous load's result.
struct node { struct node *next; long value; };
long chase(const struct node *p) {
  long s = 0;
  while (p) {
    s += p->value;
    p = p->next;
  }
  return s;
}
