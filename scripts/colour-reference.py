"""Points at known correlated colour temperatures and Duv, from the CIE 1931 observer (Ohno's
2013 method as the colour-science package computes it), for ColourTemperatureTests: each line
is kelvin, Duv, and the CIE 1931 x and y of that colour.
    python3 -m venv /tmp/colour && /tmp/colour/bin/pip install colour-science==0.4.7
    /tmp/colour/bin/python scripts/colour-reference.py
"""

import warnings

import numpy

warnings.simplefilter("ignore")
import colour  # noqa: E402  (after the warnings it would print are silenced)

for kelvin in (1200, 1800, 2200, 2700, 2856, 3000, 3500, 4000, 4500, 5000, 5500, 6500, 8000, 10000, 14000):
    for duv in (-0.02, -0.005, 0.0, 0.005, 0.02):
        uv = colour.temperature.CCT_to_uv_Ohno2013(numpy.array([kelvin, duv]))
        x, y = colour.UCS_uv_to_xy(uv)
        print(f"({kelvin}, {duv}, {x:.8f}, {y:.8f}),")
