"""The web tracker (``fracas serve``): FastAPI over the live session, on a database.

Layers point down only: this package imports the encounter session and the core, and
nothing below it knows of HTTP. ``db`` holds the tables and migrations, ``store`` the
transactions, ``tracker`` the sessions and roles, ``views`` what each role may see,
``api`` and ``pages`` the two renderers (JSON and HTML), ``app`` puts them together.
"""
