# Cython declarations for search.py, read only by the optional compiled build (setup.py): a playout's loop and its
# policies with the game's fields read from their C slots (game.pxd), the draws in C (fastrandom.pyx) and the
# policies called in C. search.py stays plain Python.

cimport cython

from engine.diamonds.game cimport Game
from engine.fastrandom cimport below, new_random, random_float, reset_random


@cython.locals(heuristic=bint, uniform=bint, seat=Py_ssize_t, hand=list, led=long, legal=list, c=long)
cpdef _play_round(Game g, rng, policy)
cpdef _random_play(Game g, seat, list legal, rng)
@cython.locals(trick=list, led=long, best=long, c=long, lowest=long, highest=long, lowest_winner=long, last=bint,
               lowest_diamond=long)
cpdef _heuristic_play(Game g, seat, list legal, rng)
