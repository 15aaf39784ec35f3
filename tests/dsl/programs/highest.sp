// A test of Max (not shipped): in a multi-assignment, top becomes the largest of a node and its
// in-neighbours, and raised marks the nodes some in-neighbour is larger than (where Max moved
// top); on a shared node, largest is the largest of start and every edge's target.
function highest(Graph g, propNode<node> top, propNode<bool> raised, node start) {
  g.attachNodeProperty(raised = False);
  forall (v in g.nodes()) {
    v.top = v;
  }
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      <nbr.top, nbr.raised> = <Max(nbr.top, v), True>;
    }
  }
  node largest = start;
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      largest = Max(largest, nbr);
    }
  }
}
