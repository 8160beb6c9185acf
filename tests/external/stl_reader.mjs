// Reads an .stl with three.js's STLLoader (node) and prints what the loader made of it as one
// JSON line: triangles, the geometry's bounding box, and whether every position is finite.
// Usage: node stl_reader.mjs <three folder> <file.stl>
import fs from 'fs';
import path from 'path';
import { pathToFileURL } from 'url';

const [folder, file] = process.argv.slice(2);
const loaders = path.join(folder, 'node_modules', 'three', 'examples', 'jsm', 'loaders', 'STLLoader.js');
const { STLLoader } = await import(pathToFileURL(loaders).href);
const data = fs.readFileSync(file);
const geometry = new STLLoader().parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
geometry.computeBoundingBox();
const box = geometry.boundingBox;
const positions = geometry.getAttribute('position').array;
console.log(JSON.stringify({
  triangles: positions.length / 9,
  min: [box.min.x, box.min.y, box.min.z],
  max: [box.max.x, box.max.y, box.max.z],
  finite: positions.every(Number.isFinite),
}));
