// rot.js's map generators timed inside node, the peer bench/bench_peers.py sets our dungeon styles
// beside.
//
//   NODE_PATH=.readers/npm/node_modules node rot_maps.js MAP WIDTH HEIGHT RUNS SEED LIMIT_MS
//
// MAP is uniform, digger or cellular (as our caves: fill 0.45, 4 generations of the 4-5 rule,
// then connect). Prints "MS" (the median of RUNS runs, after a warm-up run at 41x61), or
// "timeout" when a run did not finish within LIMIT_MS; then "version V".
"use strict";
const ROT = require("rot-js");

function make(name, width, height, limit) {
  const cells = new Uint8Array(width * height);
  const dig = (x, y, value) => { cells[y * width + x] = value; };
  if (name === "cellular") {
    const map = new ROT.Map.Cellular(width, height);
    map.randomize(0.45);
    for (let i = 0; i < 4; i++) map.create(i === 3 ? dig : null);
    map.connect(dig, 0);
    return true;
  }
  const Map = name === "uniform" ? ROT.Map.Uniform : ROT.Map.Digger;
  return new Map(width, height, { timeLimit: limit }).create(dig) !== null;
}

const [name, width, height, runs, seed, limit] = process.argv.slice(2);
const times = [];
ROT.RNG.setSeed(Number(seed));
make(name, 61, 41, Number(limit)); // warm-up: the JIT compiles, as our kernels are compiled first
for (let i = 0; i < Number(runs); i++) {
  const start = process.hrtime.bigint();
  const done = make(name, Number(width), Number(height), Number(limit));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!done || ms > Number(limit)) {
    console.log("timeout");
    process.exit(0);
  }
  times.push(ms);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(3));
console.log("version " + require("rot-js/package.json").version);
