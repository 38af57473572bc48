"""Not imported by the kernel: changing it must not re-run the transpiler."""
