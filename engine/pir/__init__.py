"""Paddle PIR program text: the fast parser, the lark reference parser, the printer, the verifier (ir -> pir)."""
