// A test of *=, -= and -- (not shipped), on properties and on shared scalars, each loop one pulse:
// sign is the product over a node's in-edges of -1 (an odd out-degree at the edge's source) or 1;
// balance takes off (out-degree + 1) of each in-edge's source, then 1 more; scale doubles once per
// node whose out-degree is 1 modulo 4; down counts the nodes backwards. parity, of scalars private
// to each node: 100 times (-1) to the out-degree, less 2 per out-edge. flips and dip, int properties
// reduced by int arithmetic (computed in 64 bits, narrowed): (-1) and -2 per in-edge.
function products(Graph g, propNode<long> sign, propNode<long> balance, propNode<long> parity, propNode<int> flips,
                  propNode<int> dip) {
  g.attachNodeProperty(sign = 1, balance = 0);
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      nbr.sign *= 1 - 2 * (g.count_outNbrs(v) % 2);
    }
  }
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      nbr.balance -= g.count_outNbrs(v) + 1;
    }
  }
  forall (v in g.nodes()) {
    v.balance--;
  }
  double scale = 1;
  forall (v in g.nodes().filter(g.count_outNbrs(v) % 4 == 1)) {
    scale *= 2;
  }
  long down = 0;
  forall (v in g.nodes()) {
    down--;
  }
  forall (v in g.nodes()) {
    long p = 1;
    long d = 0;
    for (nbr in g.neighbors(v)) {
      p *= -1;
      d -= 1;
      d--;
    }
    v.parity = 100 * p + d;
  }
  propNode<int> one;
  g.attachNodeProperty(one = 1, flips = 1, dip = 0);
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      nbr.flips *= v.one * 2 - 3;
    }
  }
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      nbr.dip -= v.one + 1;
    }
  }
}
