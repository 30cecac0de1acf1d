# Cython declarations for knowledge.py, read only by the optional compiled build (setup.py): the search bot's
# deal of the unseen cards (once a playout) with C integers and its draws in C (fastrandom.pyx). knowledge.py stays
# plain Python and deals the very same hands.

cimport cython

from engine.fastrandom cimport below


@cython.locals(s=Py_ssize_t, hands=list, room=list, spare=Py_ssize_t, by_suit=list, holders=list, cards=list,
               slots=list, m=Py_ssize_t, j=Py_ssize_t, r=Py_ssize_t, suit=Py_ssize_t)
cpdef _try_deal(plan, rng, bint relax)
