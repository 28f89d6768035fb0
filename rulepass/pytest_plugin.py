"""pytest plugin: collects the test blocks of `.rw` rule files as pytest items."""
