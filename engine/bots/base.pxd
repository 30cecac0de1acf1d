# Cython declarations for base.py, read only by the optional compiled build (setup.py): a bot keeps its random
# generator in a C slot (and a __dict__ for anything a bot kind adds), and the play loop reads the game's
# fields from their C slots (game.pxd). base.py stays plain Python.

cimport cython

from engine.game cimport Game


cdef class Bot:
    cdef dict __dict__
    cdef public object rng


@cython.locals(game=Game)
cpdef play_game(game, bots)
