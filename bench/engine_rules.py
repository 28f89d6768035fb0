"""The pass bench/engine.py times, as ``.rw`` text: the six rule shapes of the real passes
(:data:`RULES`, pass ``bench6``) and the 44 decoys that never fire (:func:`decoy_rules`), which
``bench50`` adds to the six."""

from __future__ import annotations

from workload import ABSENT_OPS, PRESENT

RULES = """
pass bench6(rank: int = 0) {
  # sp_fusion's shape: all_reduce(SUM) -> split_with_num -> this rank's slice => reduce_scatter
  rule allreduce_split_slice {
    match {
      ar = pd_op.all_reduce(x) {reduce_type: 0, ring_id: g}
      sp = pd_op.split_with_num(ar, _) {num: n}
      sl = builtin.slice(sp) {index: i}
    }
    where uses(ar) == 1 and uses(sp) == 1 and group_size(g) > 1 and n == group_size(g)
      and i == group_rank(g, $rank) and type(x).shape[0] % n == 0
    rewrite {
      rs = pd_op.reduce_scatter(x) {nranks: n, op_role: role(ar), ring_id: g} : type(sl)
      for c in [ar.chunk_id ?? "none"] where c != "none" { set rs.chunk_id = c }
      replace sl with rs
      erase sl, sp, ar
    }
  }

  # grad_chunk's join: each grad op takes the chunk of the forward op it was made for
  rule grad_takes_forward_chunk {
    match {
      f = * {op_id: k, chunk_id: c}
      g = * {grad_of: k}
    }
    where (g.chunk_id ?? -1) != c
    rewrite { set g.chunk_id = c }
  }

  # drop_trivial_comm's shape: a collective over a one-rank group does nothing
  rule drop_one_rank_collective {
    match { o = (pd_op.all_reduce | pd_op.all_gather | pd_op.c_identity)(x) {ring_id: g} }
    where group_size(g) == 1
    rewrite {
      replace o with x
      erase o
    }
  }

  # a region rule: tag every op of a dtensor_to_local .. dtensor_from_local region
  rule tag_local_region {
    match region t = dist_op.dtensor_to_local(_) .. f = dist_op.dtensor_from_local(_) as body
    where any(o in body, not has(o.local))
    rewrite { for o in body where not has(o.local) { set o.local = true } }
  }

  # an attribute rewrite: exact gelu -> tanh gelu
  rule tanh_gelu {
    match { o = pd_op.gelu {approximate: false} }
    rewrite { set o.approximate = true }
  }

  # erase constant and shape ops nobody reads
  rule erase_unused {
    match { o = (pd_op.full | pd_op.full_int_array | pd_op.shape) }
    where uses(o) == 0
    rewrite { erase o }
  }
}
"""

def decoy_rules() -> str:
    """44 rules that never fire: 22 rooted at op names the workload lacks, 22 at names it has
    whose attribute constraints, operand shapes or ``where`` clauses are false there."""
    rules = []
    for i, name in enumerate(ABSENT_OPS):
        rules.append(f"""
  rule absent_{i} {{
    match {{ o = {name}(x) {{op_role: r}} }}
    where uses(o) > 0 and r == 0
    rewrite {{ set o.decoy = {i} }}
  }}""")
    for i, (pattern, where, _) in enumerate(PRESENT):
        rules.append(f"""
  rule present_{i} {{
    match {{ o = {pattern} }}
    where {where}
    rewrite {{ set o.decoy = {i} }}
  }}""")
    return "".join(rules)


def rules_text(decoys: bool) -> str:
    """The 6-rule pass ``bench6``, and with ``decoys`` also ``bench50`` (the same six + 44)."""
    if not decoys:
        return RULES
    body = RULES[RULES.index("{", RULES.index("pass bench6")) + 1: RULES.rindex("}")]
    return RULES + "\npass bench50(rank: int = 0) {" + body + decoy_rules() + "\n}\n"
