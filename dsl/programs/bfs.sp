// Breadth-first search levels from a root: the root is at level 0 and every other node one level
// below the first level that reaches it (INF where none does). The frontier of each round offers
// the next level to its out-neighbours; Min keeps the first, and the nodes it lowers form the next
// frontier.
function bfs(Graph g, propNode<int> level, node root) {
  propNode<bool> frontier;
  propNode<bool> next_frontier;
  g.attachNodeProperty(level = INF, frontier = False, next_frontier = False);
  root.level = 0;
  root.frontier = True;

  int depth = 0;
  bool finished = False;
  fixedPoint until (finished : !frontier) {
    forall (v in g.nodes().filter(frontier == True)) {
      forall (nbr in g.neighbors(v)) {
        <nbr.level, nbr.next_frontier> = <Min(nbr.level, depth + 1), True>;
      }
    }
    frontier = next_frontier;
    g.attachNodeProperty(next_frontier = False);
    depth++;
  }
}
