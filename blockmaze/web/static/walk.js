// Walking the maze in the 3-D preview, by the game's numbers: eyes 1.62 blocks up, a body
// 1.8 x 0.6 x 0.6, steps up to 0.6 block, a jump of about 1.25 blocks, gravity, 4.3 blocks a
// second, and every solid block of the volume (the schematic's blocks) in the way.

export const EYE = 1.62, BODY = 1.8, HALF = 0.3, STEP = 0.6, SPEED = 4.317;
export const GRAVITY = 32, JUMP = Math.sqrt(2 * GRAVITY * 1.25);  // apex: 1.25 blocks
export const CLIMB_SPEED = 2.4;

// how tall a block is to a walker: 0 (walk through), 0.5 (slabs, stairs), 1 (solid), or
// CLIMB: walked into from the side, stood on from above, climbed with space, left down with shift
// (scaffolding, as a 3-D blockwise maze's shafts have it; ladders and vines)
export const CLIMB = -1;
export function blockHeight(name) {
  const block = name.replace(/^minecraft:/, "").replace(/\[.*$/, "");
  if (/scaffolding|ladder|vine/.test(block)) return CLIMB;
  if (/(^|_)air$|torch|button|pressure_plate|carpet|sign|rail|banner|flower|short_grass|tall_grass|fern|vine|ladder|door|^light$|redstone_wire|cobweb|lever/.test(block)
      && !/trapdoor/.test(block)) return 0;
  if (/(^|[^a-z])lantern$/.test(block) && !/sea_lantern/.test(block)) return 0;
  if (/slab|stairs/.test(block)) return 0.5;
  return 1;
}

// a volume of blocks (x fastest, then z, then y) with each block's height and its role
export class Volume {
  constructor(width, height, length, heights, roles) {
    Object.assign(this, { width, height, length, heights, roles });
  }

  index(x, y, z) { return x + this.width * (z + this.length * y); }

  // the top of the solid part of block (x, y, z), or null where a walker passes
  top(x, y, z) {
    if (y < 0) return y + 1;  // the ground under the build
    if (x < 0 || z < 0 || x >= this.width || z >= this.length || y >= this.height) return null;
    const h = this.heights[this.index(x, y, z)];
    return h > 0 ? y + h : null;
  }

  climbable(x, y, z) {
    if (x < 0 || y < 0 || z < 0 || x >= this.width || y >= this.height || z >= this.length) return false;
    return this.heights[this.index(x, y, z)] === CLIMB;
  }

  // the blocks under a body's footprint at layer ``y``: whether any is climbable
  climbableUnder(p, y) {
    for (let z = Math.floor(p[2] - HALF); z <= Math.floor(p[2] + HALF - 1e-9); z++) {
      for (let x = Math.floor(p[0] - HALF); x <= Math.floor(p[0] + HALF - 1e-9); x++) {
        if (this.climbable(x, y, z)) return true;
      }
    }
    return false;
  }

  // whether a body with its feet at ``p`` is in a climbable block
  inClimbable(p) {
    for (let y = Math.floor(p[1]); y <= Math.floor(p[1] + BODY - 1e-9); y++) {
      if (this.climbableUnder(p, y)) return true;
    }
    return false;
  }

  role(x, y, z) {
    if (x < 0 || y < 0 || z < 0 || x >= this.width || y >= this.height || z >= this.length) return null;
    return this.roles[this.index(x, y, z)];
  }

  // whether a body with its feet at ``p`` overlaps a solid block
  collides(p) {
    const [x0, x1] = [Math.floor(p[0] - HALF), Math.floor(p[0] + HALF - 1e-9)];
    const [z0, z1] = [Math.floor(p[2] - HALF), Math.floor(p[2] + HALF - 1e-9)];
    const [y0, y1] = [Math.floor(p[1]), Math.floor(p[1] + BODY - 1e-9)];
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        for (let x = x0; x <= x1; x++) {
          const top = this.top(x, y, z);  // the block's solid part is [y, top)
          if (top !== null && top > p[1] + 1e-9) return true;
        }
      }
    }
    return false;
  }

  // feet on a block: a place to stand at column (x, z), its lowest, from ``from`` up
  standAt(x, z, from = 0) {
    for (let y = Math.max(0, from); y < this.height + 1; y++) {
      const p = [x + 0.5, y, z + 0.5];
      if (!this.collides(p) && this.collides([p[0], y - 0.01, p[2]])) return p;
    }
    return null;
  }

  // where the player appears: above START, else in an opening of the outer wall, else on the
  // first place to stand (each the first in z, x order), as the world save places the player
  spawn() {
    for (let i = 0; i < this.roles.length; i++) {
      if (this.roles[i] === "start") {
        const x = i % this.width, z = Math.floor(i / this.width) % this.length;
        const y = Math.floor(i / (this.width * this.length));
        const p = this.standAt(x, z, y + 1);
        if (p) return p;
      }
    }
    const edge = [];
    for (let z = 0; z < this.length; z++) {
      for (let x = 0; x < this.width; x++) {
        if (z === 0 || x === 0 || z === this.length - 1 || x === this.width - 1) edge.push([x, z]);
      }
    }
    for (const [x, z] of edge) {
      const p = this.standAt(x, z, 1);
      if (p && p[1] < this.height) return p;
    }
    for (let z = 0; z < this.length; z++) {
      for (let x = 0; x < this.width; x++) {
        const p = this.standAt(x, z, 1);
        if (p && p[1] < this.height) return p;
      }
    }
    return [this.width / 2, this.height, this.length / 2];
  }
}

// the schematic's volume; ``material(name)`` is the theme's material of a block, if it knows
export function volumeOfSchematic(root, material = () => undefined) {
  const width = root.Width & 0xffff, height = root.Height & 0xffff, length = root.Length & 0xffff;
  const palette = root.Palette ?? root.Blocks?.Palette, data = root.BlockData ?? root.Blocks?.Data;
  const heightOf = [], roleOf = [];
  for (const [name, index] of Object.entries(palette)) {
    heightOf[index] = blockHeight(name);
    const known = material(name);
    roleOf[index] = known === "start" || known === "goal" ? known
      : known === undefined && /emerald_block/.test(name) ? "start"
      : known === undefined && /redstone_block/.test(name) ? "goal" : null;
  }
  const count = width * height * length;
  const heights = new Float32Array(count), roles = new Array(count).fill(null);
  let at = 0;
  for (let i = 0; i < count; i++) {
    let value = 0, shift = 0, byte;
    do { byte = data[at++]; value |= (byte & 127) << shift; shift += 7; } while (byte & 128);
    heights[i] = heightOf[value] ?? 1;
    roles[i] = roleOf[value] ?? null;
  }
  return new Volume(width, height, length, heights, roles);
}

// a walker in a volume: keys held (KeyW, KeyA, KeyS, KeyD, Space), a heading, and physics
export class Walker {
  constructor(volume) {
    this.volume = volume;
    this.position = volume.spawn();
    this.velocity = [0, 0, 0];
    this.yaw = 0; this.pitch = -0.2;  // yaw 0 looks along -z
    this.keys = new Set();
    this.onGround = false;
    this.started = null; this.finished = null; this.clock = 0;
    this.goal = volume.roles.includes("goal");
    // facing the longest free way from where the player appears
    let best = -1;
    for (const yaw of [0, Math.PI / 2, Math.PI, -Math.PI / 2]) {
      const probe = [...this.position];
      let run = 0;
      while (run < 64) {
        probe[0] -= Math.sin(yaw) * 0.25; probe[2] -= Math.cos(yaw) * 0.25;
        if (volume.collides(probe)) break;
        run++;
      }
      if (run > best) { best = run; this.yaw = yaw; }
    }
  }

  // advance ``dt`` seconds, in small steps so nothing is passed through
  update(dt) {
    dt = Math.min(dt, 0.1);
    const steps = Math.max(1, Math.ceil(dt / (1 / 120)));
    for (let i = 0; i < steps; i++) this.step(dt / steps);
  }

  step(dt) {
    const forward = (this.keys.has("KeyW") ? 1 : 0) - (this.keys.has("KeyS") ? 1 : 0);
    const right = (this.keys.has("KeyD") ? 1 : 0) - (this.keys.has("KeyA") ? 1 : 0);
    let [dx, dz] = [0, 0];
    if (forward || right) {
      const length = Math.hypot(forward, right);
      const [sin, cos] = [Math.sin(this.yaw), Math.cos(this.yaw)];
      dx = (forward * -sin + right * cos) / length * SPEED;
      dz = (forward * -cos - right * sin) / length * SPEED;
      if (this.started === null && !this.finished) this.started = this.clock;
    }
    const p = this.position, sneaking = this.keys.has("ShiftLeft") || this.keys.has("ShiftRight");
    if (this.volume.inClimbable(p)) {  // in scaffolding: up with space, down with shift
      this.velocity[1] = this.keys.has("Space") ? CLIMB_SPEED : sneaking ? -CLIMB_SPEED : 0;
    } else {
      if (this.keys.has("Space") && this.onGround) {
        this.velocity[1] = JUMP;
        this.onGround = false;
      }
      this.velocity[1] -= GRAVITY * dt;
    }
    this.move(0, dx * dt);
    this.move(2, dz * dt);
    const dy = this.velocity[1] * dt;
    if (this.move(1, dy)) {  // landed (or hit a ceiling)
      if (dy < 0) this.onGround = true;
      this.velocity[1] = 0;
    } else if (dy < 0 && !sneaking && this.landsOnClimbable(p[1] - dy)) {
      this.onGround = true;
      this.velocity[1] = 0;
    } else {
      this.onGround = this.volume.collides([p[0], p[1] - 0.01, p[2]])
        || (!sneaking && Number.isInteger(p[1]) && this.volume.climbableUnder(p, p[1] - 1)
            && !this.volume.inClimbable(p));
      if (this.onGround && this.velocity[1] < 0) this.velocity[1] = 0;
    }
    this.clock += dt;
    if (this.goal && !this.finished && this.atGoal()) this.finished = this.clock;
  }

  // falling from feet at ``from`` past the top of a climbable block: stand on it
  landsOnClimbable(from) {
    const p = this.position, top = Math.floor(from + 1e-9);
    if (top <= p[1] || top > from + 1e-9 || !this.volume.climbableUnder(p, top - 1)) return false;
    if (this.volume.inClimbable([p[0], top, p[2]])) return false;  // inside a shaft: climbing
    p[1] = top;
    return true;
  }

  // move along one axis (true: something was in the way); a step of at most 0.6 is climbed
  // when walking on the ground
  move(axis, distance) {
    const p = this.position;
    p[axis] += distance;
    if (!this.volume.collides(p)) return false;
    if (axis !== 1 && this.onGround) {
      for (const lift of [0.5, STEP]) {
        p[1] += lift;
        if (!this.volume.collides(p)) return false;
        p[1] -= lift;
      }
    }
    p[axis] -= distance;
    // up to the wall: the largest part of the move that is free
    let [low, high] = [0, Math.abs(distance)];
    for (let i = 0; i < 10; i++) {
      const mid = (low + high) / 2;
      p[axis] += Math.sign(distance) * mid;
      if (this.volume.collides(p)) high = mid; else low = mid;
      p[axis] -= Math.sign(distance) * mid;
    }
    p[axis] += Math.sign(distance) * low;
    return true;
  }

  // standing on or beside the GOAL block
  atGoal() {
    const p = this.position;
    for (let y = Math.floor(p[1]) - 1; y <= Math.floor(p[1]) + 1; y++) {
      for (let z = Math.floor(p[2] - HALF - 0.2); z <= Math.floor(p[2] + HALF + 0.2); z++) {
        for (let x = Math.floor(p[0] - HALF - 0.2); x <= Math.floor(p[0] + HALF + 0.2); x++) {
          if (this.volume.role(x, y, z) === "goal") return true;
        }
      }
    }
    return false;
  }

  get time() {
    if (this.started === null) return 0;
    return (this.finished ?? this.clock) - this.started;
  }
}

// where the walker's camera sits: at the eyes, drawn back along the heading by up to ``back``
// blocks as far as the passage is free (``margin`` from any solid block), so a wall the walker
// stands against is seen with the passage around it, not as one flat face filling the frame
export function cameraSpot(volume, position, yaw, back = 1.2, margin = 0.12) {
  const [x, y, z] = position, eye = y + EYE, [dx, dz] = [Math.sin(yaw), Math.cos(yaw)];
  const free = (px, pz) => {
    for (const [ox, oz] of [[-margin, -margin], [margin, -margin], [-margin, margin], [margin, margin]]) {
      for (const oy of [-margin, margin]) {
        const [bx, by, bz] = [Math.floor(px + ox), Math.floor(eye + oy), Math.floor(pz + oz)];
        const top = volume.top(bx, by, bz);
        if (top !== null && top > eye + oy) return false;
      }
    }
    return true;
  };
  let drawn = 0;
  for (let step = 0.05; step <= back + 1e-9; step += 0.05) {
    if (!free(x + dx * step, z + dz * step)) break;
    drawn = step;
  }
  return [x + dx * drawn, eye, z + dz * drawn];
}
