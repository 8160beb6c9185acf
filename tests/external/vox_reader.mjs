// Reads a .vox with three.js's VOXLoader and prints every voxel where the scene places it:
// one line "x y z colour" per voxel, in three.js world coordinates (Y up, Z south), so the test
// compares the loader's scene (transform and group nodes included) with our blocks.
// Usage: node vox_reader.mjs <three folder> <file.vox> <out.bin>
import fs from 'fs';
import path from 'path';
import { pathToFileURL } from 'url';

const [folder, file, out] = process.argv.slice(2);
const loaders = path.join(folder, 'node_modules', 'three', 'examples', 'jsm', 'loaders', 'VOXLoader.js');
const { VOXLoader } = await import(pathToFileURL(loaders).href);
const data = fs.readFileSync(file);
const result = new VOXLoader().parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
const meshes = [];
result.scene.updateMatrixWorld(true);
result.scene.traverse((object) => { if (object.isMesh) meshes.push(object); });
if (meshes.length !== result.chunks.length) throw new Error(`${meshes.length} meshes for ${result.chunks.length} models`);
const values = [];
meshes.forEach((mesh, k) => {
  // the k-th mesh of the scene is the k-th model; its geometry's bounds confirm it
  const chunk = result.chunks[k];
  const { x: sx, y: sy, z: sz } = chunk.size;
  mesh.geometry.computeBoundingBox();
  const box = mesh.geometry.boundingBox;
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const d = chunk.data;
  const e = mesh.matrixWorld.elements;  // column-major; translations only in our files
  for (let j = 0; j < d.length; j += 4) {
    const local = [d[j] - sx / 2, d[j + 2] - sz / 2, -d[j + 1] + sy / 2 - 1];  // the voxel's min corner
    for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], local[a]); hi[a] = Math.max(hi[a], local[a] + 1); }
    values.push(local[0] + e[12], local[1] + e[13], local[2] + e[14], d[j + 3]);
  }
  const got = [box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z];
  const want = [...lo, ...hi];
  if (got.some((v, a) => Math.abs(v - want[a]) > 1e-6)) throw new Error(`mesh ${k} bounds ${got} != model ${want}`);
});
fs.writeFileSync(out, Buffer.from(new Int32Array(values).buffer));
const palette = result.chunks[0].palette;
console.log(JSON.stringify({ models: result.chunks.length, palette: palette.slice(1, 17) }));
