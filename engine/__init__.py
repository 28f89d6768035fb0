"""rulepass.engine: the IR, the program text parser and printer, the verifier, the rule engine."""
