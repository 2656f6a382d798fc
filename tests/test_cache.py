"""The cache of compiled tables (analyzer/io/cache.py).

A second run loads what the first compiled and prints the same bytes; a damaged,
foreign or tampered file is never trusted (it is compiled again and replaced); a folder
that cannot be written leaves the command working, said once; ``--no-cache`` and
``BACCARAT_NO_CACHE`` leave no file; the folder stays within its bound; two processes
racing on one folder both finish with the same output.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from analyzer import Shoe, Solver
from analyzer.bets.catalog import catalog
from analyzer.core.classengine import ClassTabulation
from analyzer.core.solver import forget_tabulations
from analyzer.io.cache import TableCache
from helpers import process_env
#: card bets of three engines (class tables, a rank-flush one, the pair engine) and value bets
BETS = "lucky_match,all_red,player_pair,dragon7,banker"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("BACCARAT_CACHE_DIR", str(folder))
    monkeypatch.delenv("BACCARAT_NO_CACHE", raising=False)
    forget_tabulations()          # as a new process: nothing compiled in memory by earlier tests
    return folder


def _odds(cli, *argv) -> tuple[str, str]:
    got = cli("odds", "--bets", BETS, "--format", "json", *argv)
    assert got.code == 0
    return got.out, got.err


def _depleted(rng: random.Random) -> Shoe:
    shoe = Shoe.standard(1)
    cards = [f"{r}{s}" for r in "A23456789TJQK" for s in "shdc"]
    return shoe.remove(" ".join(rng.sample(cards, rng.randint(0, 12))))


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_a_second_run_loads_the_tables_and_prints_the_same(cache_dir, cli):
    cold, _ = _odds(cli)
    files = sorted(cache_dir.glob("*.npz"))
    assert len(files) >= 3
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in files}
    forget_tabulations()                                     # as a new process: from disk
    warm, err = _odds(cli)
    assert warm == cold and err == ""
    assert sorted(cache_dir.glob("*.npz")) == files
    after = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in files}
    # every file read (its time touched: the least recently used go first), none written again
    assert all(after[p][0] == before[p][0] and after[p][1] > before[p][1] for p in files)


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_stored_tables_count_as_compiled_ones_on_depleted_shoes(tmp_path):
    """The library's ``store=``: a solver built from stored tables gives the same analyses,
    one shoe at a time and in batches, as one that compiled them."""
    bets = catalog().select(BETS.split(","))
    store = TableCache(tmp_path)
    forget_tabulations()                           # compiled here, not taken from memory
    compiled = Solver(bets, store=store)
    assert store.hits == 0
    forget_tabulations()                           # the in-process cache too: load from disk
    loaded = Solver(bets, store=store)
    assert store.hits >= 2
    rng = random.Random(24)
    shoes = [_depleted(rng) for _ in range(6)]
    assert [loaded.solve(s) for s in shoes] == [compiled.solve(s) for s in shoes]
    assert loaded.solve_many(shoes) == compiled.solve_many(shoes) == [Solver(bets, store=None).solve(s)
                                                                       for s in shoes]


# one damage in the default run, the others in .ci/run's slow run (2 s of CPU each)
@pytest.mark.parametrize("damage", ["flip", *(pytest.param(d, marks=pytest.mark.slow) for d in ("truncate", "foreign", "swap"))])
def test_a_damaged_or_foreign_file_is_compiled_again(cache_dir, cli, damage):
    cold, _ = _odds(cli)
    files = sorted(cache_dir.glob("*.npz"), key=lambda p: -p.stat().st_size)
    for i, p in enumerate(files):
        data = bytearray(p.read_bytes())
        if damage == "flip":
            data[len(data) // 2] ^= 0x40                    # one bit inside an array
        elif damage == "truncate":
            data = data[: len(data) // 3]
        elif damage == "foreign":
            data = b"not a table cache\n" * 10
        else:                                               # another entry's (valid) file
            data = bytearray(files[(i + 1) % len(files)].read_bytes())
        p.write_bytes(bytes(data))
    forget_tabulations()
    again, err = _odds(cli)
    assert again == cold and err == ""
    # rebuilt: each file loads again, verified
    store = TableCache(cache_dir)
    forget_tabulations()
    Solver(catalog().select(BETS.split(",")), store=store)
    assert store.misses == 0 and store.hits >= 2


def test_checked_arrays_refuse_what_no_compiler_writes():
    good = {"coef": np.array([[1, 2]]), "idx": np.zeros((2, 6), dtype=np.int64),
            "off": np.zeros((2, 6), dtype=np.int64), "classes": np.arange(52) // 4,
            "sequences": np.array([3])}
    assert ClassTabulation.from_arrays(good).ways_table.multisets == 2
    for name, bad in [("coef", np.array([[1, -2]])), ("idx", np.full((2, 6), 99)), ("off", np.zeros((3, 6))),
                      ("classes", np.arange(51)), ("coef", np.array([[1.0, 2.0]]))]:
        with pytest.raises(ValueError):
            ClassTabulation.from_arrays({**good, name: bad})


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_works_without_the_cache_and_says_so_once(cache_dir, cli):
    cache_dir.mkdir()
    cache_dir.chmod(0o500)
    try:
        out, err = _odds(cli)
    finally:
        cache_dir.chmod(0o700)
    assert err.count("baccarat: note: cannot write the table cache") == 1 and len(err.splitlines()) == 1
    assert out.startswith("{")


def test_an_unwritable_folder_works_without_the_cache_and_says_so_once(tmp_path, monkeypatch, cli):
    """A path under a file is unwritable even for root (as a read-only or full disk is)."""
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("BACCARAT_CACHE_DIR", str(tmp_path / "file" / "cache"))
    monkeypatch.delenv("BACCARAT_NO_CACHE", raising=False)
    out, err = _odds(cli)
    assert err.count("baccarat: note: cannot write the table cache") == 1 and len(err.splitlines()) == 1
    assert out.startswith("{")


@pytest.mark.parametrize("how", ["option", "environment"])
def test_the_cache_can_be_turned_off(cache_dir, cli, monkeypatch, how):
    if how == "option":
        _odds(cli, "--no-cache")
    else:
        monkeypatch.setenv("BACCARAT_NO_CACHE", "1")
        _odds(cli)
    assert not cache_dir.exists()


def test_stored_arrays_come_back_as_given_in_a_smaller_file(tmp_path):
    """int64 arrays are stored in the narrowest integer type that holds them (the compiled
    tables' counts and indices are small) and come back as int64, value for value."""
    rng = np.random.default_rng(24)
    given = {"small": rng.integers(-100, 100, (300, 6)), "counts": rng.integers(0, 720, (9, 500)),
             "wide": np.array([2**40, -(2**62), 2**63 - 1]), "mid": np.array([70_000, -5]),
             "empty": np.zeros((0, 6), dtype=np.int64), "floats": rng.random(50),
             "flags": np.array([True, False]), "bytes": np.frombuffer(b"abc", dtype=np.uint8)}
    store = TableCache(tmp_path)
    store.save("k", given)
    got = store.load("k")
    assert got is not None and set(got) == set(given)
    for name, a in given.items():
        assert got[name].dtype == a.dtype and got[name].shape == a.shape and np.array_equal(got[name], a), name
    raw = sum(a.nbytes for a in given.values())
    assert next(tmp_path.glob("*.npz")).stat().st_size < raw / 2


def test_the_folder_stays_within_its_bound(tmp_path):
    store = TableCache(tmp_path, max_bytes=10_000)
    for i in range(20):
        store.save(f"k{i}", {"a": np.arange(500) << 40})  # 4 kB each (int64 values)
    total = sum(p.stat().st_size for p in tmp_path.glob("*.npz"))
    assert total <= 10_000 and store.load("k19") is not None and store.load("k0") is None


@pytest.mark.slow  # 4 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_two_processes_racing_on_one_folder(cache_dir):
    env = process_env(BACCARAT_CACHE_DIR=str(cache_dir), BACCARAT_NO_CACHE=None)
    cmd = [sys.executable, "-m", "analyzer", "odds", "--bets", "lucky_match,all_red", "--format", "json"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outs[0][0] == outs[1][0] and outs[0][1] == outs[1][1] == b""
    assert not list(cache_dir.glob(".tmp-*"))
    again = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
    assert again.stdout == outs[0][0]
