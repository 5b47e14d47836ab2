"""Exact odds of an action in a state: the layer between the rules and their users.

It runs a system's ``resolve`` on the exact roller (:mod:`fracas.odds.attack`), memoises the
answers by what they read (:mod:`fracas.odds.cache`, :mod:`fracas.odds.reads`), and writes
exact probabilities as text (:mod:`fracas.odds.text`). It knows the ``RuleSystem`` protocol,
never a particular system; policies, live play, analysis, the web tracker and the CLI import it.
Kept light: importing a module here loads no rule system.
"""
