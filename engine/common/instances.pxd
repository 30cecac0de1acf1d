# Cython declarations of the compiled build's engine.common.instances (instances.pyx; instances.py is the reference).

cpdef object new_tuple(type cls, tuple values)
cpdef object new_slots(type cls, tuple values)
