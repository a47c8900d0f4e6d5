"""Laptop-side tools for the hardware folder (wiring, power budget, BOM); never on the board."""
