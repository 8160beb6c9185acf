// blockmaze studio: the form (built from the commands' own options), the picture, the carve
// replayed, the 3-D preview of our own GLB and the downloads. Every file comes from /api/...,
// which writes exactly what the command line writes for the same options.
import * as THREE from "three";
import { GLTFLoader } from "/static/vendor/three/examples/jsm/loaders/GLTFLoader.js";
import { OrbitControls } from "/static/vendor/three/examples/jsm/controls/OrbitControls.js";

const $ = (id) => document.getElementById(id);
// shown first; every other option of the command sits under "More options"
const MAIN = ["grid", "algorithm", "mode", "ordering", "style", "seed", "braid", "entrances",
  "solution", "wall", "passage", "height", "roof", "lights", "theme", "mc-version",
  "picture-style", "shade", "levels", "room-size", "spawns", "lock"];
const studio = window.studio = { options: null, formats: [], mask: null, renders: 0,
  pictures: 0, glbMs: null, pictureMs: null, carve: null };

function status(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function command() { return $("command").value; }

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
  } else {
    input = document.createElement("input");
    input.value = value ?? (option.default ?? "");
  }
  input.id = id;
  input.dataset.flag = option.flag;
  input.dataset.default = option.type === "flag" ? String(!!option.default) : String(option.default ?? "");
  input.title = option.help;
  input.addEventListener("change", update);
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = option.flag;
  label.title = option.help;
  return [label, input];
}

function buildForm(params) {
  const form = $("options");
  form.replaceChildren();
  const more = document.createElement("details");
  more.innerHTML = "<summary>More options</summary>";
  const moreBox = document.createElement("div");
  more.append(moreBox);
  for (const option of studio.options[command()]) {
    const [label, input] = control(option, params.get(option.flag) ?? undefined);
    (MAIN.includes(option.flag) ? form : moreBox).append(label, input);
    if (option.flag === "seed") {
      const dice = document.createElement("button");
      dice.type = "button"; dice.id = "dice"; dice.textContent = "new seed (dice)";
      dice.addEventListener("click", () => { input.value = randomSeed(); update(); });
      form.append(document.createElement("span"), dice);
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
}

function randomSeed() { return String(Math.floor(Math.random() * 1e9)); }

// the settings that differ from the command's defaults, plus size and seed: the shareable state
function settings() {
  const query = new URLSearchParams({ size: $("size").value.trim() });
  for (const input of $("options").querySelectorAll("[data-flag]")) {
    const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (value === input.dataset.default || (value === "" && input.type !== "checkbox")) continue;
    query.set(input.dataset.flag, input.type === "checkbox" ? (input.checked ? "1" : "0") : value);
  }
  return query;
}

async function call(path, query) {
  const init = studio.mask && command() === "generate" ? { method: "POST", body: studio.mask } : {};
  const answer = await fetch(`${path}?${query}`, init);
  if (!answer.ok) {
    const text = await answer.text();
    let message = text;
    try { message = JSON.parse(text).error; } catch (e) { /* not JSON */ }
    throw new Error(message);
  }
  return answer;
}

let generation = 0;
async function update() {
  const mine = ++generation;
  studio.settled = false;  // true again once this update's views are all shown (or refused)
  const query = settings();
  if (!query.get("size")) {
    studio.settled = true;
    return status("size is required, e.g. 20x30", true);
  }
  const state = new URLSearchParams(query);
  state.set("command", command());
  history.replaceState(null, "", "?" + state);
  $("share").href = location.href;
  status("working…");
  downloads(query);
  try {
    await Promise.all([picture(query, mine), carve(query, mine), preview(query, mine)]);
    if (mine === generation) status(`${command()} ${query.get("size")}, seed ${query.get("seed") ?? "drawn"}`);
  } catch (error) {
    if (mine === generation) status(error.message, true);
  }
  if (mine === generation) studio.settled = true;
}

async function picture(query, mine) {
  const started = performance.now();
  if (command() === "generate") {
    const q = new URLSearchParams(query); q.set("format", "png");
    const blob = await (await call(`/api/${command()}`, q)).blob();
    if (mine !== generation) return;
    const img = $("picture");
    await new Promise((resolve) => { img.onload = resolve; img.src = URL.createObjectURL(blob); });
    $("plan").textContent = ""; img.hidden = false;
  } else {  // blocks, not a graph: their plan as the text map
    const q = new URLSearchParams(query); q.set("format", "ascii");
    const text = await (await call(`/api/${command()}`, q)).text();
    if (mine !== generation) return;
    $("picture").hidden = true;
    $("plan").textContent = text;
  }
  studio.pictureMs = performance.now() - started;
  studio.pictures += 1;
}

// ---- the carve, replayed ----
const animation = { record: null, shown: 0, playing: true };

async function carve(query, mine) {
  const canvas = $("carve");
  if (command() !== "generate") {
    animation.record = null;
    canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
    return;
  }
  const record = await (await call("/api/carve", query)).json();
  if (mine !== generation) return;
  animation.record = record;
  rewind();
}

// back to the first step: the cells alone, no passage yet
function rewind() {
  const record = animation.record, canvas = $("carve");
  animation.shown = 0;
  studio.carve = { total: record.steps.length / 2, shown: 0 };
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

function frame() {
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
  }
  requestAnimationFrame(frame);
}

// ---- the 3-D preview, from our own GLB ----
const view = {};

function setUpThree() {
  const box = $("three");
  view.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  view.renderer.setSize(box.clientWidth, box.clientHeight);
  box.append(view.renderer.domElement);
  view.scene = new THREE.Scene();
  view.scene.background = new THREE.Color(0xb8d4e8);
  view.scene.add(new THREE.HemisphereLight(0xffffff, 0x556655, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(0.5, 1, 0.3);
  view.scene.add(sun);
  view.camera = new THREE.PerspectiveCamera(45, box.clientWidth / box.clientHeight, 0.1, 100000);
  view.controls = new OrbitControls(view.camera, view.renderer.domElement);
  view.controls.addEventListener("change", render);
  view.loader = new GLTFLoader();
}

function render() {
  view.renderer.render(view.scene, view.camera);
  studio.renders += 1;
}

async function preview(query, mine) {
  const started = performance.now();
  const q = new URLSearchParams(query); q.set("format", "glb"); q.set("raw-mesh", "1");  // for the eye only
  const data = await (await call(`/api/${command()}`, q)).arrayBuffer();
  if (mine !== generation) return;
  const gltf = await view.loader.parseAsync(data, "");
  if (view.model) {
    view.scene.remove(view.model);
    view.model.traverse((o) => { o.geometry?.dispose(); o.material?.dispose?.(); });
  }
  view.model = gltf.scene;
  view.scene.add(view.model);
  const bounds = new THREE.Box3().setFromObject(view.model);
  const centre = bounds.getCenter(new THREE.Vector3());
  const size = bounds.getSize(new THREE.Vector3()).length();
  view.controls.target.copy(centre);
  view.camera.position.copy(centre).add(new THREE.Vector3(0.35, 0.8, 0.6).multiplyScalar(size * 0.9));
  view.camera.near = size / 1000; view.camera.far = size * 10;
  view.camera.updateProjectionMatrix();
  view.controls.update();
  render();
  studio.glbMs = performance.now() - started;
}

// ---- downloads: every format the command writes ----
function downloads(query) {
  const box = $("download-buttons");
  box.replaceChildren();
  for (const format of studio.formats) {
    if (command() !== "generate" && format.source === "maze") continue;
    const q = new URLSearchParams(query); q.set("format", format.name);
    const link = document.createElement("a");
    link.href = `/api/${command()}?${q}`;
    link.download = "maze" + format.suffix;
    link.textContent = format.name === "maze" ? "maze document (.json)" : format.name;
    link.title = format.summary;
    link.dataset.format = format.name;
    link.addEventListener("click", async (event) => {
      if (!studio.mask || command() !== "generate") return;  // a plain link
      event.preventDefault();  // a mask goes up with the request
      try {
        const blob = await (await call(`/api/${command()}`, q)).blob();
        const save = document.createElement("a");
        save.href = URL.createObjectURL(blob); save.download = link.download; save.click();
      } catch (error) { status(error.message, true); }
    });
    box.append(link);
  }
}

async function start() {
  const params = new URLSearchParams(location.search);
  const described = await (await fetch("/api/options")).json();
  studio.options = described.commands;
  studio.formats = described.formats;
  if (params.get("command")) $("command").value = params.get("command");
  if (params.get("size")) $("size").value = params.get("size");
  buildForm(params);
  setUpThree();
  $("command").addEventListener("change", () => { buildForm(new URLSearchParams()); update(); });
  $("size").addEventListener("change", update);
  $("make").addEventListener("click", update);
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
