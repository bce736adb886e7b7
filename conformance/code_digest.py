"""The digest of the code and data a traced reference run depends on: the name of every
cache entry the lint, identify and conform keep about fixtures (a change to the engine, the
harness, the specification or its data makes a new name, so nothing stale is read). Its own
module so that conform's selection can name its entries without importing the lint (whose
package imports the model, and with it z3, which `mtrain serve` must not load)."""

from __future__ import annotations

import json
from pathlib import Path

from mtrain.spec import cache
from mtrain.spec.scope import Space
from mtrain.spec.yamlload import read_text


def code_and_data_digest(space: Space) -> str:
    """What a fixture's check depends on beside the fixture: the source of the engine, the
    harness and the specification (with the shipped data), and the spec data read."""
    folder = space.cat.data_dir
    data = (cache.files_digest([Path(str(folder))], (".yaml", ".json"))
            if Path(str(folder)).is_dir() else str(folder))
    added = [(name, cache.digest(read_text(path)))  # the rule-set files fixtures name
             for name, path in sorted(space.cat.added_examples.items())]
    return cache.digest(cache.package_digest("mtrain.reference"),
                        cache.package_digest("mtrain.conformance"),
                        cache.package_digest("mtrain.spec", (".py", ".yaml", ".json")),
                        data, json.dumps(added))
