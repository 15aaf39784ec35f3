// A test of hoisting (not shipped): in the pull, (u.x * 2) / g.count_outNbrs(u) is the neighbour's
// (computed once per node before the pulse, read through mirrors) and (v.x + 1) the vertex's
// (computed once before the loop).
function hoisting(Graph g, propNode<double> x, propNode<double> y) {
  forall (v in g.nodes()) {
    v.x = g.count_inNbrs(v) + 1;
  }
  forall (v in g.nodes()) {
    double s = 0;
    for (u in g.nodes_to(v)) {
      s = s + (u.x * 2) / g.count_outNbrs(u) * (v.x + 1);
    }
    v.y = s;
  }
}
