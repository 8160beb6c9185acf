# Run by Godot 3's headless binary (godot3-server --path PROJECT -s godot3_probe.gd) after the
# editor has imported the project's files: prints one line "RESULT {json}" describing each
# imported scene (meshes: vertex count, albedo colours; collision shapes) and the OBJ mesh.
extends SceneTree


func _walk(node, out):
	if node is MeshInstance and node.mesh != null:
		var vertices = 0
		var colours = []
		for s in range(node.mesh.get_surface_count()):
			vertices += node.mesh.surface_get_arrays(s)[Mesh.ARRAY_VERTEX].size()
			var material = node.mesh.surface_get_material(s)
			if material is SpatialMaterial:
				colours.append(material.albedo_color.to_html(false))
		out["meshes"][node.name] = {"vertices": vertices, "colours": colours}
	if node is CollisionShape and node.shape != null:
		out["collision"].append(node.shape.get_class())
	for child in node.get_children():
		_walk(child, out)


func _init():
	var result = {}
	var dir = Directory.new()
	dir.open("res://")
	dir.list_dir_begin(true, true)
	var name = dir.get_next()
	while name != "":
		if name.ends_with(".glb"):
			var out = {"meshes": {}, "collision": []}
			var packed = load("res://" + name)
			if packed != null:
				_walk(packed.instance(), out)
			result[name] = out
		elif name.ends_with(".obj"):
			var mesh = load("res://" + name)
			var colours = {}
			for s in range(mesh.get_surface_count()):
				var material = mesh.surface_get_material(s)
				colours[material.resource_name] = material.albedo_color.to_html(false)
			result[name] = {"colours": colours}
		name = dir.get_next()
	print("RESULT " + to_json(result))
	quit()
