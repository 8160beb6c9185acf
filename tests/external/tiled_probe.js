// A test's probe inside Tiled's window (tests/test_host_tiled.py): when the map Tiled was started
// with is active, it triggers the blockmaze action once per line of LINES (its prompt answered
// with the line, its alerts kept), writes the map after each run and after an undo, and reports.
// The test puts `const OUT = "..."; const LINES = [...];` before this text.
/* global tiled, TextFile, OUT, LINES */
"use strict";

const real = tiled;
const seen = {prompts: [], alerts: [], modified: [], error: null};

// the extension's tiled.prompt and tiled.alert answer here; everything else is Tiled's
this.tiled = new Proxy(real, {
  get(target, name) {
    if (name === "prompt")
      return (label, text, title) => {
        seen.prompts.push({label, text, title});
        return LINES[seen.prompts.length - 1];
      };
    if (name === "alert")
      return text => { seen.alerts.push(text); };
    const value = target[name];
    return typeof value === "function" ? value.bind(target) : value;
  },
});

let started = false;
real.activeAssetChanged.connect(function (map) {
  if (started || !map || !map.isTileMap)
    return;
  started = true;
  try {
    const tmx = real.mapFormat("tmx");
    for (let i = 0; i < LINES.length; ++i) {
      real.trigger("BlockmazeMake");
      seen.modified.push(map.modified);
      tmx.write(map, `${OUT}/run-${i}.tmx`);
      map.undo();
      seen.modified.push(map.modified);
      tmx.write(map, `${OUT}/undone-${i}.tmx`);
    }
  } catch (error) {
    seen.error = String(error);
  }
  const file = new TextFile(`${OUT}/report.json`, TextFile.WriteOnly);
  file.write(JSON.stringify(seen));
  file.commit();
});
