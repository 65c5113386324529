"""Where the shipped checkpoints are, so that ``agent("champion")`` works from any folder.

The package does not carry the repository's ``checkpoints/`` (several megabytes of weights and
reports); it finds them the way the ``sabacc`` program does. A spec's folder
(``checkpoints/champion``, or a bare name such as ``champion`` meaning
``checkpoints/champion``) is looked up:

1. under the current folder, as given;
2. under ``$SABACC_HOME`` when that variable is set, and then nowhere else;
3. otherwise in the repository holding this package's source (an editable install), and in
   the repository the native module was built from (``pip install ./crates/python``).

A spec found nowhere is passed on unchanged, so the error names it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from . import _native

HOME_VAR = "SABACC_HOME"
CHECKPOINTS = "checkpoints"
_SEARCH = re.compile(r"search(:\d+)?")


def _is_repository(d: Path) -> bool:
    return (d / CHECKPOINTS).is_dir() and (d / "experiments").is_dir()


def roots() -> list[Path]:
    """The folders searched after the current one, in order (see the module's documentation)."""
    home = os.environ.get(HOME_VAR)
    if home:
        return [Path(home)]
    found: list[Path] = []
    here = Path(__file__).resolve()
    for d in here.parents:
        if _is_repository(d):
            found.append(d)
            break
    built = Path(_native.SOURCE_ROOT)
    if _is_repository(built) and all(built.resolve() != r.resolve() for r in found):
        found.append(built.resolve())
    return found


def checkpoints() -> dict[str, Path]:
    """Every shipped checkpoint found, by name (``{"champion": Path(".../checkpoints/champion"),
    …}``); the current folder's ``checkpoints/`` first, then each root's."""
    out: dict[str, Path] = {}
    for base in [Path(".")] + roots():
        d = base / CHECKPOINTS
        if not d.is_dir():
            continue
        for sub in sorted(d.iterdir()):
            if (sub / "metadata.json").is_file() and sub.name not in out:
                out[sub.name] = sub
    return out


def _folder(path: str) -> Path | None:
    p = Path(path)
    if not path or p.is_absolute():
        return None
    bare = len(p.parts) == 1
    candidates = [Path(CHECKPOINTS) / p] if bare else []
    for r in roots():
        candidates.append(r / p)
        if bare:
            candidates.append(r / CHECKPOINTS / p)
    return next((c for c in candidates if c.is_dir()), None)


def _is_bot(name: str) -> bool:
    return name in _native.agent_names() or _SEARCH.fullmatch(name) is not None


def resolve(spec: str) -> str:
    """``spec`` with its folder found by the rules above (``"champion@argmax"`` →
    ``".../checkpoints/champion@argmax"``); bots, folders that exist as given and names found
    nowhere come back unchanged."""
    s = spec.strip()
    if _is_bot(s) or Path(s).exists():
        return spec
    if "+" in s:
        search, guide = s.split("+", 1)
        if Path(guide.strip()).exists():
            return spec
        found = _folder(guide.strip())
        return spec if found is None else f"{search}+{found}"
    path, at, mode = s.rpartition("@")
    if not at:
        path = s
    if _is_bot(path) or Path(path).exists():
        return spec
    found = _folder(path)
    if found is None:
        return spec
    return f"{found}@{mode}" if at else str(found)


def not_found_note() -> str:
    """What to add to an unknown-agent error: where shipped checkpoints were looked for."""
    places = ", ".join(str(r) for r in roots()) or "nowhere besides the current folder"
    return (
        f" (shipped checkpoints such as `champion` are looked up under the current folder's "
        f"{CHECKPOINTS}/ and under: {places}; set {HOME_VAR} to a clone of the repository)"
    )
