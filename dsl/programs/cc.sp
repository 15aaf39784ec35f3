// Connected components (weakly connected) by min-label propagation. Every node starts labelled by
// itself; a node whose label dropped offers it along its out-edges and its in-edges, and Min keeps
// the smallest offer, until no label changes. Each component ends labelled by its smallest node.
function cc(Graph g, propNode<node> label) {
  propNode<bool> modified;
  propNode<bool> modified_next;
  g.attachNodeProperty(modified = True, modified_next = False);
  forall (v in g.nodes()) {
    v.label = v;
  }

  bool finished = False;
  fixedPoint until (finished : !modified) {
    forall (v in g.nodes().filter(modified == True)) {
      forall (nbr in g.neighbors(v)) {
        <nbr.label, nbr.modified_next> = <Min(nbr.label, v.label), True>;
      }
    }
    forall (v in g.nodes().filter(modified == True)) {
      forall (nbr in g.nodes_to(v)) {
        <nbr.label, nbr.modified_next> = <Min(nbr.label, v.label), True>;
      }
    }
    modified = modified_next;
    g.attachNodeProperty(modified_next = False);
  }
}
