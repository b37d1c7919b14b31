"""Errors as exceptions: one class per wire error code (encoding/wire/PROTOCOL.md §7), and the client's own
(`BadURL`, `ServerUnreachable`, `ConnectionLost`, `EnvClosed`, `ProtocolError`)."""

from __future__ import annotations


# The class of each wire error code, filled in as the classes below are defined.
ERRORS: dict[str, type[SplendorError]] = {}


class SplendorError(Exception):
    """A request refused, by the server or, for arguments it would refuse too (float actions, a float seed, an
    unknown reset option), by the client before sending. Nothing changed on the server. `code` is the wire error
    code (PROTOCOL.md §7), empty for the client's own refusals."""

    code = ""

    def __init_subclass__(cls, code: str = "", **kwargs):
        super().__init_subclass__(**kwargs)
        cls.code = code
        if code:
            ERRORS[code] = cls

    def __init__(self, message: str, envs: list[int] | None = None):
        super().__init__(message)
        self.message = message
        self.envs = envs or []


class BadRequest(SplendorError, code="bad_request"):
    """The request was not one msgpack map of the documented fields and types (a bug in the caller, or
    a client and server of different versions)."""


class UnknownOp(SplendorError, code="unknown_op"):
    """The request named an op the server does not have."""


class Unauthorized(SplendorError, code="unauthorized"):
    """The server has a token and the connection's hello did not give it: pass `token=`."""


class UnknownEnv(SplendorError, code="unknown_env"):
    """`make` named an env id the server does not have; its message lists the ones it has."""


class BadOption(SplendorError, ValueError, code="bad_option"):
    """`make` got an unknown option, a value of the wrong type or out of range, or `num_envs` < 1; or reset
    an option it does not read."""


class BadSeed(SplendorError, ValueError, code="bad_seed"):
    """A seed that is not an integer in [0, 2**64)."""


class BadShape(SplendorError, ValueError, code="bad_shape"):
    """Actions of the wrong shape or dtype (floats included), seeds and reset envs that differ in number, or an
    env index out of range or listed twice."""


class IllegalAction(SplendorError, code="illegal_action"):
    """Some action was not legal; `envs` lists the offending env indices (empty when the client refused it: a
    PettingZoo `step(None)` for an agent still to act). Nothing was stepped."""


class BadState(SplendorError, ValueError, code="bad_state"):
    """`set_state` was given a state that is not valid for the batch's env and options."""


class BadEvaluation(SplendorError, ValueError, code="bad_evaluation"):
    """A guided search's evaluator returned priors or values it cannot take (NaN, negative, no mass on a legal
    action, a value outside [-1, 1]); the message names the leaf. Nothing changed."""


class UnknownHandle(SplendorError, code="unknown_handle"):
    """No batch of this connection has that handle (never made, closed, or another connection's)."""


class LimitExceeded(SplendorError, code="limit_exceeded"):
    """`make` would exceed the server's limits on envs (per connection, in total) or memory."""


class InternalError(SplendorError, code="internal"):
    """A server bug: please report it with the message. The batch it named is closed."""


class BadURL(SplendorError, ValueError):
    """A server URL that is not a WebSocket URL (`http://…`, no scheme): refused before connecting."""


class ProtocolError(Exception):
    """The server said something this client does not understand (a version mismatch or a bug)."""


# The WebSocket close codes a connection to this server ends with (PROTOCOL.md §8); docs/python.md lists them.
CLOSE_CODES: dict[int, str] = {
    1000: "closed normally: the server's idle timeout (reason \"idle timeout\"), or this client closed it",
    1001: "the server is shutting down (reason \"server shutting down\")",
    1006: "no close frame: the server was killed, the network dropped, or the socket was reset",
    1008: "policy violation: a wrong or missing token, or no hello with it in time",
    1009: "a request was larger than the server's max_message_bytes",
}


class ConnectionLost(ConnectionError):
    """The connection ended, whichever way: `code` is the WebSocket close code the server sent (1006 when no close
    frame came) and `reason` its close reason; `hint`, what to do, ends the message. Requests in flight may or may
    not have run (PROTOCOL.md §7); the server freed the connection's batches. Reconnect, or use an env made with
    `reconnect=True`."""

    def __init__(self, url: str, code: int = 1006, reason: str = "", hint: str = ""):
        detail = repr(reason) if reason else CLOSE_CODES.get(code, "")
        super().__init__(f"connection to {url} lost (close code {code}{': ' + detail if detail else ''})"
                         f"{'; ' + hint if hint else ''}")
        self.url = url
        self.code = code
        self.reason = reason
        self.hint = hint

    def __reduce__(self):  # pickles (for multiprocessing) from the fields, not from the message
        return type(self), (self.url, self.code, self.reason, self.hint)


class ServerUnreachable(ConnectionError):
    """No connection could be opened to `url` (refused, unknown host, timeout, or a failed WebSocket handshake
    such as a wrong path); `reason` says which, and `hint` what to do."""

    NO_SERVER = ("Is a server running there? Start one with `splendor-server --listen 127.0.0.1:8765` "
                 "(ws://127.0.0.1:8765/ws; in a clone, `make run`), check the URL, or leave the URL out to start a "
                 "local server")

    def __init__(self, url: str, reason: str = "", hint: str = NO_SERVER):
        super().__init__(f"cannot connect to {url}: {reason}. {hint}")
        self.url = url
        self.reason = reason
        self.hint = hint

    def __reduce__(self):
        return type(self), (self.url, self.reason, self.hint)


class EnvClosed(RuntimeError):
    """reset/step/send/recv on an env after its close(): make a new env. (Not a `ConnectionLost`: there is
    nothing to reconnect.)"""


# The exceptions the client raises of its own, not from a server error reply; docs/python.md lists them.
CLIENT_ERRORS = (BadURL, ServerUnreachable, ConnectionLost, EnvClosed, ProtocolError)

def from_reply(error: dict) -> SplendorError:
    """The exception for an error reply's body {code, message, envs?}."""
    cls = ERRORS.get(error.get("code", ""), SplendorError)
    exc = cls(error.get("message", ""), error.get("envs"))
    if cls is SplendorError:
        exc.code = error.get("code", "")
    return exc
