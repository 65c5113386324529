"""Where the shipped checkpoints are, so that ``agent("champion")`` works from any folder.

The package does not carry the repository's ``checkpoints/`` (several megabytes of weights and
reports); it finds them the way the ``sabacc`` program does. A spec's folder
(``checkpoints/champion``, or a bare name such as ``champion`` meaning
``checkpoints/champion``) is looked up:

1. under the current folder, as given;
2. under ``$SABACC_HOME`` when that variable is set, and then nowhere else;
3. otherwise in the repository the native module was built from (``pip install ./crates/frontends/python``
   or an editable install of a clone).

The lookup is the ``agents`` crate's, the one the ``sabacc`` program uses. A spec found nowhere
is passed on unchanged, so the error names it.
"""

from __future__ import annotations

from pathlib import Path

from . import _native

HOME_VAR = "SABACC_HOME"
CHECKPOINTS = "checkpoints"


def roots() -> list[Path]:
    """The folders searched after the current one, in order (see the module's documentation)."""
    return [Path(r) for r in _native.shipped_roots()]


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


def resolve(spec: str, game: str = "kessel") -> str:
    """``spec`` with its folder found by the rules above (``"champion@argmax"`` →
    ``".../checkpoints/champion@argmax"``); ``game``'s bots, folders that exist as given and names
    found nowhere come back unchanged."""
    return _native.resolve_spec(spec, game)


def not_found_note() -> str:
    """What to add to an unknown-agent error: where shipped checkpoints were looked for."""
    places = ", ".join(str(r) for r in roots()) or "nowhere besides the current folder"
    return (
        f" (shipped checkpoints such as `champion` are looked up under the current folder's "
        f"{CHECKPOINTS}/ and under: {places}; set {HOME_VAR} to a clone of the repository)"
    )
