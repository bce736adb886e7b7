"""The corpus lint's scope checks (lint/scopes.py) shipped with the package: a user's first
`mtrain lint` reads them instead of exploring every fixture's partition of the option space
(tens of thousands of traced engine runs, most of a cold lint's CPU).

They are the cache entry a cold lint of the shipped corpus writes (ScopeCache: fixture
digest -> the check, its messages placed by node rather than by file and line), under the
entry's own name, a digest of the code and the spec data (code_digest.code_and_data_digest).
ScopeCache reads them only for an entry of that very name, only for a fixture its cache
does not hold, and only when the files agree with their index (shipped_entry.py); what it
reads is kept in the user's cache, and a fixture changed since, or one of the user's own,
is explored as before. Any change to the code or the data names another entry: the
shipped one is then never read.

`mtrain situations --shipped` writes them (`lint-scopes.json`, the index, and
`lint-scopes.xz`) from the same exploration that makes identify's pieces; `--check`
compares their name and the fixtures they cover with the corpus's, and a test explores a
sample of the corpus afresh and compares it with them (tests/test_shipped_scopes.py).
MTRAIN_SHIPPED_SCOPES=off keeps them unread (the tests keep them off but where they test
them).
"""

from __future__ import annotations

from mtrain.conformance.shipped_entry import ShippedEntry

SCOPES_ENV = "MTRAIN_SHIPPED_SCOPES"
INDEX, PAYLOAD = "lint-scopes.json", "lint-scopes.xz"
SCOPES = ShippedEntry("the lint's scope checks", "scope checks", SCOPES_ENV, INDEX, PAYLOAD)
