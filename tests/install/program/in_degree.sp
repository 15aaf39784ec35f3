// In-degrees by reduction: every node adds one to each of its out-neighbours' counts.
function in_degree(Graph g, propNode<long> count) {
  g.attachNodeProperty(count = 0);
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      nbr.count += 1;
    }
  }
}
