// Triangle counting on a symmetric graph: each triangle u < v < w is found once, from its middle
// node v, which checks every pair of a smaller and a larger neighbour for the edge between them,
// counts it, and credits each of its three corners.
function tc(Graph g, propNode<long> corners) {
  g.attachNodeProperty(corners = 0);
  long triangles = 0;
  forall (v in g.nodes()) {
    forall (u in g.neighbors(v).filter(u < v)) {
      forall (w in g.neighbors(v).filter(w > v)) {
        if (g.is_an_edge(u, w)) {
          triangles += 1;
          u.corners += 1;
          v.corners += 1;
          w.corners += 1;
        }
      }
    }
  }
  return triangles;
}
