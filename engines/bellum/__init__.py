"""Bellum 2.0: the migration-age strategy game of provinces, tribes and states.

`scenario` holds the map and start position every game begins from (the shipped 370 AD
scenario or a host's own file).
"""
