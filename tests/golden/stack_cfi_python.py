# Run by stack_cfi_python (its probe fires first during start-up).
import os

def inner():
    return os.fspath("path")

def outer():
    return inner()

outer()
