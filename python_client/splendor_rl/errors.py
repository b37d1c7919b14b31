"""Server errors as exceptions: one class per wire error code (encoding/wire/PROTOCOL.md §7)."""

from __future__ import annotations


class SplendorError(Exception):
    """A request the server refused. Nothing changed on the server."""

    code = ""

    def __init__(self, message: str, envs: list[int] | None = None):
        super().__init__(message)
        self.message = message
        self.envs = envs or []


class BadRequest(SplendorError):
    code = "bad_request"


class UnknownOp(SplendorError):
    code = "unknown_op"


class Unauthorized(SplendorError):
    code = "unauthorized"


class UnknownEnv(SplendorError):
    code = "unknown_env"


class BadOption(SplendorError, ValueError):
    code = "bad_option"


class BadSeed(SplendorError, ValueError):
    code = "bad_seed"


class BadShape(SplendorError, ValueError):
    code = "bad_shape"


class IllegalAction(SplendorError):
    """Some action was not legal; `envs` lists the offending env indices. Nothing was stepped."""

    code = "illegal_action"


class UnknownHandle(SplendorError):
    code = "unknown_handle"


class LimitExceeded(SplendorError):
    code = "limit_exceeded"


class InternalError(SplendorError):
    code = "internal"


class ProtocolError(Exception):
    """The server said something this client does not understand (a version mismatch or a bug)."""


ERRORS: dict[str, type[SplendorError]] = {
    cls.code: cls
    for cls in (BadRequest, UnknownOp, Unauthorized, UnknownEnv, BadOption, BadSeed, BadShape, IllegalAction,
                UnknownHandle, LimitExceeded, InternalError)
}


def from_reply(error: dict) -> SplendorError:
    """The exception for an error reply's body {code, message, envs?}."""
    cls = ERRORS.get(error.get("code", ""), SplendorError)
    exc = cls(error.get("message", ""), error.get("envs"))
    if cls is SplendorError:
        exc.code = error.get("code", "")
    return exc
