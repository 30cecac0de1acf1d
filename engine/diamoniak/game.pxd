# Cython declarations for game.py, read only by the optional compiled build (setup.py): Diamoniak's referee
# becomes an extension type on the shared one (common/referee.pxd), its piles and counters in typed C slots, its
# turn's flow as C calls. game.py stays plain Python and is what the pure-Python path runs. A field added to Game
# is declared here too (or the compiled build keeps it in __dict__).

cimport cython

from engine.common.referee cimport ChoicesReferee, one_seat_pending
from engine.fastrandom cimport seeded_shuffle


@cython.final
cdef class Game(ChoicesReferee):
    cdef public object deck_top
    cdef public list draw_pile, discard_pile, castle, side, colour
    cdef public Py_ssize_t reshuffles, draws, witch_due, witch_taken

    cpdef list holdings(self, seat)
    @cython.locals(first=long, last=long, found=list, c=long)
    cpdef list diamonds(self, seat)
    @cython.locals(first=long, found=list, c=long)
    cpdef list fairies(self, seat)
    cpdef bint can_draw(self) except -1
    @cython.locals(first=long, last=long, side=list, other=Py_ssize_t, options=list, cards=list, c=long)
    cpdef list buy_options(self, seat)
    @cython.locals(can_draw=bint, options=list)
    cpdef list legal(self, seat)
    cpdef apply(self, seat, decision)
    cpdef _check(self, seat, decision)
    cpdef _check_buy(self, seat, value)
    @cython.locals(seat=Py_ssize_t)
    cpdef _draw(self)
    cpdef _witch(self)
    @cython.locals(seat=Py_ssize_t, pile=list)
    cpdef _discard(self, card)
    cpdef _after_witch_discard(self)
    @cython.locals(seat=Py_ssize_t)
    cpdef _buy(self, seller, card)
    cpdef _end_turn(self)
    cpdef _finish(self, reason)
