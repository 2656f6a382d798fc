import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os

# The compiled-table cache (analyzer/io/cache.py) stays off in tests, subprocesses
# included, so every test compiles what it counts; tests/test_cache.py turns it on in
# a folder of its own.
os.environ["BACCARAT_NO_CACHE"] = "1"
