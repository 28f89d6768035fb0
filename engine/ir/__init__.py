"""The IR (programs, blocks, ops, values), its types and attributes, and a builder (errors -> ir)."""
