"""The benchmarks behind `pipkeeper bench` and the scripts they run on
MicroPython (mp/).
"""
