"""Exceptions raised for bad input.  All are ``ValueError`` subclasses."""


class BaccaratError(ValueError):
    """Base class: input the analyzer refuses, with a one-line message."""


class CardError(BaccaratError):
    """An unknown rank, suit or card name."""


class ShoeError(BaccaratError):
    """A shoe that cannot exist, or an operation the shoe cannot do."""


class BetError(BaccaratError):
    """An unknown bet or table, or a pay table / condition that cannot be used."""
