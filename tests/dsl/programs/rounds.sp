// A test of do ... while (not shipped): the first loop runs its body 4 times (visits = 0 + 1 + 2 +
// 3 at every node); the second doubles k until no node has k out-edges, its condition a sum the
// body's pulse reduces (steps: the rounds that took). bits, a do-while inside a vertex loop: the
// binary digits of each node's out-degree (1 for none).
function rounds(Graph g, propNode<long> visits, propNode<long> bits) {
  g.attachNodeProperty(visits = 0);
  int round = 0;
  do {
    forall (v in g.nodes()) {
      v.visits += round;
    }
    round++;
  } while (round < 4);
  long k = 1;
  long steps = 0;
  long above = 0;
  do {
    above = 0;
    forall (v in g.nodes().filter(g.count_outNbrs(v) >= k)) {
      above += 1;
    }
    k = k * 2;
    steps++;
  } while (above > 0);
  forall (v in g.nodes()) {
    long x = g.count_outNbrs(v);
    long digits = 0;
    do {
      x = x / 2;
      digits++;
    } while (x > 0);
    v.bits = digits;
  }
}
