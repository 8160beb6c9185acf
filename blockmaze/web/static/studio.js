// blockmaze studio: the form (built from the commands' own description: only the options that
// apply to the command, grid, mode and format chosen), the picture of every level, the carve
// replayed, the 3-D preview of our own GLB and the downloads. Every file comes from /api/...,
// which writes exactly what the command line writes for the same options.

// three.js loads while the form is built: the page never waits for it to show the form
const threeReady = Promise.all([
  import("three"),
  import("/static/vendor/three/examples/jsm/loaders/GLTFLoader.js"),
  import("/static/vendor/three/examples/jsm/controls/OrbitControls.js"),
]);

const $ = (id) => document.getElementById(id);
// shown first; every other option that applies sits under "More options"
const MAIN = ["grid", "algorithm", "mode", "ordering", "style", "seed", "braid", "entrances",
  "solution", "wall", "passage", "height", "roof", "lights", "theme", "mc-version",
  "picture-style", "shade", "levels", "room-size", "spawns", "lock"];
const DEFAULT_FORMAT = { generate: "png", blockwise: "schem", dungeon: "schem" };
const studio = window.studio = { options: null, formats: [], mask: null, renders: 0,
  pictures: 0, glbMs: null, pictureMs: null, carve: null, settled: false, errors: [],
  levels: { count: 0, index: 0 }, formReadyMs: null };

function status(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function command() { return $("command").value; }
function sizeParts() { return $("size").value.trim().split(/x/i).map(Number).filter((n) => n > 0); }
function solid3d() { return command() === "blockwise" && sizeParts().length === 3; }
// a generated maze may leave its size out: a labyrinth's comes from its design, a maze's from
// its mask; a labyrinth is drawn, not carved, so it has no carve to replay
function sizedElsewhere() {
  return command() === "generate" && (valueOf("grid", "square") === "labyrinth" || !!studio.mask);
}
// a labyrinth's size is its circuits (or its design's): a size of rows and columns is set aside
// while one is chosen, and comes back when the command or grid needs a size again
let setAside = "";
function fitSize() {
  const size = $("size").value.trim();
  if (command() === "generate" && valueOf("grid", "square") === "labyrinth") {
    if (/x/i.test(size)) { setAside = size; $("size").value = ""; }
  } else if (!size && !sizedElsewhere()) {  // (none set aside: the page's first size)
    $("size").value = setAside || $("size").defaultValue;
    setAside = "";
  }
}
// the status line of a job done: its command, size (or grid) and seed
function jobLine() {
  return `${command()} ${$("size").value.trim() || valueOf("grid", "")}, seed ${valueOf("seed", "drawn")}`;
}
function carved() { return command() === "generate" && valueOf("grid", "square") !== "labyrinth"; }
function formatNamed(name) { return studio.formats.find((f) => f.name === name); }
function valueOf(flag, fallback) { return $("opt-" + flag)?.value || fallback; }

// the formats the command can write for this size (a 3-D blockwise maze has no plan; only a
// generated maze is a graph that pictures and maze documents draw, and pictures draw dungeons)
function formatsOffered() {
  return studio.formats.filter((f) => !(command() !== "generate" && f.source === "maze"
    && !(command() === "dungeon" && f.dungeons)) && !(solid3d() && f.source === "plan"));
}

// whether an option applies to the chosen command, grid, mode and the output ``format`` (none:
// to any format): the server's verdicts (studio.verdicts, from its own rule), looked up
function applies(option, format) {
  return !(studio.verdicts[command()][caseKey(format ? format.name : "*")] || []).includes(option.flag);
}

// the key of the case the form is in, as the server's verdicts name it (web/jobs.case_key)
function caseKey(format) {
  if (command() === "generate") return `${format}|${valueOf("grid", "square")}|${$("opt-unicursal")?.checked ? 1 : 0}`;
  if (command() === "blockwise") return `${format}|${valueOf("mode", "strict")}|${solid3d() ? 1 : 0}`;
  return format;
}

function control(option, value) {
  const id = "opt-" + option.flag;
  let input;
  if (option.type === "flag") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = value === undefined ? !!option.default : ["1", "true", "on"].includes(value);
  } else if (option.type === "choice") {
    input = document.createElement("select");
    for (const choice of option.choices) input.add(new Option(choice, choice));
    input.value = value ?? option.default ?? option.choices[0];
    if (input.selectedIndex < 0) input.selectedIndex = 0;
  } else {
    input = document.createElement("input");
    input.value = value ?? (option.default ?? "");
    input.autocomplete = "off";
  }
  input.id = id;
  input.name = option.flag;
  input.dataset.flag = option.flag;
  input.dataset.default = option.type === "flag" ? String(!!option.default) : String(option.default ?? "");
  input.title = option.help;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = option.flag;
  label.title = option.help;
  input.row = [label, input];
  input.option = option;
  return [label, input];
}

function buildForm(params) {
  const form = $("options");
  form.replaceChildren();
  // the output format first: it decides which options apply
  const formatLabel = document.createElement("label");
  formatLabel.htmlFor = "format"; formatLabel.textContent = "format";
  const format = document.createElement("select");
  format.id = "format";
  fillFormats(format, params.get("format") ?? DEFAULT_FORMAT[command()]);
  format.title = "the file the Download button writes (the views show every level either way)";
  format.addEventListener("change", () => { refresh(); downloads(); remember(); });
  form.append(formatLabel, format);

  const more = document.createElement("details");
  more.innerHTML = "<summary>More options</summary>";
  const moreBox = document.createElement("div");
  more.append(moreBox);
  for (const option of studio.options[command()]) {
    const [label, input] = control(option, params.get(option.flag) ?? undefined);
    input.addEventListener("change", ["grid", "mode", "unicursal"].includes(option.flag)
      ? () => { fitSize(); refresh(); update(); } : update);
    (MAIN.includes(option.flag) ? form : moreBox).append(label, input);
    if (option.flag === "seed") {
      const dice = document.createElement("button");
      dice.type = "button"; dice.id = "dice"; dice.textContent = "new seed (dice)";
      dice.addEventListener("click", () => { input.value = randomSeed(); update(); });
      const gap = document.createElement("span");
      input.row.push(gap, dice);
      form.append(gap, dice);
    }
  }
  if (command() === "generate") {
    const [label, input] = [document.createElement("label"), document.createElement("input")];
    label.textContent = "mask"; label.htmlFor = input.id = "mask";
    input.type = "file"; input.accept = ".png,.gif,.bmp,.txt,image/*,text/plain";
    input.addEventListener("change", async () => {
      studio.mask = input.files.length ? await input.files[0].arrayBuffer() : null;
      update();
    });
    form.append(label, input);
  }
  form.append(more);
  const seed = $("opt-seed");
  if (seed && !seed.value) seed.value = randomSeed();
  refresh();
}

// the formats offered for this command and size, ``wanted`` chosen if it is one of them
function fillFormats(select, wanted) {
  const offered = formatsOffered();
  select.replaceChildren(...offered.map((f) => new Option(`${f.name} (${f.suffix})`, f.name)));
  select.value = offered.some((f) => f.name === wanted) ? wanted : offered[0].name;
}

// show the options that apply to the command, grid, mode and format chosen; hide the others
function refresh() {
  const chosen = formatNamed($("format")?.value);
  for (const input of $("options").querySelectorAll("[data-flag]")) {
    const shown = applies(input.option, chosen);
    for (const element of input.row) element.hidden = !shown;
  }
}

function randomSeed() { return String(Math.floor(Math.random() * 1e9)); }

// the size and the settings that differ from the command's defaults and apply to ``format``
// (a format name; none: every option that applies to the command at all)
function settings(format) {
  const query = new URLSearchParams({ size: $("size").value.trim() });
  const target = format ? formatNamed(format) : null;
  for (const input of $("options").querySelectorAll("[data-flag]")) {
    if (!applies(input.option, target)) continue;
    const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (value === input.dataset.default || (value === "" && input.type !== "checkbox")) continue;
    query.set(input.dataset.flag, input.type === "checkbox" ? (input.checked ? "1" : "0") : value);
  }
  if (format) query.set("format", format);
  return query;
}

// the page's address: everything needed to bring this maze back
function remember() {
  const state = settings(null);
  state.set("command", command());
  const format = $("format")?.value;
  if (format && format !== DEFAULT_FORMAT[command()]) state.set("format", format);
  history.replaceState(null, "", "?" + state);
  $("share").href = location.href;
}

async function call(path, query) {
  const init = studio.mask && command() === "generate" ? { method: "POST", body: studio.mask } : {};
  let answer;
  try {
    answer = await fetch(`${path}?${query}`, init);
  } catch (error) {
    throw new Error("the studio server does not answer (is blockmaze serve still running?)");
  }
  if (!answer.ok) {
    const text = await answer.text();
    let message = text.split("\n")[0];
    try { message = JSON.parse(text).error; } catch (e) { /* not JSON */ }
    throw new Error(message || `the server answered ${answer.status}`);
  }
  return answer;
}

// a view is busy (spinner), done, or shows its one-line problem
function busy(figure, on) { $(figure).classList.toggle("busy", on); }
function problem(figure, message) {
  const line = $(figure).querySelector(".problem");
  line.hidden = !message;
  line.textContent = message || "";
}

// empty a view whose maze could not be made
function clear(figure) {
  if (figure === "picture-view") {
    shown.levels = [];
    studio.levels = { count: 0, index: 0 };
    $("levels").hidden = $("cut-label").hidden = true;
    $("picture").width = $("picture").height = 0;
    $("picture").style.width = $("picture").style.height = "0";
  } else if (figure === "carve-view") {
    animation.record = null;
    const canvas = $("carve");
    canvas.getContext("2d").setTransform(1, 0, 0, 1, 0, 0);
    canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
    $("step").textContent = "";
  } else if (view.model) {
    view.scene.remove(view.model);
    view.model = view.bounds = null;
    render();
  }
}

let generation = 0;
async function update() {
  const mine = ++generation;
  studio.settled = false;  // true again once this update's views are all shown (or refused)
  studio.errors = [];
  if (walking.on) stopWalking();
  remember();
  downloads();
  if (!$("size").value.trim() && !sizedElsewhere()) {
    for (const figure of ["picture-view", "carve-view", "three-view"]) {
      busy(figure, false);
      clear(figure);  // the last maze is not this one: none is shown
    }
    studio.settled = true;
    return status("size is required, e.g. 20x30", true);
  }
  status("working…");
  $("carve-view").hidden = !carved();
  const views = [["picture-view", picture], ["carve-view", carve], ["three-view", preview]];
  await Promise.all(views.map(async ([figure, draw]) => {
    busy(figure, true);
    problem(figure, "");
    try {
      await draw(mine);
    } catch (error) {
      if (mine === generation) {
        clear(figure);  // no stale maze under the message
        problem(figure, error.message);
        studio.errors.push(error.message);
      }
    }
    if (mine === generation) busy(figure, false);
  }));
  if (mine !== generation) return;
  if (studio.errors.length) status(studio.errors[0], true);
  else status(jobLine()
    + (studio.levels.count > 1 ? `, ${studio.levels.count} levels` : ""));
  studio.settled = true;
}

// ---- the picture: every level, drawn on a canvas ----
const shown = studio.shown = { levels: [] };

async function picture(mine) {
  const started = performance.now();
  let levels;
  if (command() === "generate" && valueOf("grid", "square") !== "layered") {
    const query = settings("png");
    const chosen = $("opt-cell-size");
    if (!chosen || chosen.value.trim() === chosen.dataset.default) {
      // a cell size that fits the view (twice over, for sharp screens), not a huge picture shrunk
      const parts = sizeParts(), box = $("picture-box"), ratio = window.devicePixelRatio || 1;
      const [rows, columns] = valueOf("grid") === "polar" ? [2 * parts[0], 2 * parts[0]]
        : [parts[0] || 1, parts[1] || parts[0] || 1];
      const fits = Math.floor(ratio * Math.min((box.clientWidth || 420) / (columns + 1),
                                               (box.clientHeight || 320) / (rows + 1)));
      query.set("cell-size", String(Math.max(2, Math.min(32, fits))));
    }
    const blob = await (await call(`/api/${command()}`, query)).blob();
    if (mine !== generation) return;
    studio.pictureUrl = URL.createObjectURL(blob);
    levels = [{ name: "maze", image: await createImageBitmap(blob) }];
  } else if (solid3d()) {  // every layer of blocks: from the schematic itself
    const query = settings("schem");
    query.set("schem-version", "2");
    const data = await (await call(`/api/${command()}`, query)).arrayBuffer();
    if (mine !== generation) return;
    levels = layersOfSchematic(await inflate(data, "gzip"));
  } else {  // blocks as tiles: the tile map of every level (several levels come as one zip)
    const answer = await call(`/api/${command()}`, settings("tilemap"));
    const data = await answer.arrayBuffer();
    if (mine !== generation) return;
    const files = answer.headers.get("content-type").startsWith("application/zip")
      ? (await unzip(data)).filter((f) => f.name.endsWith(".json"))
      : [{ name: "maze.tilemap.json", data }];
    files.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
    const text = new TextDecoder();
    levels = files.map((f) => ({ name: f.name, tilemap: JSON.parse(text.decode(f.data)) }));
  }
  if (mine !== generation) return;
  shown.levels = levels;
  studio.levels = { count: levels.length, index: 0 };
  const picker = $("level");
  picker.replaceChildren(...levels.map((_, i) => new Option(`${i + 1} of ${levels.length}`, String(i))));
  $("levels").hidden = levels.length < 2;
  $("cut-label").hidden = levels.length < 2;
  // a solid 3-D maze opens on its first layer with passages in it, cut there in 3-D
  const first = solid3d() ? Math.max(0, levels.findIndex((level) => level.open)) : 0;
  $("cut").checked = solid3d();
  drawLevel(first);
  studio.pictureMs = performance.now() - started;
  studio.pictures += 1;
}

const TILE_COLOURS = { start: "#2fbf5a", goal: "#c62828", key: "#f2c21b", door: "#8b5a2b",
  monster: "#b03a8c", item: "#3a7bd5", treasure: "#f2c21b", spawn: "#b03a8c" };

// one level as a picture the size of its tiles (a pixel a tile), then shown scaled
function levelImage(level) {
  if (level.image) return level.image;
  if (level.canvas) return level.canvas;
  const map = level.tilemap;
  const canvas = document.createElement("canvas");
  canvas.width = map.width; canvas.height = map.height;
  const ctx = canvas.getContext("2d");
  const pixels = ctx.createImageData(map.width, map.height);
  const colours = {};
  for (const [glyph, entry] of Object.entries(map.legend)) colours[glyph] = rgb(entry.color || "#888888");
  map.grid.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      const c = colours[row[x]] || [136, 136, 136];
      pixels.data.set([c[0], c[1], c[2], 255], 4 * (y * map.width + x));
    }
  });
  for (const entity of map.entities || []) {
    const colour = TILE_COLOURS[entity.type];
    if (colour && entity.x < map.width && entity.y < map.height) {
      const c = rgb(colour);
      pixels.data.set([c[0], c[1], c[2], 255], 4 * (entity.y * map.width + entity.x));
    }
  }
  ctx.putImageData(pixels, 0, 0);
  level.canvas = canvas;
  return canvas;
}

function rgb(hex) {
  const n = parseInt(hex.replace("#", "").slice(0, 6), 16);
  return [n >> 16 & 255, n >> 8 & 255, n & 255];
}

// draw level ``index`` scaled to the view: whole multiples of a tile when it grows (crisp, no
// moiré), smoothed when it shrinks
function drawLevel(index) {
  const level = shown.levels[index];
  if (!level) return;
  studio.levels.index = index;
  $("level").value = String(index);
  const image = levelImage(level);
  const canvas = $("picture"), box = $("picture-box");
  const room = [box.clientWidth || 420, box.clientHeight || 320];
  const fit = Math.min(room[0] / image.width, room[1] / image.height);
  const ctx = canvas.getContext("2d");
  if (fit >= 1) {
    const whole = Math.floor(fit);
    canvas.width = image.width; canvas.height = image.height;
    canvas.style.width = `${image.width * whole}px`; canvas.style.height = `${image.height * whole}px`;
    canvas.classList.remove("smooth");
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0);
  } else {
    const scale = fit * (window.devicePixelRatio || 1);
    canvas.width = Math.max(1, Math.round(image.width * scale));
    canvas.height = Math.max(1, Math.round(image.height * scale));
    canvas.style.width = `${Math.round(image.width * fit)}px`;
    canvas.style.height = `${Math.round(image.height * fit)}px`;
    canvas.classList.add("smooth");
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "high";
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  }
  cutPreview();
}

// ---- files in files: a zip's members, a gzip's bytes, a schematic's blocks ----
async function inflate(data, format = "deflate-raw") {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream(format));
  return new Response(stream).arrayBuffer();
}

async function unzip(buffer) {
  const view = new DataView(buffer);
  let end = buffer.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("the server's zip has no directory");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = [], names = new TextDecoder();
  for (let i = 0; i < count; i++) {
    const method = view.getUint16(at + 10, true), packed = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(new Uint8Array(buffer, at + 46, nameLength));
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = buffer.slice(start, start + packed);
    files.push({ name, data: method === 0 ? data : await inflate(data) });
    at += 46 + skip;
  }
  return files;
}

// the named binary tag tree (Minecraft's NBT) in ``buffer``
function readNbt(buffer) {
  const view = new DataView(buffer), text = new TextDecoder();
  let at = 0;
  const name = () => {
    const length = view.getUint16(at); at += 2;
    const value = text.decode(new Uint8Array(buffer, at, length)); at += length;
    return value;
  };
  const payload = (type) => {
    switch (type) {
      case 1: return view.getInt8(at++);
      case 2: at += 2; return view.getInt16(at - 2);
      case 3: at += 4; return view.getInt32(at - 4);
      case 4: at += 8; return Number(view.getBigInt64(at - 8));
      case 5: at += 4; return view.getFloat32(at - 4);
      case 6: at += 8; return view.getFloat64(at - 8);
      case 7: { const n = view.getInt32(at); at += 4 + n; return new Uint8Array(buffer, at - n, n); }
      case 8: return name();
      case 9: {
        const kind = view.getUint8(at), n = view.getInt32(at + 1); at += 5;
        return Array.from({ length: n }, () => payload(kind));
      }
      case 10: {
        const tags = {};
        for (;;) {
          const kind = view.getUint8(at++);
          if (kind === 0) return tags;
          const key = name();
          tags[key] = payload(kind);
        }
      }
      case 11: { const n = view.getInt32(at); at += 4; return Array.from({ length: n }, () => payload(3)); }
      case 12: { const n = view.getInt32(at); at += 4 + 8 * n; return null; }
      default: throw new Error(`the schematic has an unknown tag ${type}`);
    }
  };
  const kind = view.getUint8(at++);
  name();
  return payload(kind);
}

// the theme's entry for a block (its material and colour), by the block's name
function themeBlock(name) {
  const blocks = studio.themes?.[valueOf("theme", "stone-bricks")] ?? {};
  return blocks[name.replace(/\[.*$/, "")];
}

// a block's colour seen from above (null: open), the theme's where it names the block
function blockColour(name) {
  const block = name.replace(/^minecraft:/, "").replace(/\[.*$/, "");
  if (/(^|_)air$/.test(block) || block === "void_air") return null;
  const known = themeBlock(name);
  if (known) return known.material === "air" ? null : known.color;
  if (/emerald|lime|green/.test(block)) return "#2fbf5a";
  if (/redstone|red_/.test(block)) return "#c62828";
  if (/gold|glowstone|lantern|torch|shroomlight|sea_lantern/.test(block)) return "#f2c21b";
  if (/door|trapdoor|fence/.test(block)) return "#8b5a2b";
  if (/scaffolding|ladder/.test(block)) return "#4f86c6";  // a way up or down
  if (/leaves|hedge/.test(block)) return "#3f6f2f";
  if (/water/.test(block)) return "#3a7bd5";
  return "#5b5b5b";
}

// a Sponge schematic (v2) as its horizontal layers of blocks, the lowest first
function layersOfSchematic(buffer) {
  let root = readNbt(buffer);
  root = root.Schematic ?? root;
  const width = root.Width & 0xffff, height = root.Height & 0xffff, length = root.Length & 0xffff;
  const palette = root.Palette ?? root.Blocks?.Palette, data = root.BlockData ?? root.Blocks?.Data;
  const colours = [], open = [];
  for (const [block, index] of Object.entries(palette)) {
    const colour = blockColour(block);
    open[index] = !colour;
    colours[index] = colour ? rgb(colour) : [236, 233, 225];
  }
  const layers = Array.from({ length: height }, () => {
    const canvas = document.createElement("canvas");
    canvas.width = width; canvas.height = length;
    const ctx = canvas.getContext("2d");
    return { ctx, canvas, pixels: ctx.createImageData(width, length) };
  });
  let at = 0;
  const plane = width * length;
  for (let i = 0; i < width * height * length; i++) {
    let value = 0, shift = 0, byte;
    do { byte = data[at++]; value |= (byte & 127) << shift; shift += 7; } while (byte & 128);
    const y = Math.floor(i / plane), c = colours[value] || [136, 136, 136];
    if (open[value]) layers[y].open = true;
    layers[y].pixels.data.set([c[0], c[1], c[2], 255], 4 * (i % plane));
  }
  return layers.map((layer, y) => {
    layer.ctx.putImageData(layer.pixels, 0, 0);
    return { name: `layer ${y + 1}`, canvas: layer.canvas, open: !!layer.open };
  });
}

// ---- walking the maze (walk.js): the volume from the schematic, the camera at the eyes ----
const walking = studio.walk = { walker: null, on: false, last: 0, camera: null, marker: null };
// a walker sees wider than the preview's camera (the game's field of view: 70 degrees)
const WALK_FOV = 70, VIEW_FOV = 45;

async function walk() {
  if (walking.on) return stopWalking();
  if (!view.model) return status("there is no maze to walk: make one first", true);
  const mine = generation;
  const query = settings("schem");
  query.set("schem-version", "2");
  status("loading the blocks to walk on…");
  try {
    const [{ volumeOfSchematic, Walker, cameraSpot }, answer] = await Promise.all([
      import("/static/walk.js"), call(`/api/${command()}`, query)]);
    const root = readNbt(await inflate(await answer.arrayBuffer(), "gzip"));
    if (mine !== generation) return;
    walking.volume = volumeOfSchematic(root.Schematic ?? root, (name) => themeBlock(name)?.material);
    walking.walker = new Walker(walking.volume);
    walking.cameraSpot = cameraSpot;
  } catch (error) {
    return status(error.message, true);
  }
  walking.on = true;
  view.camera.fov = WALK_FOV;
  view.controls.enabled = false;
  view.renderer.clippingPlanes = [];
  $("walk").textContent = "stop walking";
  $("walk").setAttribute("aria-pressed", "true");
  status("walking: W A S D to move, space to jump (or climb), shift to climb down, the mouse to look (click the view), Esc to stop");
  const canvas = view.renderer.domElement;
  canvas.focus();
  try { await canvas.requestPointerLock?.(); } catch (error) { /* looked at with the keys only */ }
  walking.last = performance.now();
}

function stopWalking() {
  walking.on = false;
  if (walking.walker) walking.walker.keys.clear();
  if (document.pointerLockElement) document.exitPointerLock();
  view.controls.enabled = true;
  view.camera.fov = VIEW_FOV;
  $("walker-marker").hidden = true;
  walking.marker = null;
  $("walk").textContent = "walk";
  $("walk").setAttribute("aria-pressed", "false");
  if (view.model) { frameModel(); cutPreview(); }
  status(jobLine());
}

function walkFrame(now) {
  const walker = walking.walker;
  walker.update((now - walking.last) / 1000);
  walking.last = now;
  const low = view.bounds.min;
  // the eyes, drawn back along the passage: a wall walked up to is seen with what is around it
  const [x, y, z] = walking.camera = walking.cameraSpot(walking.volume, walker.position, walker.yaw);
  view.camera.position.set(low.x + x, low.y + y, low.z + z);
  view.camera.rotation.set(walker.pitch, walker.yaw, 0, "YXZ");
  view.camera.near = 0.05;
  view.camera.far = 4 * view.bounds.getSize(new view.THREE.Vector3()).length() + 100;
  view.camera.updateProjectionMatrix();
  render();
  placeMarker();
  const time = walker.time.toFixed(1);
  $("timer").textContent = walker.finished ? `goal in ${time} s` : walker.started !== null ? `${time} s` : "";
}

// the walker in the picture: a dot with an arrow the way it faces, where it stands in the level
// (the picture spans the build: a tile a block, or the maze drawn edge to edge)
function placeMarker() {
  const marker = $("walker-marker"), canvas = $("picture"), volume = walking.volume;
  if (!canvas.width || !canvas.offsetWidth || !volume) { marker.hidden = true; return; }
  const [x, , z] = walking.walker.position;
  const across = Math.min(1, Math.max(0, x / volume.width));
  const down = Math.min(1, Math.max(0, z / volume.length));
  const left = canvas.offsetLeft + across * canvas.offsetWidth;
  const top = canvas.offsetTop + down * canvas.offsetHeight;
  marker.style.left = `${left}px`;
  marker.style.top = `${top}px`;
  marker.style.transform = `rotate(${-walking.walker.yaw}rad)`;  // yaw 0 faces up the picture
  marker.hidden = false;
  walking.marker = { across, down, left, top };
}

const WALK_KEYS = new Set(["KeyW", "KeyA", "KeyS", "KeyD", "Space", "ShiftLeft", "ShiftRight"]);
function walkKeys(event) {
  if (!walking.on || /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName ?? "")) return;
  if (event.code === "Escape" && event.type === "keydown") return stopWalking();
  if (!WALK_KEYS.has(event.code)) return;
  event.preventDefault();
  if (event.type === "keydown") walking.walker.keys.add(event.code);
  else walking.walker.keys.delete(event.code);
}

function walkLook(event) {
  if (!walking.on || document.pointerLockElement !== view.renderer.domElement) return;
  const walker = walking.walker;
  walker.yaw -= event.movementX * 0.0025;
  walker.pitch = Math.max(-1.5, Math.min(1.5, walker.pitch - event.movementY * 0.0025));
}

// ---- the carve, replayed ----
const animation = { record: null, shown: 0, playing: true };

async function carve(mine) {
  const canvas = $("carve");
  if (!carved()) {
    animation.record = null;
    studio.carve = null;
    canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
    $("step").textContent = "";
    return;
  }
  const record = await (await call("/api/carve", settings(null))).json();
  if (mine !== generation) return;
  animation.record = record;
  rewind();
}

// back to the first step: the cells alone, no passage yet
function rewind() {
  const record = animation.record, canvas = $("carve");
  animation.shown = 0;
  animation.solved = 0;
  studio.carve = { total: record.steps.length / 2, shown: 0 };
  $("step").textContent = `0 / ${record.steps.length / 2}`;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const scale = Math.min((canvas.width - 8) / record.width, (canvas.height - 8) / record.height);
  ctx.setTransform(scale, 0, 0, scale, 4, 4);
  ctx.lineCap = "round";
  ctx.lineWidth = 0.5;
  ctx.fillStyle = "#3a463a";
  const c = record.centres;
  for (let i = 0; i < record.enabled.length; i++) {
    if (record.enabled[i]) ctx.fillRect(c[2 * i] - 0.08, c[2 * i + 1] - 0.08, 0.16, 0.16);
  }
}

function frame(now) {
  if (walking.on) walkFrame(now);
  const record = animation.record;
  if (record && animation.playing && animation.shown < record.steps.length / 2) {
    const ctx = $("carve").getContext("2d");
    const total = record.steps.length / 2;
    // speed 60: a 1000-step carve in about 1.7 s at 60 frames a second; larger ones as fast
    const until = Math.min(total, animation.shown + Number($("speed").value) / 10 * Math.max(1, total / 1000));
    const c = record.centres, s = record.steps;
    for (let i = Math.floor(animation.shown); i < Math.floor(until); i++) {
      const a = s[2 * i], b = s[2 * i + 1];
      ctx.strokeStyle = i < record.carved ? `hsl(${40 + 200 * i / total}, 70%, 62%)` : "#ff6b6b";
      ctx.beginPath();
      ctx.moveTo(c[2 * a], c[2 * a + 1]);
      ctx.lineTo(c[2 * b], c[2 * b + 1]);
      ctx.stroke();
    }
    animation.shown = until;
    studio.carve.shown = Math.floor(until);
    $("step").textContent = `${Math.floor(until)} / ${total}`;
  } else if (record && animation.playing && record.solve && record.solve.visits) {
    solverFrame(record);
  }
  requestAnimationFrame(frame);
}

// after the carve, --solve's solver at work: the cells it visited, then the way it found
function solverFrame(record) {
  const solved = record.solve, visits = solved.visits, total = visits.length;
  const done = animation.solved || 0;
  if (done > total) return;
  const ctx = $("carve").getContext("2d"), c = record.centres;
  const until = Math.min(total, done + Number($("speed").value) / 10 * Math.max(1, total / 1000));
  ctx.fillStyle = "rgba(120, 200, 255, 0.55)";
  for (let i = Math.floor(done); i < Math.floor(until); i++) {
    ctx.fillRect(c[2 * visits[i]] - 0.2, c[2 * visits[i] + 1] - 0.2, 0.4, 0.4);
  }
  animation.solved = until;
  studio.solved = { total, shown: Math.floor(until) };
  $("step").textContent = `${solved.method}: ${Math.floor(until)} / ${total} visits`;
  if (until >= total) {
    const path = solved.path;
    ctx.strokeStyle = "#ffd84a";
    ctx.lineWidth = 0.25;
    ctx.beginPath();
    ctx.moveTo(c[2 * path[0]], c[2 * path[0] + 1]);
    for (let i = 1; i < path.length; i++) ctx.lineTo(c[2 * path[i]], c[2 * path[i] + 1]);
    ctx.stroke();
    animation.solved = total + 1;
  }
}

// ---- the 3-D preview, from our own GLB ----
const view = studio.view = {};

async function setUpThree() {
  const [THREE, { GLTFLoader }, { OrbitControls }] = await threeReady;
  view.THREE = THREE;
  const box = $("three");
  view.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  view.renderer.setPixelRatio(window.devicePixelRatio || 1);
  view.renderer.setSize(box.clientWidth, box.clientHeight, false);
  view.renderer.domElement.tabIndex = 0;
  view.renderer.domElement.setAttribute("aria-label", "the maze in 3-D: drag to orbit, wheel to zoom");
  box.prepend(view.renderer.domElement);
  view.scene = new THREE.Scene();
  view.scene.background = new THREE.Color(0xb8d4e8);
  view.scene.add(new THREE.HemisphereLight(0xffffff, 0x556655, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(0.5, 1, 0.3);
  view.scene.add(sun);
  view.camera = new THREE.PerspectiveCamera(45, box.clientWidth / box.clientHeight, 0.1, 100000);
  view.controls = new OrbitControls(view.camera, view.renderer.domElement);
  view.controls.addEventListener("change", render);
  view.renderer.domElement.addEventListener("click", () => {
    if (walking.on && !document.pointerLockElement) view.renderer.domElement.requestPointerLock?.()?.catch?.(() => {});
  });
  view.loader = new GLTFLoader();
  new ResizeObserver(() => {
    const [w, h] = [box.clientWidth, box.clientHeight];
    if (!w || !h) return;
    view.renderer.setSize(w, h, false);
    view.camera.aspect = w / h;
    view.camera.updateProjectionMatrix();
    render();
    if (shown.levels.length) drawLevel(studio.levels.index);
  }).observe(box);
}

function render() {
  if (!view.renderer) return;
  view.renderer.render(view.scene, view.camera);
  studio.renders += 1;
}

async function preview(mine) {
  const started = performance.now();
  const query = settings("glb"); query.set("raw-mesh", "1");  // for the eye only
  const [answer] = await Promise.all([call(`/api/${command()}`, query), view.ready]);
  const data = await answer.arrayBuffer();
  if (mine !== generation) return;
  const fetched = performance.now();
  const gltf = await view.loader.parseAsync(data, "");
  if (mine !== generation) return;
  studio.glbSteps = { fetch: fetched - started, parse: performance.now() - fetched };
  if (view.model) {
    view.scene.remove(view.model);
    view.model.traverse((o) => { o.geometry?.dispose(); o.material?.dispose?.(); });
  }
  view.model = gltf.scene;
  view.scene.add(view.model);
  frameModel();
  const drawn = performance.now();
  cutPreview();
  studio.glbSteps.render = performance.now() - drawn;
  studio.glbMs = performance.now() - started;
}

// the camera fitted to the whole build: its bounding sphere fills the view
function frameModel() {
  const THREE = view.THREE;
  view.bounds = new THREE.Box3().setFromObject(view.model);
  const sphere = view.bounds.getBoundingSphere(new THREE.Sphere());
  const fov = THREE.MathUtils.degToRad(view.camera.fov);
  const across = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * view.camera.aspect));
  const distance = sphere.radius / Math.sin(across / 2) * 1.02;
  view.controls.target.copy(sphere.center);
  view.camera.position.copy(sphere.center)
    .add(new THREE.Vector3(0.35, 0.8, 0.6).normalize().multiplyScalar(distance));
  view.camera.near = Math.max(distance / 1000, distance - 2 * sphere.radius);
  view.camera.far = distance + 4 * sphere.radius;
  view.camera.updateProjectionMatrix();
  view.controls.update();
}

// with "cut above the level": the 3-D view shows the chosen level and those below it
function cutPreview() {
  if (!view.renderer || !view.bounds) return;
  const THREE = view.THREE, count = studio.levels.count;
  const planes = [];
  if ($("cut").checked && count > 1) {
    // levels are stacked upwards, but a dungeon's go down: its first level is the top one
    const low = view.bounds.min.y, step = (view.bounds.max.y - low) / count;
    const slot = command() === "dungeon" ? count - 1 - studio.levels.index : studio.levels.index;
    planes.push(new THREE.Plane(new THREE.Vector3(0, -1, 0), low + step * (slot + 1) - 1e-3));
  }
  view.renderer.clippingPlanes = planes;
  // a cut solid shows its inside faces, so walls and whole layers read as filled, not hollow
  view.model?.traverse((o) => {
    for (const material of [o.material ?? []].flat()) {
      const side = planes.length ? THREE.DoubleSide : THREE.FrontSide;
      if (material.side !== side) { material.side = side; material.needsUpdate = true; }
    }
  });
  render();
}

// ---- downloads: every format the command writes for this size ----
function downloads() {
  const box = $("download-buttons");
  box.replaceChildren();
  for (const format of formatsOffered()) {
    const query = settings(format.name);
    const link = document.createElement("a");
    link.href = `/api/${command()}?${query}`;
    link.download = "";  // the server's name: dungeon-20x30-seed7.schem (.zip with companions)
    link.textContent = format.name === "maze" ? "maze document (.json)" : format.name;
    link.title = format.summary;
    link.dataset.format = format.name;
    if (format.name === $("format")?.value) link.classList.add("chosen");
    link.addEventListener("click", async (event) => {
      event.preventDefault();  // fetched first: a refusal is a line in the page, not a file
      status(`preparing ${format.name}…`);
      try {
        const answer = await call(`/api/${command()}`, query);
        const disposition = answer.headers.get("content-disposition") || "";
        const name = (/filename="([^"]+)"/.exec(disposition) || [])[1] || "maze" + format.suffix;
        const save = document.createElement("a");
        save.href = URL.createObjectURL(await answer.blob()); save.download = name; save.click();
        setTimeout(() => URL.revokeObjectURL(save.href), 60000);
        status(`downloaded ${name}`);
      } catch (error) { status(error.message, true); }
    });
    box.append(link);
  }
}

async function start() {
  const params = new URLSearchParams(location.search);
  if (params.get("command")) $("command").value = params.get("command");
  if (params.has("size")) $("size").value = params.get("size");  // (empty: sized elsewhere)
  view.ready = setUpThree();
  view.ready.catch((error) => problem("three-view", `the 3-D view cannot start: ${error.message}`));
  let described;
  try {
    described = await (window.studioDescription || fetch("/api/options").then((r) => r.json()));
  } catch (error) {
    studio.settled = true;
    return status("the studio server does not answer (is blockmaze serve still running?)", true);
  }
  studio.options = described.commands;
  studio.formats = described.formats;
  studio.verdicts = described.verdicts;
  studio.themes = described.themes;
  buildForm(params);
  studio.formReadyMs = performance.now();
  $("command").addEventListener("change", () => {
    buildForm(new URLSearchParams());
    fitSize();
    update();
  });
  $("size").addEventListener("change", () => {  // a 3-D blockwise size has no tile maps
    fillFormats($("format"), $("format").value);
    refresh();
    update();
  });
  $("make").addEventListener("click", update);
  $("level").addEventListener("change", () => drawLevel(Number($("level").value)));
  $("cut").addEventListener("change", cutPreview);
  $("walk").addEventListener("click", walk);
  window.addEventListener("keydown", walkKeys);
  window.addEventListener("keyup", walkKeys);
  document.addEventListener("mousemove", walkLook);
  document.addEventListener("pointerlockchange", () => {
    if (walking.on && !document.pointerLockElement) walking.walker.keys.clear();
  });
  $("play").addEventListener("click", () => {
    animation.playing = !animation.playing;
    $("play").textContent = animation.playing ? "pause" : "play";
    if (animation.playing && animation.record && animation.shown >= animation.record.steps.length / 2) {
      rewind();  // finished: play it again
    }
  });
  requestAnimationFrame(frame);
  await update();
}

start();
