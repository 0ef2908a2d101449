"""Published eclipse predictions, the reference of the eclipse tests.

Source: NASA eclipse predictions by Fred Espenak, NASA's GSFC (eclipse.gsfc.nasa.gov; the
Five Millennium Canon of Solar Eclipses and of Lunar Eclipses, Espenak & Meeus 2006 and
2009): calendar date, Terrestrial Dynamical Time of greatest eclipse, and type, for every
eclipse of 2021-2032, as the catalogue lists them. "Hybrid" is our ``annular_total``.
"""

from __future__ import annotations

SOLAR = [
    ("2021-06-10", "10:43:06", "annular"),
    ("2021-12-04", "07:34:38", "total"),
    ("2022-04-30", "20:42:36", "partial"),
    ("2022-10-25", "11:01:19", "partial"),
    ("2023-04-20", "04:17:55", "annular_total"),
    ("2023-10-14", "18:00:40", "annular"),
    ("2024-04-08", "18:18:29", "total"),
    ("2024-10-02", "18:46:13", "annular"),
    ("2025-03-29", "10:48:36", "partial"),
    ("2025-09-21", "19:43:04", "partial"),
    ("2026-02-17", "12:13:05", "annular"),
    ("2026-08-12", "17:47:05", "total"),
    ("2027-02-06", "16:00:47", "annular"),
    ("2027-08-02", "10:07:49", "total"),
    ("2028-01-26", "15:08:58", "annular"),
    ("2028-07-22", "02:56:39", "total"),
    ("2029-01-14", "17:13:47", "partial"),
    ("2029-06-12", "04:06:13", "partial"),
    ("2029-07-11", "15:37:18", "partial"),
    ("2029-12-05", "15:03:57", "partial"),
    ("2030-06-01", "06:29:13", "annular"),
    ("2030-11-25", "06:51:37", "total"),
    ("2031-05-21", "07:16:04", "annular"),
    ("2031-11-14", "21:07:30", "annular_total"),
    ("2032-05-09", "13:26:42", "annular"),
    ("2032-11-03", "05:34:12", "partial"),
]

LUNAR = [
    ("2021-05-26", "11:19:53", "total"),
    ("2021-11-19", "09:04:06", "partial"),
    ("2022-05-16", "04:12:42", "total"),
    ("2022-11-08", "11:00:22", "total"),
    ("2023-05-05", "17:24:05", "penumbral"),
    ("2023-10-28", "20:15:18", "partial"),
    ("2024-03-25", "07:13:59", "penumbral"),
    ("2024-09-18", "02:45:25", "partial"),
    ("2025-03-14", "06:59:56", "total"),
    ("2025-09-07", "18:12:58", "total"),
    ("2026-03-03", "11:34:52", "total"),
    ("2026-08-28", "04:14:04", "partial"),
    ("2027-02-20", "23:14:06", "penumbral"),
    ("2027-07-18", "16:04:09", "penumbral"),
    ("2027-08-17", "07:14:59", "penumbral"),
    ("2028-01-12", "04:14:13", "partial"),
    ("2028-07-06", "18:20:57", "partial"),
    ("2028-12-31", "16:53:15", "total"),
    ("2029-06-26", "03:23:22", "total"),
    ("2029-12-20", "22:43:12", "total"),
    ("2030-06-15", "18:34:34", "partial"),
    ("2030-12-09", "22:28:51", "penumbral"),
    ("2031-05-07", "03:52:02", "penumbral"),
    ("2031-06-05", "11:45:17", "penumbral"),
    ("2031-10-30", "07:46:45", "penumbral"),
    ("2032-04-25", "15:14:51", "total"),
    ("2032-10-18", "19:03:40", "total"),
]
