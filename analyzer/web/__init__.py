"""The live-shoe page of ``baccarat serve`` (``GET /``): static files under ``static/``."""
