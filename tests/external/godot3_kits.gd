# Run by Godot 3's headless binary (godot3-server --path PROJECT -s godot3_kits.gd) after the
# editor has imported the project's .glb files. For each scene named in res://cases.json (a
# .tscn or an imported .kit.glb) it counts the MeshInstances under the node "pieces", puts the
# scene's navigation mesh in a Navigation node and asks it for the way from the case's start to
# its goal, and prints one line "RESULT {json}": per scene, the count and the path's points.
extends SceneTree


func _find(node, kind):
	if node.is_class(kind):
		return node
	for child in node.get_children():
		var found = _find(child, kind)
		if found != null:
			return found
	return null


func _pieces(node):
	if node.name == "pieces":
		var count = 0
		for child in node.get_children():
			if child is MeshInstance and child.mesh != null:
				count += 1
		return count
	for child in node.get_children():
		var count = _pieces(child)
		if count >= 0:
			return count
	return -1


func _init():
	var file = File.new()
	file.open("res://cases.json", File.READ)
	var cases = parse_json(file.get_as_text())
	file.close()
	var result = {}
	for name in cases:
		var packed = load("res://" + name)
		if packed == null:
			result[name] = {"loaded": false}
			continue
		var scene = packed.instance()
		get_root().add_child(scene)
		var navigation = Navigation.new()
		get_root().add_child(navigation)
		var instance = _find(scene, "NavigationMeshInstance")
		var out = {"loaded": true, "pieces": _pieces(scene), "navmesh": instance != null}
		if instance != null and instance.navmesh != null:
			navigation.navmesh_add(instance.navmesh, instance.global_transform, null)
			var ends = cases[name]
			var from = Vector3(ends[0][0], ends[0][1], ends[0][2])
			var to = Vector3(ends[1][0], ends[1][1], ends[1][2])
			var path = []
			for point in navigation.get_simple_path(from, to, false):
				path.append([point.x, point.y, point.z])
			out["path"] = path
			out["polygons"] = instance.navmesh.get_polygon_count()
		result[name] = out
		scene.queue_free()
		navigation.queue_free()
	print("RESULT " + to_json(result))
	quit()
