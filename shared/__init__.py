"""The Celestial kernel: ephemeris, time, bodies, charts and the rules every service shares."""
