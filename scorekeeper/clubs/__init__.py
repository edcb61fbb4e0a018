"""Clubs and who may do what: members, devices and roles, joining by code or link.
"""
