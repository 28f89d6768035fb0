"""The rule language: AST nodes, the parser, its syntax errors, the checks and lint (pir -> lang)."""
