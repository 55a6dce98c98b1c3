"""Where `loader` still finds `chinese_seat`, which moved with the rest of Chinese poker's part of
the reports to `reports.games.chinese`: the loader's branch (h-reader) imports it from there, and
this module goes then."""

from ofc_desk.reports.games.chinese import chinese_seat

__all__ = ["chinese_seat"]
