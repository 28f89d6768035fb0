"""Generated Python for expressions, match plans and rewrite blocks (the fast path of the tree walkers)."""
