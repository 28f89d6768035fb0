"""rulepass: declarative compiler passes for distributed training programs."""
