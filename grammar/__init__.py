"""Lark grammars of rulepass: `pir.lark` (program text) and `rw.lark` (rule language)."""
