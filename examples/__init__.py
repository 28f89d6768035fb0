"""The examples ``rulepass run`` takes by name (``rulepass run pp2_vpp2_localmap``), installed
as the package data of ``rulepass.examples``: one folder each with ``forward.pir``,
``config.toml``, ``params.npz``, ``data.npz``, ``reference.json`` and ``params_final.npz`` (see
``rulepass/example.py``)."""
