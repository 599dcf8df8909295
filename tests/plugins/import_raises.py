import numpy
raise RuntimeError("no import for you")
