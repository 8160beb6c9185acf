// blockmaze inside Tiled 1.8+: a map format (.blockmaze files) and an action (Map > Make a
// blockmaze maze or dungeon...). Written by `blockmaze plugin tiled`; it runs the blockmaze that
// wrote it (the manifest beside this file names it) and loads the .tmx blockmaze writes with
// Tiled's own TMX reader, so the tiles are exactly blockmaze's. No maze logic lives here.
//
// A .blockmaze file is a small JSON request:
//   {"command": "dungeon", "size": "40x60", "options": {"seed": 3, "style": "bsp"},
//    "into": "template.tmx"}
// "command" is dungeon or maze; "options" are the command's long options without "--" (a
// switch is true or false); "into" (optional) names a map to make the level into, as the action
// does with the open map.
/* global tiled, Qt, File, FileInfo, TextFile, Process, TileLayer, ObjectGroup, MapObject, __filename */
"use strict";

const TITLE = "blockmaze";
const HERE = FileInfo.path(__filename);
const COMMANDS = {dungeon: "dungeon", maze: "generate", generate: "generate"};
// the groups of options that change a tile map; the extension sets the file's own options
const GROUPS = ["Maze", "Blocks", "Tile maps"];
const SET_HERE = ["tile-encoding", "external-tileset", "levels"];
const TILE_LAYER = "maze";
const OBJECT_LAYER = "entities";
const TERRAIN_LAYER = "terrain";

function readText(fileName) {
  const file = new TextFile(fileName, TextFile.ReadOnly);
  try {
    return file.readAll();
  } finally {
    file.close();
  }
}

const MANIFEST = JSON.parse(readText(FileInfo.joinPaths(HERE, "blockmaze_manifest.json")));

// "Error: x" as "x": one line for an alert or the format's error
function message(error) {
  const text = String(error && error.message !== undefined ? error.message : error);
  return text.replace(/^(Error: )+/, "");
}

function commandOf(name) {
  const command = COMMANDS[name];
  if (!command || !MANIFEST.forms[command])
    throw new Error(`the command is dungeon or maze, got ${JSON.stringify(name)}`);
  return command;
}

// the fields of a command this extension offers, from the manifest's forms
function fields(command) {
  return MANIFEST.forms[command].filter(f => GROUPS.includes(f.group) && !SET_HERE.includes(f.flag));
}

// the command-line flags for options {flag: value}; unknown options are refused here, values
// are the command's to check (its one-line error is shown)
function flagsFor(command, options) {
  const byFlag = {};
  for (const field of fields(command))
    byFlag[field.flag] = field;
  const args = [];
  for (const key of Object.keys(options || {})) {
    const field = byFlag[key];
    if (!field)
      throw new Error(`${command} has no option "${key}" here; its options: ${Object.keys(byFlag).join(", ")}`);
    let value = options[key];
    if (field.type === "flag") {
      if (value === "true" || value === "false")
        value = value === "true";
      if (typeof value !== "boolean")
        throw new Error(`${key} is a switch: true or false, got ${JSON.stringify(value)}`);
      if (value && field.default !== true)
        args.push("--" + key);
      else if (!value && field.default === true)
        args.push("--" + field.off);
    } else if (value !== null && value !== undefined && value !== "") {
      args.push("--" + key, String(value));
    }
  }
  return args;
}

function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function unescapeXml(text) {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function temporaryFolder() {
  const process = new Process();
  const base = process.getEnv("TMPDIR") || process.getEnv("TEMP") || process.getEnv("TMP") || "/tmp";
  const name = "blockmaze-tiled-" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  const folder = FileInfo.joinPaths(base, name);
  if (!File.makePath(folder))
    throw new Error(`cannot make a temporary folder in ${base}`);
  return folder;
}

// Run blockmaze for request {command, size, options} in folder `here` (where a relative theme
// file is found), writing into a temporary folder, and read its .tmx with Tiled's TMX reader.
// The tile set image is copied to tilesFile(tilesetName) so it outlives the temporary folder.
// Throws the command's one-line error.
function generated(request, tilesFile, here) {
  const command = commandOf(request.command);
  if (!request.size)
    throw new Error('the size is missing, e.g. "size": "40x60" (rows x columns)');
  const folder = temporaryFolder();
  try {
    const output = FileInfo.joinPaths(folder, "map.tmx");
    const args = MANIFEST.run.slice(1).concat(
      [command, String(request.size)], flagsFor(command, request.options), ["-o", output]);
    const process = new Process();
    process.workingDirectory = here;
    const code = process.exec(MANIFEST.run[0], args, false);
    if (code !== 0) {
      const lines = process.readStdErr().split(/\r?\n/).filter(line => line.trim());
      throw new Error(lines.length ? lines[lines.length - 1]
        : `could not run ${MANIFEST.run[0]} (exit code ${code}); write the extension again with: blockmaze plugin tiled`);
    }
    // Tiled 1.8 keeps a map's tile sets read-only in scripts, so the map is pointed at the
    // image's lasting place before Tiled reads it
    let text = readText(output);
    const name = /<tileset [^>]*name="([^"]*)"/.exec(text);
    const image = tilesFile(name ? unescapeXml(name[1]) : "tiles");
    if (File.exists(image))
      File.remove(image);
    File.copy(FileInfo.joinPaths(folder, "map-tiles.png"), image);
    text = text.replace('<image source="map-tiles.png"', `<image source="${escapeXml(image)}"`);
    const placed = FileInfo.joinPaths(folder, "placed.tmx");
    const file = new TextFile(placed, TextFile.WriteOnly);
    file.write(text);
    file.commit();  // (and closes it)
    return tiled.mapFormat("tmx").read(placed);
  } finally {
    File.remove(folder);
  }
}

function topLayer(map, name, isKind) {
  for (const layer of map.layers)
    if (layer.name === name && isKind(layer))
      return layer;
  return null;
}

// Copy `made`'s tile layer `name` into the map's (made or reused, grown to the map, tiles past
// the level cleared), with the tiles of `tileset`; the layer, or null if `made` has none.
function copyTiles(map, made, name, tileset) {
  const from = topLayer(made, name, l => l.isTileLayer);
  if (!from)
    return null;
  let layer = topLayer(map, name, l => l.isTileLayer);
  if (!layer) {
    layer = new TileLayer(name);
    layer.width = map.width;
    layer.height = map.height;
    map.addLayer(layer);
  } else if (layer.width < map.width || layer.height < map.height) {
    layer.width = Math.max(layer.width, map.width);
    layer.height = Math.max(layer.height, map.height);
  }
  const edit = layer.edit();
  for (let y = 0; y < layer.height; ++y) {
    for (let x = 0; x < layer.width; ++x) {
      const tile = x < made.width && y < made.height ? from.tileAt(x, y) : null;
      edit.setTile(x, y, tile ? tileset.tile(tile.id) : null);
    }
  }
  edit.apply();
  return layer;
}

// Make the generated map `made` into `map`: its tile set (reused if the map has it), the tile
// layers "maze" and "terrain" (made or reused; tiles past the level cleared; the terrain half a
// tile off, as blockmaze writes it) and the object layer "entities"
// (its objects replaced by the level's starts, goals, doors, stairs and spawns). The map grows
// if the level is larger. Call it inside map.macro for one undo step.
function makeInto(map, made, line) {
  const madeTileset = made.tilesets[0];
  let tileset = null;
  for (const existing of map.tilesets)
    if (existing.name === madeTileset.name && existing.image === madeTileset.image)
      tileset = existing;
  if (!tileset) {
    map.addTileset(madeTileset);
    tileset = madeTileset;
  }
  if (map.width < made.width)
    map.width = made.width;
  if (map.height < made.height)
    map.height = made.height;

  copyTiles(map, made, TILE_LAYER, tileset);
  // the terrain (Tiled's Terrain Brush repaints it): its tiles' corners on the blocks' centres
  const terrain = copyTiles(map, made, TERRAIN_LAYER, tileset);
  if (terrain)
    terrain.offset = Qt.point(map.tileWidth / 2, map.tileHeight / 2);

  let group = topLayer(map, OBJECT_LAYER, l => l.isObjectLayer);
  if (!group) {
    group = new ObjectGroup(OBJECT_LAYER);
    map.addLayer(group);
  }
  for (let i = group.objectCount - 1; i >= 0; --i)
    group.removeObjectAt(i);
  const sx = map.tileWidth / made.tileWidth, sy = map.tileHeight / made.tileHeight;
  const objects = topLayer(made, OBJECT_LAYER, l => l.isObjectLayer);
  for (const source of objects ? objects.objects : []) {
    const object = new MapObject(source.name);
    object.type = source.type;
    object.x = source.x * sx;
    object.y = source.y * sy;
    object.width = source.width * sx;
    object.height = source.height * sy;
    object.setProperties(source.properties());
    group.addObject(object);
  }
  map.setProperty("blockmaze", line);
}

// the size that fits a map: rows x columns of cells, each two tiles and a wall
function fittingSize(map) {
  return `${Math.max(1, Math.floor((map.height - 1) / 2))}x${Math.max(1, Math.floor((map.width - 1) / 2))}`;
}

// "dungeon 20x30 --style bsp --seed 3 --lock --no-floor" as a request
function parseLine(line, map) {
  const words = line.trim().split(/\s+/);
  const request = {command: words.shift(), size: null, options: {}};
  const command = commandOf(request.command);
  const switches = {}, offs = {};
  for (const field of fields(command)) {
    switches[field.flag] = field.type === "flag";
    if (field.type === "flag")
      offs[field.off] = field.flag;
  }
  while (words.length) {
    const word = words.shift();
    if (/^\d+(x\d+){0,2}$/.test(word)) {
      request.size = word;
      continue;
    }
    const match = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(word);
    if (!match)
      throw new Error(`expected a size (20x30) or an option (--seed 3), got ${JSON.stringify(word)}`);
    let name = match[1];
    if (switches[name] === undefined && offs[name] !== undefined) {
      request.options[offs[name]] = false;
      continue;
    }
    if (switches[name]) {
      request.options[name] = match[2] === undefined ? true : match[2];
      continue;
    }
    if (match[2] !== undefined) {
      request.options[name] = match[2];
    } else {
      if (!words.length)
        throw new Error(`--${name} needs a value`);
      request.options[name] = words.shift();
    }
  }
  request.size = request.size || fittingSize(map);
  return request;
}

// the prompt's text: the commands and their options, from the manifest's forms
function promptLabel() {
  const lines = ["A command, an optional size (rows x columns; by default the map's) and options,",
                 "e.g.  dungeon --style bsp --seed 3 --spawns 8:4:2 --lock", ""];
  for (const [name, command] of [["dungeon", "dungeon"], ["maze", "generate"]]) {
    const shown = fields(command).map(f => {
      if (f.type === "flag")
        return "--" + (f.default === true ? f.off : f.flag);
      if (f.type === "choice" && f.choices.length <= 8)
        return `--${f.flag} ${f.choices.join("|")}`;
      return `--${f.flag} ${f.default === null ? "VALUE" : f.default}`;
    });
    lines.push(`${name}: ${shown.join("  ")}`);
  }
  return lines.join("\n");
}

// where a tile set image lasts: beside a .blockmaze file as <name>-tiles.png, as blockmaze
// names a map's; beside a map the level is made into, one per theme (maps in a folder share it)
function besideRequest(fileName) {
  return () => FileInfo.joinPaths(FileInfo.path(fileName), FileInfo.completeBaseName(fileName) + "-tiles.png");
}

function besideMap(fileName) {
  return theme => FileInfo.joinPaths(FileInfo.path(fileName),
    "blockmaze-" + String(theme).replace(/[^A-Za-z0-9_-]/g, "_") + "-tiles.png");
}

function readRequest(fileName) {
  const text = readText(fileName);
  let request;
  try {
    request = JSON.parse(text);
  } catch (error) {
    throw new Error(`${FileInfo.fileName(fileName)} is not JSON: ${message(error)}`);
  }
  if (request === null || typeof request !== "object" || Array.isArray(request))
    throw new Error(`${FileInfo.fileName(fileName)} holds no request: {"command": "dungeon", "size": "40x60", "options": {}}`);
  return request;
}

tiled.registerMapFormat("blockmaze", {
  name: "blockmaze maze or dungeon",
  extension: "blockmaze",
  read: function (fileName) {
    try {
      fileName = FileInfo.canonicalPath(fileName);  // (the command line's may be relative)
      const request = readRequest(fileName);
      if (!request.into)
        return generated(request, besideRequest(fileName), FileInfo.path(fileName));
      const intoFile = FileInfo.isAbsolutePath(request.into) ? request.into
        : FileInfo.joinPaths(FileInfo.path(fileName), request.into);
      const format = tiled.mapFormatForFile(intoFile);
      if (!format)
        throw new Error(`${request.into}: not a map Tiled reads`);
      const map = format.read(intoFile);
      request.size = request.size || fittingSize(map);
      const made = generated(request, besideMap(intoFile), FileInfo.path(fileName));
      map.macro("Make a blockmaze " + request.command, () => makeInto(map, made, JSON.stringify(request)));
      return map;
    } catch (error) {
      throw new Error(message(error));
    }
  },
});

const action = tiled.registerAction("BlockmazeMake", function () {
  const map = tiled.activeAsset;
  if (!map || !map.isTileMap) {
    tiled.alert("Open a map first: blockmaze makes its maze or dungeon into the open map.", TITLE);
    return;
  }
  if (!map.fileName) {
    tiled.alert("Save the map first: blockmaze writes its tile set image beside it.", TITLE);
    return;
  }
  const last = map.property("blockmaze");
  const line = tiled.prompt(promptLabel(), typeof last === "string" && !last.startsWith("{") ? last
    : "dungeon --style rooms-and-mazes", "Make a blockmaze maze or dungeon");
  if (!line || !line.trim())
    return;
  try {
    const request = parseLine(line, map);
    const made = generated(request, besideMap(map.fileName), FileInfo.path(map.fileName));
    map.macro("Make a blockmaze " + request.command, () => makeInto(map, made, line.trim()));
  } catch (error) {
    tiled.alert(message(error), TITLE);
  }
});
action.text = "Make a blockmaze maze or dungeon\u2026";
tiled.extendMenu("Map", [{separator: true}, {action: "BlockmazeMake"}]);
