// Single-source shortest paths, by rounds (Bellman-Ford). In each round every node whose distance
// dropped in the round before offers its out-neighbours a path through it; Min keeps the shortest
// offer and marks the nodes it improved, which offer in the next round. Weights must not be negative.
function sssp(Graph g, propNode<int> dist, propEdge<int> weight, node src) {
  propNode<bool> modified;
  propNode<bool> modified_next;
  g.attachNodeProperty(dist = INF, modified = False, modified_next = False);
  src.dist = 0;
  src.modified = True;

  bool finished = False;
  fixedPoint until (finished : !modified) {
    forall (v in g.nodes().filter(modified == True)) {
      forall (nbr in g.neighbors(v)) {
        edge e = g.get_edge(v, nbr);
        <nbr.dist, nbr.modified_next> = <Min(nbr.dist, v.dist + e.weight), True>;
      }
    }
    modified = modified_next;
    g.attachNodeProperty(modified_next = False);
  }
}
