"""The installed distribution's version, as pyproject.toml gave it at install time."""

from importlib import metadata

try:
    __version__: str = metadata.version("milligan-widget")
except metadata.PackageNotFoundError:  # not installed: a source tree on sys.path
    __version__ = "0+unknown"
