"""The code every service shares: ``kernel`` (pure astronomy and astrology) and ``runtime``
(the service process around it)."""
