// A test of &&= and ||= (not shipped), on flags and on shared bools: all_even holds where every
// in-edge comes from a node of even out-degree (so where there are none), any_above where some
// out-edge goes to a larger node; sorted, that no edge goes to a smaller node; loops, that some
// edge is a self-loop. below, of bools private to each node: it has no self-loop and some
// out-edge to a smaller node.
function logic(Graph g, propNode<bool> all_even, propNode<bool> any_above, propNode<bool> below) {
  g.attachNodeProperty(all_even = True, any_above = False);
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      nbr.all_even &&= g.count_outNbrs(v) % 2 == 0;
    }
  }
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      v.any_above ||= nbr > v;
    }
  }
  bool sorted = True;
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      sorted &&= nbr >= v;
    }
  }
  bool loops = False;
  forall (v in g.nodes()) {
    forall (nbr in g.neighbors(v)) {
      loops ||= nbr == v;
    }
  }
  forall (v in g.nodes()) {
    bool none = True;
    bool some = False;
    for (nbr in g.neighbors(v)) {
      none &&= nbr != v;
      some ||= nbr < v;
    }
    v.below = none && some;
  }
}
