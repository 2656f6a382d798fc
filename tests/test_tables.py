"""The JSON text of numbers written many at a time (:func:`analyzer.io.tables.json_numbers`,
orjson's digits where they are ``repr``'s) is ``json.dumps``'s, number for number."""

import json
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from analyzer.io.tables import json_numbers, orjson_writes_repr

FINITE = st.floats(allow_nan=False, allow_infinity=False)


def test_the_installed_orjson_writes_repr_s_digits_in_its_positional_range():
    assert orjson_writes_repr()


@settings(max_examples=200, deadline=None)
@given(st.lists(FINITE, min_size=1, max_size=200))
def test_floats_are_written_as_json_dumps_writes_them(xs):
    assert json_numbers(np.array(xs, dtype=np.float64)).tolist() == [json.dumps(x) for x in xs]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), min_size=1, max_size=50), st.integers(0, 2**53))
def test_quotients_of_counts_are_written_as_json_dumps_writes_them(exponents, top):
    # what a batch line writes: quotients w / deals, from 1 to far below 1e-4 (repr's exponents)
    xs = [top / 2.0**e / 3 for e in exponents] + [math.ulp(0.0), 1e-4, 1e16, 9999999999999998.0]
    assert json_numbers(np.array(xs)).tolist() == [repr(x) for x in xs]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=100))
def test_integers_are_written_as_str_writes_them(ns):
    a = np.array(ns, dtype=np.int64).reshape(1, -1)
    assert json_numbers(a).tolist() == [[str(n) for n in ns]]
