// Hops from src along edges in either direction. Each round has two vertex loops, one a direction,
// whose pulses courierc merges into one bulk reduction: each offers its own node's hops plus one
// into a Min that flags what it lowers, and the fixedPoint follows that flag. The second loop names
// its node differently, so the merged loop has to give it that name.
function merging(Graph g, propNode<int> hops, node src) {
  propNode<bool> active;
  propNode<bool> active_next;
  g.attachNodeProperty(hops = INF, active = False, active_next = False);
  src.hops = 0;
  src.active = True;

  bool done = False;
  fixedPoint until (done : !active) {
    forall (v in g.nodes().filter(active == True)) {
      forall (n in g.neighbors(v)) {
        <n.hops, n.active_next> = <Min(n.hops, v.hops + 1), True>;
      }
    }
    forall (u in g.nodes().filter(active == True)) {
      forall (n in g.nodes_to(u)) {
        <n.hops, n.active_next> = <Min(n.hops, 1 + u.hops), True>;
      }
    }
    active = active_next;
    g.attachNodeProperty(active_next = False);
  }
}
