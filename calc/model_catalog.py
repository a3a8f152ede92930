"""The model catalog: read and validate ``models.toml`` (errors name the file, the model id
and the field, like ``hardware.toml``'s).  The architecture and its field schema are
``calc.arch``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Optional

from ._toml import locate_toml_error
from .arch import _ID, _TOML_FIELDS, ModelArch, _check_consistency, _coerce

DEFAULT_MODELS_PATH = Path(__file__).resolve().parent.parent / "models.toml"
"""The repository's models.toml, found relative to this package."""

class ModelFileError(ValueError):
    """models.toml is malformed; the message names the file, the model id and the field."""



def _ferr(path: Path, model: Optional[str], fieldname: Optional[str], problem: str) -> ModelFileError:
    where = str(path)
    if model is not None:
        where += f": model '{model}'"
    if fieldname is not None:
        where += f": field '{fieldname}'"
    return ModelFileError(f"{where}: {problem}")


def _model(path: Path, model_id: str, d: Any) -> ModelArch:
    if not _ID.match(model_id):
        raise _ferr(path, model_id, "id", "must be kebab-case: lowercase letters, digits, dots and "
                                          "single dashes (e.g. llama-3.1-8b)")
    if not isinstance(d, dict):
        raise _ferr(path, model_id, None, f"must be a table [models.{model_id}], got {type(d).__name__}")
    for f, (_, _, required) in _TOML_FIELDS.items():
        if required and f not in d:
            raise _ferr(path, model_id, f, "is missing")
    unknown = [k for k in d if k not in _TOML_FIELDS]
    if unknown:
        raise _ferr(path, model_id, unknown[0], f"is not a known field (known: {', '.join(_TOML_FIELDS)})")
    kw: dict[str, Any] = {}
    for f, value in d.items():
        attr, kind, _ = _TOML_FIELDS[f]
        kw[attr] = _coerce(kind, value, lambda problem, f=f: _ferr(path, model_id, f, problem))
    arch = ModelArch(id=model_id, **kw)
    back = {attr: f for f, (attr, _, _) in _TOML_FIELDS.items()}
    _check_consistency(arch, lambda attr, problem: _ferr(
        path, model_id, back.get(attr, attr) if attr not in _TOML_FIELDS else attr, problem))
    return arch


_HEADER = re.compile(r"^\s*\[+\s*models\.([A-Za-z0-9_\-\.\"']+?)\s*\]")


def _toml_error(path: Path, text: str, msg: str) -> ModelFileError:
    dup, model, fieldname, problem = locate_toml_error(text, msg, "models", _HEADER)
    if dup is not None:
        return _ferr(path, dup, "id", f"duplicate model id: [models.{dup}] appears twice ({msg})")
    return _ferr(path, model, fieldname, f"{problem}: {msg}")


def load_models(path: Optional[str | Path] = None) -> dict[str, ModelArch]:
    """Read and validate a models file: {model id: ModelArch}, in file order.

    path defaults to DEFAULT_MODELS_PATH (the repository's models.toml).  Raises
    ModelFileError (a ValueError) naming the file, model id and field for: unreadable or
    non-TOML files, duplicate ids (TOML keys: a model id with a dot must be quoted),
    missing or unknown fields, wrong types, non-positive counts, inconsistent fields
    (kv_heads not dividing heads, MoE fields on a dense model, ...).  Pure: safe to cache.
    """
    p = DEFAULT_MODELS_PATH if path is None else Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise _ferr(p, None, None, f"cannot be read ({e.strerror or e})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _ferr(p, None, None, f"is not UTF-8 text ({e})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _toml_error(p, text, str(e)) from None
    models = data.get("models")
    if models is None:
        raise _ferr(p, None, "models", "is missing: expected [models.<id>] tables")
    if not isinstance(models, dict):
        raise _ferr(p, None, "models", f"must be a table of models, got {type(models).__name__}")
    if not models:
        raise _ferr(p, None, "models", "is empty")
    extra = [k for k in data if k != "models"]
    if extra:
        raise _ferr(p, None, extra[0], "is not a known top-level key (only [models.<id>] tables)")
    out: dict[str, ModelArch] = {}
    for model_id, d in models.items():
        if isinstance(d, dict) and "name" not in d and all(isinstance(x, dict) for x in d.values()) and d:
            inner = next(iter(d))
            raise _ferr(p, f"{model_id}.{inner}", "id",
                        f"a model id with a dot must be quoted: [models.\"{model_id}.{inner}\"]")
        out[model_id] = _model(p, model_id, d)
    return out


