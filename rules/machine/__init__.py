"""What the described machine can do: devices, storage, volumes, memory and workload."""
