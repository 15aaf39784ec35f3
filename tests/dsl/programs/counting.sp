// A test of ++ (not shipped): count, the nodes of more than two out-edges (returned); hits, each
// node's in-degree; forward, the edges to a larger node.
function counting(Graph g, propNode<long> hits) {
  g.attachNodeProperty(hits = 0);
  long count = 0;
  forall (v in g.nodes().filter(g.count_outNbrs(v) > 2)) {
    count++;
  }
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      nbr.hits++;
    }
  }
  long forward = 0;
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      if (nbr > v) {
        forward++;
      }
    }
  }
  return count;
}
