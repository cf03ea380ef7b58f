"""Typed errors. Every problem a user can cause is an InputError whose message is fit to show them."""
from __future__ import annotations


class E3RGError(Exception):
    """Base class of the project's errors."""


class InputError(E3RGError, ValueError):
    """Bad user input; str(error) is a one-line message for the user."""


class MissingInputError(InputError):
    pass


class TextTooLongError(InputError):
    pass


class UnsupportedMediaError(InputError):
    pass


class CorruptMediaError(InputError):
    pass


class MediaTooLongError(InputError):
    pass


class FileTooLargeError(InputError):
    pass


class SilentAudioError(InputError):
    pass


class NoFaceError(InputError):
    pass


class DialogueFormatError(InputError):
    pass


class UnknownAvatarError(InputError):
    pass


class ServerBusyError(E3RGError):
    """Too many turns are running and waiting; str(error) says so and when to try again."""


class EngineUnavailableError(E3RGError):
    """An engine cannot run here (weights, packages or device missing)."""


class CheckpointMismatchError(E3RGError):
    """A checkpoint or its config disagrees with the module built for it."""


def describe(error: BaseException) -> str:
    """One line about an error, fit for a notice: its title or class, then the first line of its message."""
    title = getattr(error, "title", None) or type(error).__name__
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{title}: {message}"[:240] if message else title
