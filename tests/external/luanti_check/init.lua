-- Places the schematic named in the world's check.conf the way a player would (place_schematic,
-- no rotation), over ground filled with a marker node, then writes every node name and param2
-- of the area to nodes.txt (z, y, x order, x fastest) and shuts the server down.
local world = minetest.get_worldpath()
local settings = Settings(world .. "/check.conf")
local path = settings:get("schematic")
local size = {x = tonumber(settings:get("x")), y = tonumber(settings:get("y")), z = tonumber(settings:get("z"))}
local marker = settings:get("marker")
local p1 = {x = 0, y = 0, z = 0}
local p2 = {x = size.x - 1, y = size.y - 1, z = size.z - 1}

local function check()
	local vm = minetest.get_voxel_manip()
	local e1, e2 = vm:read_from_map(p1, p2)
	local area = VoxelArea:new({MinEdge = e1, MaxEdge = e2})
	local data = vm:get_data()
	local id = minetest.get_content_id(marker)
	for i in area:iterp(p1, p2) do data[i] = id end
	vm:set_data(data)
	vm:write_to_map(false)
	local ok = minetest.place_schematic(p1, path, "0", nil, true)
	local out = io.open(world .. "/nodes.txt", "w")
	out:write(tostring(ok), "\n")
	for z = 0, size.z - 1 do
		for y = 0, size.y - 1 do
			for x = 0, size.x - 1 do
				local node = minetest.get_node({x = x, y = y, z = z})
				out:write(node.name, " ", node.param2, "\n")
			end
		end
	end
	out:close()
	minetest.request_shutdown()
end

minetest.after(0, function()
	minetest.emerge_area(p1, p2, function(_, _, remaining)
		if remaining == 0 then check() end
	end)
end)
