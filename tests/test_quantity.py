"""What a schema's own names and descriptions say of it: whether a scalar holds a point in time."""

from __future__ import annotations

from schemanav.retrieval.quantity import is_time_scalar


def test_a_scalar_is_a_point_in_time_by_its_own_name_or_description() -> None:
    assert is_time_scalar("DateTime", None)
    assert is_time_scalar("ISO8601Date", None)
    assert is_time_scalar("GitTimestamp", None)
    assert is_time_scalar("Instant", "An ISO-8601 encoded UTC instant.")
    # Words that merely contain "time" or "date" are not those words.
    assert not is_time_scalar("TimelogID", "A `TimelogID` is a global ID.")
    assert not is_time_scalar("MetadataKey", None)
    assert not is_time_scalar("URI", "An RFC 3986 URI.")
