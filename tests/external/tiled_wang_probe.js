// A test's probe inside Tiled (tests/test_terrain_sets.py): a map format "wangprobe" whose writer
// reports what Tiled itself read from a map: each tile set's Wang sets (type, colour names and
// every tile's Wang id, from Tiled's own WangSet API) and each tile layer's offset and tile ids.
// `tiled --export-map wangprobe map.tmx out.wangprobe` runs it headless.
/* global tiled, TextFile */
"use strict";

tiled.registerMapFormat("wangprobe", {
  name: "Wang set probe",
  extension: "wangprobe",
  write(map, fileName) {
    const report = {tilesets: [], layers: []};
    for (const tileset of map.tilesets) {
      const wangsets = [];
      for (const set of tileset.wangSets) {
        const colors = [];
        for (let index = 1; index <= set.colorCount; ++index)
          colors.push(set.colorName(index));
        const ids = {};
        for (const tile of tileset.tiles)
          ids[tile.id] = set.wangId(tile);
        wangsets.push({name: set.name, type: set.type, colors, ids});
      }
      report.tilesets.push({name: tileset.name, wangsets});
    }
    for (const layer of map.layers) {
      if (!layer.isTileLayer)
        continue;
      const rows = [];
      for (let y = 0; y < layer.height; ++y) {
        const row = [];
        for (let x = 0; x < layer.width; ++x) {
          const tile = layer.tileAt(x, y);
          row.push(tile ? tile.id : -1);
        }
        rows.push(row);
      }
      report.layers.push({name: layer.name, offset: [layer.offset.x, layer.offset.y], tiles: rows});
    }
    const file = new TextFile(fileName, TextFile.WriteOnly);
    file.write(JSON.stringify(report));
    file.commit();
  },
});
