# Cython declarations for random_bot.py, read only by the optional compiled build (setup.py): the card draw
# with C integers. random_bot.py stays plain Python and draws the very same numbers.

cimport cython

from engine.common.bot cimport Bot
from engine.diamonds.view cimport SeatView
from engine.fastrandom cimport below, sample


cdef class RandomBot(Bot):
    @cython.locals(cards=list, view=SeatView)
    cpdef decide(self, view)
