// PageRank with its shares in float, as StarPlat and GAP keep them: each node's share, rank /
// out-degree, is rounded to float once a step, and every in-neighbour reads that, half the bytes
// of a double at random; sums and ranks stay double. The dsl engine runs it in place of pagerank
// where the rounding keeps the ranks within what the tolerance asks (as the other engines decide
// their shares). Otherwise the same step: pulled, with the rank of nodes without out-edges spread
// evenly over all nodes.
function pagerank_float_shares(Graph g, double damping, double tolerance, int max_iterations, propNode<double> rank) {
  double n = g.num_nodes();
  propNode<double> next_rank;
  propNode<float> share;
  g.attachNodeProperty(rank = 1 / n, next_rank = 0, share = 0);

  int iterations = 0;
  double change = 0;
  bool converged = False;
  while (!converged && iterations < max_iterations) {
    double dangling = 0;
    forall (v in g.nodes()) {
      if (g.count_outNbrs(v) == 0) {
        dangling += v.rank;
      } else {
        v.share = v.rank / g.count_outNbrs(v);
      }
    }

    change = 0;
    forall (v in g.nodes()) {
      double sum = 0;
      for (u in g.nodes_to(v)) {
        sum = sum + u.share;
      }
      double fresh = (1 - damping) / n + damping * (sum + dangling / n);
      double step = fresh - v.rank;
      if (step < 0) {
        step = -step;
      }
      change += step;
      v.next_rank = fresh;
    }
    rank = next_rank;
    iterations++;
    converged = change < tolerance;
  }
}
