"""Plain dicts inside lists and maps of struct props, checked and converted before they reach the jsii kernel.

The jsii kernel reads a dict passed where a struct is declared by the struct's jsii field names
(``pathPrefix``) and silently drops every other key, so a dict spelt the Python way (``path_prefix``) or
misspelt would lose its fields without an error. Every converge construct is created through ``jsii.create``:
this wraps it so that, for converge's own classes, each such dict becomes its struct class (accepting the
Python and the jsii spelling of every field) and an unknown key raises an error naming the construct path,
the field path and the nearest field. Added to the generated package by scripts/package-python.js.
"""
import collections.abc
import difflib
import functools
import typing

import jsii

_ASSEMBLY = "cdk-converge."


class StructKeyError(ValueError):
    """A dict key that is not a field of the struct declared at its place."""


def _mapping(cls: typing.Any) -> typing.Optional[typing.Mapping[str, str]]:
    return getattr(cls, "__jsii_name_mapping__", None) if isinstance(cls, type) else None


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> typing.Dict[str, typing.Any]:
    try:
        return typing.get_type_hints(cls.__init__)
    except Exception:  # a struct of another library whose hints do not resolve: left as it is
        return {}


def _struct_name(cls: type) -> str:
    return cls.__jsii_type__[len(_ASSEMBLY):] if cls.__jsii_type__.startswith(_ASSEMBLY) else cls.__jsii_type__


def _to_struct(value: dict, cls: type, where: str) -> typing.Any:
    mapping = _mapping(cls)
    by_jsii_name = {j: p for p, j in mapping.items()}
    kwargs = {}
    for key, v in value.items():
        py = key if key in mapping else by_jsii_name.get(key)
        field = f"{where}.{key}" if where else key
        if py is None:
            near = difflib.get_close_matches(key, list(mapping), n=1, cutoff=0.6)
            hint = f"did you mean {near[0]}?" if near else f"its fields are {', '.join(mapping)}"
            raise StructKeyError(f"{field} is not a field of {_struct_name(cls)} ({hint})")
        if py in kwargs:
            raise StructKeyError(f"{field}: {py} is given twice")
        kwargs[py] = _normalize(v, _hints(cls).get(py, typing.Any), field)
    try:
        return cls(**kwargs)
    except TypeError as e:  # a required field missing, or a value of the wrong type
        raise StructKeyError(f"{where}: {e}") from None


def _walk_struct(obj: typing.Any, where: str) -> typing.Any:
    hints = _hints(type(obj))
    mapping = _mapping(type(obj))
    for py, v in list(obj._values.items()):
        field = mapping.get(py, py)
        new = _normalize(v, hints.get(py, typing.Any), f"{where}.{field}" if where else field)
        if new is not v:
            obj._values[py] = new
    return obj


def _normalize(value: typing.Any, hint: typing.Any, where: str) -> typing.Any:
    """``value`` with every dict at a struct's place turned into that struct; raises StructKeyError."""
    if value is None:
        return value
    if _mapping(type(value)) is not None:
        return _walk_struct(value, where)
    origin = typing.get_origin(hint)
    options = typing.get_args(hint) if origin is typing.Union else (hint,)
    for option in options:
        o = typing.get_origin(option)
        args = typing.get_args(option)
        if isinstance(value, dict) and _mapping(option) is not None:
            return _to_struct(value, option, where)
        if isinstance(value, list) and o in (list, collections.abc.Sequence) and args:
            return [_normalize(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)]
        if isinstance(value, dict) and o in (dict, collections.abc.Mapping) and len(args) == 2 and args[1] is not typing.Any:
            return {k: _normalize(v, args[1], f"{where}.{k}") for k, v in value.items()}
    return value


_create = jsii.create


def _checked_create(klass: typing.Any, obj: typing.Any, args: typing.Optional[typing.List[typing.Any]] = None) -> typing.Any:
    if args and getattr(klass, "__jsii_type__", "").startswith(_ASSEMBLY):
        try:
            args = [_walk_struct(a, "") if _mapping(type(a)) is not None else a for a in args]
        except StructKeyError as e:
            scope, name = (args + [None, None])[:2]
            path = f"{scope.node.path}/{name}" if hasattr(scope, "node") and isinstance(name, str) else klass.__jsii_type__
            raise StructKeyError(f"{path}: {e}") from None
    return _create(klass, obj, args)


if getattr(jsii.create, "__name__", "") != "_checked_create":
    jsii.create = _checked_create


# A value of the wrong type (``name=123``) is refused by the type check the generated code runs before the
# construct exists, naming only the argument. The check is wrapped so that its error also names the construct
# path, as converge's errors in TypeScript do: the path of the converge construct being created, found on the
# stack (its ``__init__`` holds ``scope`` and ``id``). Generated modules look ``check_type`` up in their own
# globals: the package's module is patched here, and the submodules, imported later, take the wrapped one.
import sys  # noqa: E402
import jsii._type_checking as _type_checking  # noqa: E402


def _construct_path() -> typing.Optional[str]:
    frame = sys._getframe(2)
    while frame is not None:
        names = frame.f_locals
        if frame.f_code.co_name == "__init__" and "scope" in names and isinstance(names.get("id"), str):
            me = names.get("self")
            if getattr(type(me), "__jsii_type__", "").startswith(_ASSEMBLY) and hasattr(names["scope"], "node"):
                parent = names["scope"].node.path
                return f"{parent}/{names['id']}" if parent else names["id"]
        frame = frame.f_back
    return None


_check_type = _type_checking.check_type


def _check_type_at_path(argname: str, value: object, expected_type: typing.Any) -> typing.Any:
    try:
        return _check_type(argname=argname, value=value, expected_type=expected_type)
    except TypeError as e:
        path = _construct_path()
        if path is None:
            raise
        field = argname[len("argument "):] if argname.startswith("argument ") else argname
        raise TypeError(f"{path}: {field}: {e}") from None


if getattr(_type_checking.check_type, "__name__", "") != "_check_type_at_path":
    _type_checking.check_type = _check_type_at_path
    _package = sys.modules.get(__name__.rpartition(".")[0])
    if _package is not None and getattr(_package, "check_type", None) is _check_type:
        _package.check_type = _check_type_at_path
