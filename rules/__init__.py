"""The passes of rulepass as `.rw` rule files, found through importlib.resources."""
