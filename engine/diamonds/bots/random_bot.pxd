# Cython declarations for random_bot.py, read only by the optional compiled build (setup.py): the card draw
# with C integers. random_bot.py stays plain Python and draws the very same numbers.

cimport cython

from engine.common.bot cimport Bot


cdef class RandomBot(Bot):
    @cython.locals(cards=list, n=Py_ssize_t, r=Py_ssize_t)
    cpdef decide(self, view)
