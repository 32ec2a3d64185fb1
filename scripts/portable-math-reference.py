"""The true values of exp, log10, pow and sin at seeded inputs, to 80 digits (Python's decimal),
each as the double nearest to it and the remainder, for PortableMathTests: inputs over the
domains the programs use (exp of -5 to 0, log10 of a lux from 0.001 to 10^6, the TSL2561's
ratio^1.4, the simulated day's powers and sine), over the whole range, and at the edges (around
0, subnormals, overflow and underflow, the doubles nearest multiples of pi/2). make lint checks
the file is what this writes.
    python3 scripts/portable-math-reference.py > Tests/AmbienceCoreTests/Fixtures/portable-math.csv
"""

import random
import struct
from decimal import Decimal, getcontext
from fractions import Fraction

getcontext().prec = 80
LN10 = Decimal(10).ln()


def arctangent_of_inverse(n):
    x = Decimal(1) / n
    total, term, k = x, x, 1
    while abs(term) > Decimal(10) ** -78:
        term *= -x * x
        k += 2
        total += term / k
    return total


PI = 16 * arctangent_of_inverse(5) - 4 * arctangent_of_inverse(239)  # Machin's formula


def near(value):
    """The double nearest an exact value, and the double nearest what is left."""
    exact = Fraction(value)
    high = float(exact)
    return high, float(exact - Fraction(high))


def true_exp(x):
    if x < -746:
        return 0.0, 0.0
    return near(Decimal(x).exp())


def true_log10(x):
    return near(Decimal(x).ln() / LN10)


def true_pow(xy):
    x, y = xy
    return near(Decimal(x) ** Decimal(y))


def true_sin(x):
    r = Decimal(x) % (2 * PI)
    total, term, k = r, r, 1
    while abs(term) > Decimal(10) ** -78:
        term *= -r * r / ((k + 1) * (k + 2))
        k += 2
        total += term
    return near(total)


def double(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def inputs(rng):
    exp_inputs = [rng.uniform(-5, 0) for _ in range(400)]
    exp_inputs += [rng.uniform(-745, 709.7) for _ in range(200)]
    exp_inputs += [rng.uniform(-745.13, -708.4) for _ in range(50)]  # subnormal results
    exp_inputs += [0.0, -0.0, 1e-300, -1e-300, 2**-60, -(2**-60), 1.0, -1.0, 0.5, -0.1, -0.05]
    exp_inputs += [709.78, 709.782712893384, -708.3964185322641, -745.1332191019411, -745.13]
    log_inputs = [10 ** rng.uniform(-3, 6) for _ in range(400)]
    log_inputs += [double(rng.getrandbits(62) & 0x7FEFFFFFFFFFFFFF) for _ in range(200)]
    log_inputs += [double(rng.getrandbits(52)) for _ in range(50)]  # subnormals
    log_inputs += [1.0, 1 + 2**-52, 1 - 2**-53, 0.7071067811865476, 1.4142135623730951, 2.0, 0.5]
    log_inputs += [double(1), 2.2250738585072014e-308, 1.7976931348623157e308]
    log_inputs += [10.0**n for n in range(-5, 23)]
    pow_inputs = [(rng.uniform(0.001, 0.52), 1.4) for _ in range(150)]  # the TSL2561's formula
    pow_inputs += [(200.0, rng.uniform(0, 1)) for _ in range(50)]  # the simulated dawn
    pow_inputs += [(10 / 600, rng.uniform(0, 1)) for _ in range(50)]  # and dusk
    for _ in range(200):
        x = 10 ** rng.uniform(-5, 5)
        limit = 700 / max(abs(Decimal(x).ln()), Decimal("0.001"))
        pow_inputs.append((x, rng.uniform(-float(min(limit, 50)), float(min(limit, 50)))))
    pow_inputs += [(2.0, 10.0), (10.0, 22.0), (3.0, 0.5), (0.5, 1074.0), (1.5, 1.0), (7.0, 2.0)]
    sin_inputs = [rng.uniform(0, 100) for _ in range(200)]  # the simulated day's clouds
    sin_inputs += [rng.uniform(-(2**20), 2**20) for _ in range(200)]
    sin_inputs += [float(k * PI / 2) for k in range(1, 40)] + [float(k * 1000 * PI) for k in (1, 7, 333)]
    sin_inputs += [1e-300, 2**-30, 0.5, 0.7853981633974483, 1.0, 3.0]
    return exp_inputs, [x for x in log_inputs if x > 0], pow_inputs, sin_inputs


def main():
    exp_inputs, log_inputs, pow_inputs, sin_inputs = inputs(random.Random(46))
    print("function,x,y,true value's nearest double,remainder")
    for name, function, values in (("exp", true_exp, exp_inputs), ("log10", true_log10, log_inputs)):
        for x in values:
            high, low = function(x)
            print(f"{name},{x.hex()},,{high.hex()},{low.hex()}")
    for x, y in pow_inputs:
        high, low = true_pow((x, y))
        print(f"pow,{x.hex()},{y.hex()},{high.hex()},{low.hex()}")
    for x in sin_inputs:
        high, low = true_sin(x)
        print(f"sin,{x.hex()},,{high.hex()},{low.hex()}")


main()
