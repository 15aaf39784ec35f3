// Triangle counting on a symmetric graph: each triangle u < v < w is counted once, from its middle
// node v, which checks every pair of a smaller and a larger neighbour for the edge between them.
function tc(Graph g) {
  long triangles = 0;
  forall (v in g.nodes()) {
    forall (u in g.neighbors(v).filter(u < v)) {
      forall (w in g.neighbors(v).filter(w > v)) {
        if (g.is_an_edge(u, w)) {
          triangles += 1;
        }
      }
    }
  }
  return triangles;
}
