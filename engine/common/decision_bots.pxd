# Cython declarations for decision_bots.py, read only by the optional compiled build (setup.py): the newer games'
# random bot draws in C (fastrandom.pyx) and their play loop indexes typed lists. decision_bots.py stays plain
# Python and draws the very same numbers.

cimport cython

from engine.common.bot cimport Bot
from engine.fastrandom cimport below


cdef class RandomBot(Bot):
    @cython.locals(legal=list)
    cpdef decide(self, view)


@cython.locals(views=list, deciders=list)
cpdef play_until_over(game, bots, seat_view)
