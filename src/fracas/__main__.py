"""``python -m fracas``: the same as the ``fracas`` command."""

from fracas.cli.entry import main

main()
