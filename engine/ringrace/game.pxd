# Cython declarations for game.py, read only by the optional compiled build (setup.py): the ring race's referee
# becomes an extension type on the shared one (common/referee.pxd), its piles and board in typed C slots, its
# turn's flow as C calls. game.py stays plain Python and is what the pure-Python path runs. A field added to Game
# is declared here too (or the compiled build keeps it in __dict__).

cimport cython

from engine.common.instances cimport new_slots
from engine.common.referee cimport ChoicesReferee, one_seat_pending
from engine.fastrandom cimport seeded_sample, seeded_shuffle


@cython.final
cdef class Game(ChoicesReferee):
    cdef public object fixed, given_fixed, card, deck_top
    cdef public list on_board, deck, aside, rings, set_rings
    cdef public set revealed
    cdef public Py_ssize_t loose_left

    @cython.locals(set_rings=list, per_value=Py_ssize_t, mine=set, empty=long, options=list, victim=Py_ssize_t,
                   held=long, both=long, c=Py_ssize_t, k=Py_ssize_t)
    cpdef list steal_options(self, Py_ssize_t seat)
    @cython.locals(on_board=list, tries=tuple, p=Py_ssize_t)
    cpdef list legal(self, seat)
    cpdef apply(self, seat, decision)
    cpdef _check(self, seat, decision)
    @cython.locals(seat=Py_ssize_t, card=Py_ssize_t)
    cpdef _start_turn(self)
    cpdef _next(self, Py_ssize_t seat)
    @cython.locals(seat=Py_ssize_t)
    cpdef _try(self, Py_ssize_t position)
    @cython.locals(seat=Py_ssize_t)
    cpdef _steal(self, Py_ssize_t victim, value)
    cpdef _finish(self, reason)
