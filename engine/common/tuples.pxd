# Cython declarations of the compiled build's engine.common.tuples (tuples.pyx; tuples.py is the reference).

cpdef object new_tuple(type cls, tuple values)
