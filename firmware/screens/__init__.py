"""The screens: pure functions ``draw(view, fb)`` onto the 296x128 1-bit
framebuffer (MONO_HLSB, 1 = ink). ``view`` is a plain dict the app builds
from the engine's state; each module documents the keys it reads. A screen
never reads files, the engine or the buttons: what it shows is all in view.
"""
