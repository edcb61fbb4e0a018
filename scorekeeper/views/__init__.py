"""Blueprints, one module per resource."""
