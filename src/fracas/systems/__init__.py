"""The built-in rule systems: one package each, exporting ``SYSTEM``.

Each package holds its rules (``rules.py`` and friends), its data pack
(``data/*.yaml``) and is documented in ``docs/systems/<id>.md``.
"""
