# probe.py runs inside Blender (bpy), not under pytest
collect_ignore = ["probe.py"]
