"""Many games at once: the statistics of games played (:mod:`.stats`), solver and player
studies over numbered deals (:mod:`.study`, the ``milligan-study`` command), deals by
difficulty (:mod:`.difficulty`) and the Gymnasium environment (:mod:`.env`, which needs
``gymnasium``: import it by its own path).
"""
