"""The rewrite engine: expressions, function registry, compiled rules, index, matcher, actions, driver, trace (lang -> rewrite)."""
