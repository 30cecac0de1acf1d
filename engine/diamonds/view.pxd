# Cython declarations for view.py, read only by the optional compiled build (setup.py): the bots' hot path,
# `cards_to_play`, reads the game's fields straight from its C slots (game.pxd). view.py stays plain Python.

cimport cython

from engine.common.seat_view cimport SeatViewBase
from engine.diamonds.game cimport Game


cdef class SeatView(SeatViewBase):
    @cython.locals(g=Game, seat=Py_ssize_t, hand=list, led=long, c=long)
    cpdef list cards_to_play(self)
