"""What `mtrain serve` and an adapter's host find without the modules they no longer
import at start-up: the validator's version without importlib.metadata, the shipped files
without importlib.resources, each the same as those modules say."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import sys
import zipfile
from pathlib import Path

import pytest

from mtrain.spec import yamlschema
from mtrain.spec.package_files import package_files


def test_the_validators_version_is_what_importlib_metadata_says() -> None:
    assert yamlschema._installed_version("jsonschema") == importlib.metadata.version(
        "jsonschema")
    assert yamlschema._jsonschema_version() == importlib.metadata.version("jsonschema")


def _package(root: Path, name: str, infos: dict[str, str]) -> None:
    """A package `name` under `root`, with a dist-info folder per entry (its METADATA)."""
    (root / name).mkdir(parents=True)
    (root / name / "__init__.py").write_text("")
    for folder, metadata in infos.items():
        (root / folder).mkdir()
        (root / folder / "METADATA").write_text(metadata)


@pytest.mark.parametrize(("infos", "expected"), [
    ({"fakepkg_s46a-2.5.1.dist-info": "Metadata-Version: 2.1\nName: fakepkg_s46a\n"
      "Version: 2.5.1\n\nVersion: 9.9 (the description, not a header)\n"}, "2.5.1"),
    ({}, None),  # no metadata beside it: importlib.metadata is asked instead
    ({"fakepkg_s46a-1.0.dist-info": "Version: 1.0\n",
      "fakepkg_s46a-2.0.dist-info": "Version: 2.0\n"}, None),  # which? not guessed
    ({"fakepkg_s46a-1.0.dist-info": "Name: fakepkg_s46a\n\nVersion: 1.0\n"}, None),
    ({"fakepkg_s46a_extra-3.0.dist-info": "Version: 3.0\n"}, None),  # another package's
])
def test_the_installed_version_is_read_only_where_it_is_plain(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, infos: dict[str, str],
        expected: str | None) -> None:
    _package(tmp_path, "fakepkg_s46a", infos)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert yamlschema._installed_version("fakepkg_s46a") == expected
    if expected is not None:
        assert importlib.metadata.version("fakepkg_s46a") == expected


def test_a_package_thats_a_folder_is_its_folder_as_importlib_resources_says() -> None:
    for name in ("mtrain.spec", "mtrain.conformance", "yaml"):
        found = package_files(name)
        assert isinstance(found, Path)
        assert found == importlib.resources.files(name)
    assert (package_files("mtrain.spec") / "data" / "options.yaml").is_file()


def test_a_package_in_a_zip_is_left_to_importlib_resources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zippedpkg_s46/__init__.py", "")
        z.writestr("zippedpkg_s46/data/hello.txt", "hello from the zip")
    monkeypatch.syspath_prepend(str(archive))
    monkeypatch.delitem(sys.modules, "zippedpkg_s46", raising=False)
    found = package_files("zippedpkg_s46")
    assert not isinstance(found, Path)  # a zip's member, read through importlib.resources
    assert (found / "data" / "hello.txt").read_text(encoding="utf-8") == "hello from the zip"
