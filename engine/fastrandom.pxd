# Cython declarations of the compiled build's engine.fastrandom (fastrandom.pyx; fastrandom.py is the reference and
# the pure-Python path): modules that cimport them draw through C calls.

cpdef object new_random(object seed)
cpdef reset_random(object rng, object source)
cpdef long below(object rng, long n) except -1
cpdef double random_float(object rng) except? -1.0
cpdef shuffle(object rng, list x)
cpdef list sample(object rng, object population, long k)
cpdef long seeded_below(object seed, long n) except -1
cpdef seeded_shuffle(object seed, list x)
cpdef list seeded_sample(object seed, object population, long k)
