// A test of do ... while (not shipped): the first loop runs its body 4 times (visits = 0 + 1 + 2 +
// 3 at every node); the second doubles k until no node has k out-edges, its condition a sum the
// body's pulse reduces (steps: the rounds that took).
function rounds(Graph g, propNode<long> visits) {
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
}
