// Betweenness centrality (Brandes) from a set of sources. For each source, a BFS counts the
// shortest paths to every node level by level (sigma: a node adds its count to each of its BFS
// children), then a sweep from the deepest level back gathers each node's dependency (delta) from
// its BFS children and adds it to the node's centrality. Inside iterateInBFS and iterateInReverse,
// g.neighbors(v) visits v's BFS children only.
function bc(Graph g, propNode<double> centrality, SetN<g> sources) {
  propNode<double> sigma;
  propNode<double> delta;
  g.attachNodeProperty(centrality = 0);

  for (src in sources) {
    g.attachNodeProperty(sigma = 0, delta = 0);
    src.sigma = 1;
    iterateInBFS (v in g.nodes() from src) {
      for (w in g.neighbors(v)) {
        w.sigma += v.sigma;
      }
    }
    iterateInReverse (v != src) {
      for (w in g.neighbors(v)) {
        v.delta = v.delta + (v.sigma / w.sigma) * (1 + w.delta);
      }
      v.centrality = v.centrality + v.delta;
    }
  }
}
