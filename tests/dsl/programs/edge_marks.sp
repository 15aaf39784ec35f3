// A test of a program's own edge property (not shipped): mark, 3 on every edge, then on each edge to
// a smaller node its source's out-degree plus 10 times its target's; total sums each node's
// in-edges' marks.
function edge_marks(Graph g, propNode<long> total) {
  propEdge<long> mark;
  g.attachEdgeProperty(mark = 3);
  g.attachNodeProperty(total = 0);
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v).filter(nbr < v)) {
      edge e = g.get_edge(v, nbr);
      e.mark = g.count_outNbrs(v) + 10 * g.count_outNbrs(nbr);
    }
  }
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      edge e = g.get_edge(v, nbr);
      nbr.total += e.mark;
    }
  }
}

// The same property read over in-edges: every node's in-edges' marks, 3 each (a program's own edge
// property, set only by attachEdgeProperty, is held for in-edges too).
function in_marks(Graph g, propNode<long> total) {
  propEdge<long> mark;
  g.attachEdgeProperty(mark = 3);
  g.attachNodeProperty(total = 0);
  forall (v in g.nodes()) {
    for (u in g.nodes_to(v)) {
      edge e = g.get_edge(u, v);
      v.total += e.mark;
    }
  }
}
