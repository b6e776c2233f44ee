"""Discord's error answers: an HTTP error with its JSON body, and the form-error tree.

``topics/opcodes-and-status-codes.mdx`` "Example JSON Error Response": a body of
``{"code": ..., "message": ...}``; a form error is code 50035 "Invalid Form Body" with an
``errors`` tree that names the field (``{"content": {"_errors": [{"code": ...,
"message": ...}]}}``).
"""

from __future__ import annotations

from typing import Any

#: A field's place in the errors tree: keys and list indexes, outermost first.
Path = list[str | int]


class ApiError(Exception):
    """An HTTP error exactly as Discord would answer it."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


class FormErrors:
    """Collects field errors into Discord's nested ``errors`` tree
    (``{"content": {"_errors": [{"code": ..., "message": ...}]}}``)."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        if self.tree:
            raise ApiError(400, 50035, "Invalid Form Body", self.tree)

    def max_len(self, path: Path, value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length(self, path: Path, value: Any, low: int, high: int) -> None:
        if value is None or not low <= len(value) <= high:
            self.add(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {low} and {high} in length.",
            )

    def required(self, path: Path) -> None:
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def one_of(self, path: Path, allowed: tuple[int, ...]) -> None:
        """A component of a type not allowed where it stands: Discord answers
        ``UNION_TYPE_CHOICES`` 'Value of field "type" must be one of (1,).' on the
        component itself (the allowed types as a tuple)."""
        self.add(path, "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {allowed}.')
