"""What `build_operation` returns: the operation and every decision made on the way, as small
frozen records (`--json` prints their `as_dict`, the agent's `buildQuery` their `summary`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AutoFix:
    """A deprecated field swapped for the replacement its deprecation reason names."""

    coordinate: str
    replacement: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {
            "coordinate": self.coordinate,
            "replacement": self.replacement,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Carried:
    """An input field a variable's value holds, and the keys down to it (`category_uid.eq`);
    or an enum value, sent as the `value` at those keys (`price` = `DESC`)."""

    coordinate: str
    keys: tuple[str, ...]
    value: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"coordinate": self.coordinate, "keys": list(self.keys), "value": self.value}

    def at(self, variable: str) -> str:
        """Where it goes in the variable: `filter.sku.eq`, `sort.price = DESC`."""
        place = ".".join((variable, *self.keys))
        return place if self.value is None else f"{place} = {self.value}"


@dataclass(frozen=True)
class Variable:
    """A declared variable: `$name: type`, bound to the argument coordinate `argument`; the
    requested input fields its value holds are `carries`."""

    name: str
    type: str
    argument: str
    required: bool
    carries: tuple[Carried, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "argument": self.argument,
            "required": self.required,
            "carries": [carried.as_dict() for carried in self.carries],
        }

    def describe(self) -> str:
        """`$filter: ProductAttributeFilterInput (Query.products(filter:))`, and the keys of
        the input fields it holds: `holding filter.sku`."""
        text = f"${self.name}: {self.type} ({self.argument})"
        if self.carries:
            text += " holding " + ", ".join(c.at(self.name) for c in self.carries)
        return text


@dataclass(frozen=True)
class BuildResult:
    """The operation and everything the builder decided on the way."""

    operation: str
    variables: tuple[Variable, ...]
    valid: bool
    errors: tuple[str, ...]
    requested: tuple[str, ...]
    coordinates: tuple[str, ...]
    missing: tuple[str, ...]
    added: tuple[str, ...]
    leaves: tuple[str, ...]
    auto_fixes: tuple[AutoFix, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Valid, and every requested coordinate (after auto-fixes) is in the operation."""
        return self.valid and not self.missing

    def as_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "variables": [variable.as_dict() for variable in self.variables],
            "valid": self.valid,
            "complete": self.complete,
            "errors": list(self.errors),
            "requested": list(self.requested),
            "coordinates": list(self.coordinates),
            "missing": list(self.missing),
            "added": list(self.added),
            "leaves": list(self.leaves),
            "auto_fixes": [fix.as_dict() for fix in self.auto_fixes],
            "warnings": list(self.warnings),
        }

    def summary(self) -> str:
        """What an agent is shown: the operation, its variables, fixes, warnings, validity."""
        lines = [self.operation]
        if self.variables:
            lines.append("variables to send: " + ", ".join(v.describe() for v in self.variables))
        lines.extend(
            f"auto-fix: {fix.coordinate} is deprecated, replaced by {fix.replacement}"
            for fix in self.auto_fixes
        )
        lines.extend(f"warning: {warning}" for warning in self.warnings)
        if self.added:
            lines.append("connecting fields added: " + ", ".join(self.added))
        if not self.valid:
            lines.append("INVALID: " + "; ".join(self.errors))
        elif self.missing:
            lines.append("valid, but without: " + ", ".join(self.missing))
        else:
            lines.append("valid against the schema")
        return "\n".join(lines)
