# Cython declarations for referee.py, read only by the optional compiled build (setup.py): the newer games'
# shared referee becomes an extension type, its fields in C slots (the games' own fields are declared in their
# game.pxd). referee.py stays plain Python and is what the pure-Python path runs.

cimport cython

from engine.fastrandom cimport seeded_below


cdef class ChoicesReferee:
    cdef dict __dict__  # anything a game sets that its .pxd does not declare
    cdef public object ruleset, seed, drawn_first_player, first_player, result, phase
    cdef public list seats, choices, events
    cdef public Py_ssize_t n, move_number, seat, turn

    cpdef _take_choice(self, seat, decision)
    @cython.locals(entry=dict)
    cpdef _event(self, str event, dict fields=*)


cdef dict _PENDINGS


@cython.locals(key=tuple)
cpdef object one_seat_pending(kind, seat, count=*)
