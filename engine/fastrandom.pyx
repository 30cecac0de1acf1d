# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled build's `engine.fastrandom` (setup.py compiles this file in place of fastrandom.py).

The same functions as fastrandom.py, which stays the reference and what the pure-Python path runs. Here the draws
come from the generator's own Mersenne Twister state, read and advanced in C, with no Python call in between; and
a generator is seeded in C exactly as `random.Random.seed` seeds it (CPython's `init_by_array`, on the key a
string seed makes through SHA-512). What CPython's `_random` module does is public and small: the MT19937 of
Matsumoto and Nishimura, `getrandbits(k)` for k <= 32 as the top k bits of one 32-bit output, `_randbelow` as
rejection sampling on `getrandbits(n.bit_length())`.

Only an exact `random.Random` is read in C: a subclass (the league's `DecisionRandom`, a bot author's own) may
draw its bits otherwise, so it is asked through its methods, as the reference asks it. At import, the C draws and
seeding are checked against the running Python's standard library (the generator's layout included, read back
through `getstate`); if anything differs, every function here asks the standard library instead, as
fastrandom.py then does.
"""

import math
import random

from libc.stdint cimport uint32_t, uint64_t
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.string cimport memcpy
from cpython.object cimport PyObject
from cpython.list cimport PyList_GET_SIZE

cdef extern from *:
    """
    /* The start of CPython's RandomObject (Modules/_randommodule.c, unchanged from 3.2 to 3.13): checked at
       import against getstate() before it is ever used. */
    typedef struct {
        PyObject_HEAD
        int index;
        uint32_t state[624];
    } engine_mt_object;
    """
    ctypedef struct engine_mt_object:
        int index
        uint32_t state[624]

cdef enum:
    N = 624
    M = 397

cdef object Random = random.Random
cdef object _new_random_object = random.Random.__new__
cdef uint32_t _init_genrand_19650218[N]  # init_genrand(19650218), where every init_by_array starts
cdef bint c_draws = False  # set at the end of the module once checked against the standard library

BITS = _BITS = tuple(n.bit_length() for n in range(128))


cdef struct MT:
    int index
    uint32_t *state


cdef inline uint32_t genrand(int *index, uint32_t *mt) noexcept nogil:
    """CPython's genrand_uint32: the next 32-bit output, generating N words at a time."""
    cdef uint32_t y
    cdef int kk
    if index[0] >= N:
        for kk in range(N - M):
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU)
            mt[kk] = mt[kk + M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        for kk in range(N - M, N - 1):
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU)
            mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        y = (mt[N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU)
        mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        index[0] = 0
    y = mt[index[0]]
    index[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef inline int bit_length(unsigned long n) noexcept nogil:
    cdef int k = 0
    while n:
        n >>= 1
        k += 1
    return k


cdef inline long c_below(int *index, uint32_t *mt, unsigned long n) noexcept nogil:
    """`_randbelow(n)` for 1 <= n <= 2**32: getrandbits(k) is the top k bits of one output."""
    cdef int shift = 32 - bit_length(n)
    cdef unsigned long r = genrand(index, mt) >> shift
    while r >= n:
        r = genrand(index, mt) >> shift
    return <long>r


cdef void init_genrand(uint32_t *mt, uint32_t s) noexcept nogil:
    cdef uint32_t i
    mt[0] = s
    for i in range(1, N):
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i


cdef void init_by_array(int *index, uint32_t *mt, const uint32_t *key, Py_ssize_t length) noexcept nogil:
    """CPython's init_by_array, from the cached init_genrand(19650218), for a key of at most N words. Its two
    loops walk i over 1..N-1 and wrap around to 1 (copying mt[N-1] to mt[0]) after N-1 steps: written out here
    as a loop over 1..N-1 and the one step after the wrap, with the same arithmetic in the same order."""
    cdef Py_ssize_t i, j = 0
    cdef uint32_t prev
    memcpy(mt, _init_genrand_19650218, N * sizeof(uint32_t))
    prev = mt[0]
    for i in range(1, N):  # the first loop's N steps: i = 1..N-1, then i = 1 after the wrap
        prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] + <uint32_t>j
        j += 1
        if j >= length:
            j = 0
    mt[0] = prev
    prev = mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] + <uint32_t>j
    for i in range(2, N):  # the second loop's N - 1 steps: i = 2..N-1, then i = 1 after the wrap
        prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - <uint32_t>i
    mt[0] = prev
    mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - 1U
    mt[0] = 0x80000000U
    index[0] = N


cdef uint64_t _K[80]  # SHA-512's round constants, set at import (_sha512_constants)
cdef uint64_t _H0[8]  # and its initial hash value


cdef inline uint64_t rotr(uint64_t x, int n) noexcept nogil:
    return (x >> n) | (x << (64 - n))


cdef void sha512(const unsigned char *data, Py_ssize_t length, unsigned char *out) noexcept nogil:
    """SHA-512 (FIPS 180-4) of `length` bytes at `data`, into the 64 bytes at `out`: the digest a string seed's
    key ends with, without hashlib's object and call."""
    cdef uint64_t h[8]
    cdef uint64_t w[80]
    cdef uint64_t a, b, c, d, e, f, g, hh, t1, t2
    cdef unsigned char block[128]
    cdef Py_ssize_t done = 0, i, take, blocks, k
    cdef int t
    cdef bint padded = False, length_written = False
    for t in range(8):
        h[t] = _H0[t]
    while not length_written:
        # the next block: message bytes, then 0x80 and zeros, then the length in bits (big-endian, 128 bits)
        take = length - done
        if take > 128:
            take = 128
        if take < 0:
            take = 0
        for i in range(take):
            block[i] = data[done + i]
        for i in range(take, 128):
            block[i] = 0
        done += take
        if take < 128 and not padded:
            block[take] = 0x80
            padded = True
            take += 1
        if padded and take <= 112:
            for k in range(8):  # the bit length fits 64 bits: the high 64 bits of the field stay zero
                block[127 - k] = <unsigned char>((<uint64_t>length * 8) >> (8 * k))
            length_written = True
        for t in range(16):
            w[t] = 0
            for k in range(8):
                w[t] = (w[t] << 8) | block[8 * t + k]
        for t in range(16, 80):
            w[t] = ((rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6)) + w[t - 7]
                    + (rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7)) + w[t - 16])
        a, b, c, d, e, f, g, hh = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
        for t in range(80):
            t1 = hh + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) + ((e & f) ^ (~e & g)) + _K[t] + w[t]
            t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c))
            hh = g
            g = f
            f = e
            e = d + t1
            d = c
            c = b
            b = a
            a = t1 + t2
        h[0] += a
        h[1] += b
        h[2] += c
        h[3] += d
        h[4] += e
        h[5] += f
        h[6] += g
        h[7] += hh
    for t in range(8):
        for k in range(8):
            out[8 * t + k] = <unsigned char>(h[t] >> (56 - 8 * k))


def _sha512_constants():
    """SHA-512's constants as FIPS 180-4 defines them: the first 64 bits of the fractional parts of the cube roots
    of the first 80 primes (K) and of the square roots of the first 8 (the initial hash value)."""
    primes = []
    n = 2
    while len(primes) < 80:
        if all(n % p for p in primes if p * p <= n):
            primes.append(n)
        n += 1
    mask = (1 << 64) - 1
    for t, p in enumerate(primes):
        n = p << 192
        x = 1 << ((n.bit_length() + 2) // 3)  # Newton's method for the integer cube root, from above
        while True:
            y = (2 * x + n // (x * x)) // 3
            if y >= x:
                break
            x = y
        _K[t] = x & mask
    for t, p in enumerate(primes[:8]):
        _H0[t] = math.isqrt(p << 128) & mask


cdef int seed_state(int *index, uint32_t *mt, object seed) except -1:
    """Seed as `random.Random.seed(seed)` (version 2) would, for a str or an int; 0 for any other seed (the
    caller then asks the standard library), 1 when seeded."""
    cdef const char *text
    cdef Py_ssize_t size, length, top, w, t, used
    cdef unsigned char b[256]  # the key's bytes: the seed's UTF-8 (at most 192 bytes here), then its SHA-512
    cdef uint32_t key[64]
    cdef uint32_t word
    cdef unsigned long long value
    if type(seed) is str:
        text = PyUnicode_AsUTF8AndSize(seed, &size)  # what seed.encode() gives (or its UnicodeEncodeError)
        if size > 192:
            return 0
        memcpy(b, text, size)
        sha512(b, size, b + size)  # random.Random.seed: int.from_bytes(a + sha512(a).digest())
        length = size + 64
        top = 0
        while top < length and b[top] == 0:  # leading zero bytes are high zero bits of the big-endian number
            top += 1
        used = (length - top + 3) // 4
        if used == 0:
            used = 1
        for w in range(used):  # little-endian 32-bit words of the number, low word first
            word = 0
            for t in range(4):
                if length - 1 - (4 * w + t) >= top:
                    word |= (<uint32_t>b[length - 1 - (4 * w + t)]) << (8 * t)
            key[w] = word
        init_by_array(index, mt, key, used)
        return 1
    if type(seed) is int:
        magnitude = seed if seed >= 0 else -seed  # random_seed seeds from abs(n)
        if magnitude >= (1 << 64):
            return 0
        value = <unsigned long long>magnitude
        key[0] = <uint32_t>(value & 0xffffffffU)
        key[1] = <uint32_t>(value >> 32)
        init_by_array(index, mt, key, 2 if key[1] else 1)
        return 1
    return 0


cpdef object new_random(object seed):
    """`random.Random(seed)`: seeded in C for a str or an int."""
    cdef object rng
    cdef engine_mt_object *mt
    if c_draws:
        rng = _new_random_object(Random)
        mt = <engine_mt_object *><PyObject *>rng
        if seed_state(&mt.index, mt.state, seed):
            rng.gauss_next = None  # as random.Random.seed leaves it
            return rng
    return Random(seed)


cpdef reset_random(object rng, object source):
    """`rng.setstate(source.getstate())`: the words copied in C between two exact `random.Random`."""
    cdef engine_mt_object *mt
    cdef engine_mt_object *other
    if c_draws and type(rng) is Random and type(source) is Random:
        mt = <engine_mt_object *><PyObject *>rng
        other = <engine_mt_object *><PyObject *>source
        memcpy(mt.state, other.state, N * sizeof(uint32_t))
        mt.index = other.index
        rng.gauss_next = source.gauss_next
        return
    rng.setstate(source.getstate())


cpdef long below(object rng, long n) except -1:
    """`rng.randrange(n)` for n >= 1."""
    cdef engine_mt_object *mt
    cdef long r
    cdef int k
    if n <= 0:
        raise ValueError(f"below needs n >= 1, not {n}")
    if c_draws and type(rng) is Random and n <= 0xffffffffL:
        mt = <engine_mt_object *><PyObject *>rng
        return c_below(&mt.index, mt.state, <unsigned long>n)
    getrandbits = rng.getrandbits
    k = bit_length(<unsigned long>n)
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


cdef extern from "Python.h":
    ctypedef struct PyListObject:
        PyObject **ob_item


cpdef double random_float(object rng) except? -1.0:
    """`rng.random()`: 53 bits from two outputs, as CPython's random_random."""
    cdef engine_mt_object *mt
    cdef uint32_t a, b
    if c_draws and type(rng) is Random:
        mt = <engine_mt_object *><PyObject *>rng
        a = genrand(&mt.index, mt.state) >> 5
        b = genrand(&mt.index, mt.state) >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    return rng.random()


cdef void c_shuffle(int *index, uint32_t *mt, list x) noexcept:
    """`shuffle` of a list in C: the items swapped in place (the list keeps one reference to each)."""
    cdef Py_ssize_t i, j
    cdef PyObject **items = (<PyListObject *>x).ob_item
    cdef PyObject *swap
    for i in range(PyList_GET_SIZE(x) - 1, 0, -1):
        j = c_below(index, mt, <unsigned long>(i + 1))
        swap = items[i]
        items[i] = items[j]
        items[j] = swap


cpdef shuffle(object rng, list x):
    """`rng.shuffle(x)`."""
    cdef engine_mt_object *mt
    if c_draws and type(rng) is Random:
        mt = <engine_mt_object *><PyObject *>rng
        c_shuffle(&mt.index, mt.state, x)
        return
    for i in range(len(x) - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]


cpdef list sample(object rng, object population, long k):
    """`rng.sample(population, k)`: the pool method for a population of at most 21 and at most 5 chosen, as the
    standard library draws them; anything else is the standard library's."""
    cdef Py_ssize_t n = len(population), i, j, m
    cdef list pool, result
    if n > 21 or not 0 <= k <= 5 or k > n:
        return rng.sample(population, k)
    pool = list(population)
    result = [None] * k
    for i in range(k):
        m = n - i
        j = below(rng, m)
        result[i] = pool[j]
        pool[j] = pool[m - 1]  # the standard library moves the last unchosen item into the gap
    return result


cpdef long seeded_below(object seed, long n) except -1:
    """`random.Random(seed).randrange(n)` for n >= 1, the generator on the C stack."""
    cdef uint32_t state[N]
    cdef int index
    if n <= 0:
        raise ValueError(f"below needs n >= 1, not {n}")
    if c_draws and n <= 0xffffffffL and seed_state(&index, state, seed):
        return c_below(&index, state, <unsigned long>n)
    return below(Random(seed), n)


cpdef list seeded_sample(object seed, object population, long k):
    """`random.Random(seed).sample(population, k)` where the standard library takes its pool method (a population
    no larger than its set-size bound), the generator on the C stack; the standard library's otherwise."""
    cdef uint32_t state[N]
    cdef int index
    cdef Py_ssize_t n, i, j
    cdef list pool, result
    if not c_draws or not isinstance(population, (list, tuple, range)):
        return Random(seed).sample(population, k)
    n = len(population)
    setsize = 21  # random.Random.sample's own bound, computed as it computes it
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if not 0 <= k <= n or n > setsize or n > 0xffffffffL or not seed_state(&index, state, seed):
        return Random(seed).sample(population, k)
    pool = list(population)
    result = [None] * k
    for i in range(k):
        j = c_below(&index, state, <unsigned long>(n - i))
        result[i] = pool[j]
        pool[j] = pool[n - i - 1]  # the standard library moves the last unchosen item into the gap
    return result


cpdef seeded_shuffle(object seed, list x):
    """`random.Random(seed).shuffle(x)`, the generator on the C stack."""
    cdef uint32_t state[N]
    cdef int index
    if c_draws and seed_state(&index, state, seed):
        c_shuffle(&index, state, x)
        return
    shuffle(Random(seed), x)


def _agrees():
    """Whether the C draws and seeding give the standard library's numbers here (and read its generator's
    layout right): seeds of every kind, each seeded generator's first draws compared, and every draw on two of
    them (a few milliseconds at import; tests/engine/test_fastrandom.py checks many more)."""
    global c_draws
    # strings of every length where SHA-512's padding changes (a second block from 112 bytes on), and ints
    seeds = ["a", "", "\u00e9t\u00e9/3", "x" * 111, "x" * 112, "x" * 127, "x" * 128, "x" * 192, 0, 7, -7, 1 << 40,
             (1 << 64) - 1, 1 << 64, "y" * 300]
    c_draws = True
    try:
        fast, slow = new_random("b/round-0"), Random("b/round-0")
        if fast.getstate() != slow.getstate():  # the layout: every word and the index where getstate has them
            return False
        for seed in seeds:
            if [below(new_random(seed), n) for n in (1, 5, 1 << 31)] != \
                    [Random(seed).randrange(n) for n in (1, 5, 1 << 31)]:
                return False
        for seed in ("b/round-0", 1 << 40):
            fast, slow = new_random(seed), Random(seed)
            for _ in range(700):  # past one generation of N words
                if below(fast, 1000) != slow.randrange(1000):
                    return False
            if random_float(fast) != slow.random():
                return False
            twin = new_random(1)
            reset_random(twin, fast)
            if [below(twin, 97) for _ in range(9)] != [slow.randrange(97) for _ in range(9)]:
                return False
            reset_random(fast, slow)
            xs, ys = list(range(61)), list(range(61))
            shuffle(fast, xs)
            slow.shuffle(ys)
            if xs != ys:
                return False
            for n, k in ((3, 2), (13, 5), (22, 3)):
                population = list(range(100, 100 + n))
                if sample(fast, population, k) != slow.sample(population, k):
                    return False
            if seeded_below(seed, 13) != Random(seed).randrange(13):
                return False
            for n, k in ((42, 16), (5, 5), (100, 30)):
                if seeded_sample(seed, range(n), k) != Random(seed).sample(range(n), k):
                    return False
            xs, ys = list(range(40)), list(range(40))
            seeded_shuffle(seed, xs)
            Random(seed).shuffle(ys)
            if xs != ys:
                return False
    except Exception:
        return False
    finally:
        c_draws = False
    return True


init_genrand(_init_genrand_19650218, 19650218U)
_sha512_constants()
draws_like_stdlib = True  # the draws below are the standard library's, in C or through its own methods
c_draws = _agrees()
drawn_in_c = c_draws  # for tests and benchmarks: whether the C draws passed the check above
