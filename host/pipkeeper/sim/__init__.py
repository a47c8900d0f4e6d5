"""The board without hardware: the unix-port board, the emulated RP2040
(rp2040/), panel pictures, the bare pty board and the serial relay they share.
"""
