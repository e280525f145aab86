# A program that never touches CUDA: traced, it writes no records and exits as it would.
import sys

print("no CUDA here")
sys.exit(3)
