"""Run by Blender's Python (bpy): import each mesh file given after ``--`` and print what Blender
made of it as one JSON line ``RESULT {...}`` (see tests/test_mesh_blender.py)."""

import bpy, bmesh, json, sys
def load(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    ext = path.rsplit('.', 1)[1]
    if ext in ('glb', 'gltf'): bpy.ops.import_scene.gltf(filepath=path)
    elif ext == 'obj': bpy.ops.wm.obj_import(filepath=path)
    elif ext == 'ply': bpy.ops.wm.ply_import(filepath=path)
    elif ext == 'stl': bpy.ops.wm.stl_import(filepath=path)
    meshes = [o for o in bpy.context.scene.objects if o.type == 'MESH']
    whole = bmesh.new()
    islands = 0
    for o in meshes:
        m = o.data.copy(); m.transform(o.matrix_world)
        one = bmesh.new(); one.from_mesh(m)
        seen = set()  # islands: faces connected through shared edges, as imported
        for f in one.faces:
            if f.index in seen: continue
            islands += 1; stack=[f]; seen.add(f.index)
            while stack:
                g = stack.pop()
                for e in g.edges:
                    for h in e.link_faces:
                        if h.index not in seen: seen.add(h.index); stack.append(h)
        one.free()
        whole.from_mesh(m)
    before = len(whole.verts)
    bmesh.ops.remove_doubles(whole, verts=whole.verts, dist=1e-6)
    out = {"objects": sorted(o.name for o in meshes), "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
           "vertices": before, "islands": islands, "non_manifold": sum(1 for e in whole.edges if not e.is_manifold),
           "volume": whole.calc_volume(signed=True),
           "min": [min(v.co[k] for v in whole.verts) for k in range(3)], "max": [max(v.co[k] for v in whole.verts) for k in range(3)],
           "materials": {}}
    for mat in bpy.data.materials:
        color = None
        if mat.node_tree:
            for node in mat.node_tree.nodes:
                if node.type == 'BSDF_PRINCIPLED':
                    color = list(node.inputs['Base Color'].default_value)
        out["materials"][mat.name] = color
    return out
print("RESULT " + json.dumps({p: load(p) for p in sys.argv[sys.argv.index('--') + 1:]}))
