# Cython declarations for play.py, read only by the optional compiled build (setup.py): the play loop reads the
# game's fields from their C slots (game.pxd). play.py stays plain Python.

cimport cython

from engine.diamonds.game cimport Game


@cython.locals(game=Game, views=list, deciders=list, seat=Py_ssize_t)
cpdef play_game(game, bots)
