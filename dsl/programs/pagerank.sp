// PageRank, pulled: each node gathers rank / out-degree from its in-neighbours, and the rank of
// nodes without out-edges is spread evenly over all nodes. The usual damping is 0.85. Stops when a
// step changes the ranks by less than the tolerance (L1), or after max_iterations steps.
function pagerank(Graph g, double damping, double tolerance, int max_iterations, propNode<double> rank) {
  double n = g.num_nodes();
  propNode<double> next_rank;
  g.attachNodeProperty(rank = 1 / n, next_rank = 0);

  int iterations = 0;
  double change = 0;
  bool converged = False;
  while (!converged && iterations < max_iterations) {
    double dangling = 0;
    forall (v in g.nodes().filter(g.count_outNbrs(v) == 0)) {
      dangling += v.rank;
    }

    change = 0;
    forall (v in g.nodes()) {
      double sum = 0;
      for (u in g.nodes_to(v)) {
        sum = sum + u.rank / g.count_outNbrs(u);
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
