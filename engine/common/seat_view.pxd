# Cython declarations for seat_view.py, read only by the optional compiled build (setup.py): the view keeps
# its game and seat in C slots (the Python class declares the same two in __slots__).

cdef class SeatViewBase:
    cdef public object _game, seat
