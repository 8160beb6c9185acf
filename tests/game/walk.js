// The game as a test reader: a Minecraft server (flying-squid) takes blockmaze's builds, and a bot
// whose movement ports the game's physics (mineflayer, with mineflayer-pathfinder choosing the
// way: no digging, no placing) walks each from where the player is to the goal.
//
//   node walk.js SPEC.json RESULTS  ->  one JSON line per walk in the file RESULTS
//
// SPEC: {"version": "1.20.4", "timeout": 90, "bots": 1,
//        "schem": [{"name", "file", "goal": [x, y, z] | [x, y, z, reach], "start": null | [x, y, z],
//                   "route": [[x, y, z, reach], ...] (optional)}],
//        "world": {"folder", "goal": [x, y, z], "starts": ["player", "spawn"], "route": [...]}}
// A .schem (Sponge v2) is pasted as WorldEdit pastes it: its min corner at the player's block
// plus the file's WEOffset, air included, into a flat world; the bot stands on that block
// ("start": null) or at "start", both relative to the min corner, as is "goal" (the block the
// feet end in, or any block within "reach" of it). A "route" is walked first, one waypoint after
// the other, as a player who knows the way goes: each leg is planned alone. With "bots" above 1,
// that many bots walk the pasted builds at once, each its share one after the other (the builds
// lie 256 blocks apart; a bot walks in real time, so walks at once take less time), as do the
// starts of a world save. A world save is the server's world; the bot starts where the game puts a
// player: "player", the single-player record in level.dat (Data.Player.Pos); "spawn", the
// world spawn's column, on its highest block, as the game places a player joining a server.
// The game opens a door a player uses and flying-squid does not: here the server toggles a
// door's "open" when the bot uses it, and the bot uses a closed door it walks into.
'use strict'
const fs = require('fs')
const path = require('path')
const os = require('os')
const { Vec3 } = require('vec3')
const nbt = require('prismarine-nbt')
const mcServer = require('flying-squid')
const mineflayer = require('mineflayer')
const { pathfinder, Movements, goals } = require('mineflayer-pathfinder')

// (flying-squid ends the process on an uncaught error, exit code 0: say what it was first)
process.on('uncaughtException', (error) => process.stderr.write(String(error && error.stack) + '\n'))
const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const version = spec.version || '1.20.4'
const timeout = (spec.timeout || 90) * 1000
const say = (line) => fs.appendFileSync(process.argv[3], JSON.stringify(line) + '\n')
const quiet = { info () {}, warn () {}, error () {}, log () {} }
const debug = (...words) => process.env.WALK_DEBUG && process.stderr.write(words.join(' ') + '\n')

async function readNbt (file) {
  const { parsed } = await nbt.parse(fs.readFileSync(file))
  return nbt.simplify(parsed)
}

function startServer (options) {
  return new Promise((resolve, reject) => {
    const serv = mcServer.createMCServer({
      port: 0,
      host: '127.0.0.1',
      'online-mode': false,
      logging: false,
      gameMode: 0,
      difficulty: 0,
      motd: 'blockmaze',
      'max-players': (spec.bots || 1) + 1,
      'view-distance': 6,
      'everybody-op': true,
      'max-entities': spec.bots || 1, // the players: no mobs
      'player-list-text': { header: { text: '' }, footer: { text: '' } },
      kickTimeout: 600000,
      plugins: {},
      modpe: false,
      version,
      ...options
    })
    serv.log = () => {}
    serv.once('ready', () => resolve(serv)) // listening, and its world loaded
    serv.once('error', reject)
  })
}

function toggleDoors (serv) {
  const Block = require('prismarine-block')(serv.registry)
  for (const door of serv.registry.blocksArray.filter(b => b.name.endsWith('_door') && b.name !== 'iron_door')) {
    serv.onBlockInteraction(door.name, async ({ block, player }) => {
      const props = block.getProperties()
      const open = !(props.open === true || props.open === 'true')
      debug('door', block.position, props.half, props.facing, props.hinge, 'open:', open)
      const other = block.position.offset(0, props.half === 'upper' ? -1 : 1, 0)
      for (const [at, half] of [[block.position, props.half], [other, props.half === 'upper' ? 'lower' : 'upper']]) {
        const state = Block.fromProperties(door.name, { ...props, half, open }, 0).stateId
        await serv.setBlock(player.world, at, state)
      }
      return true
    })
  }
}

function connect (port, username = 'walker') {
  return new Promise((resolve, reject) => {
    const bot = mineflayer.createBot({ host: '127.0.0.1', port, username, version, logErrors: false })
    bot.loadPlugin(pathfinder)
    // flying-squid finishes a login by sending the player to its spawn point again: wait for it
    bot.once('spawn', () => bot.waitForTicks(60).then(() => resolve(bot)))
    bot.once('error', reject)
    bot.once('kicked', (why) => reject(new Error('kicked: ' + JSON.stringify(why))))
  })
}

function movements (bot) {
  const moves = new Movements(bot)
  moves.canDig = false
  moves.allow1by1towers = false
  moves.scafoldingBlocks = []
  moves.allowSprinting = false
  moves.canOpenDoors = false
  const isDoor = (b) => b && b.name && b.name.endsWith('_door') && b.name !== 'iron_door'
  const getBlock = moves.getBlock.bind(moves)
  moves.getBlock = (pos, dx, dy, dz) => { // a door is a way through: the player opens it
    const b = getBlock(pos, dx, dy, dz)
    if (isDoor(b)) {
      b.safe = true
      b.physical = false
      b.height = pos.y + dy
    }
    return b
  }
  // an open door's panel stands on one side of its block: go through it straight, never cutting
  // a corner beside it or leaving it sideways
  const diagonal = moves.getMoveDiagonal.bind(moves)
  moves.getMoveDiagonal = (node, dir, neighbors) => {
    const beside = [[0, 0], [dir.x, 0], [0, dir.z], [dir.x, dir.z]].some(([dx, dz]) =>
      [-1, 0, 1].some(dy => isDoor(bot.blockAt(new Vec3(node.x + dx, node.y + dy, node.z + dz)))))
    if (!beside) diagonal(node, dir, neighbors)
  }
  return moves
}

// mineflayer-pathfinder moves each point of a path to the top of the block the feet are in where
// that block has a shape, which puts a point in a doorway on top of the door (and, as it does this
// again to the same points each time it goes on with a partial path, a block higher each time): a
// player goes through a doorway at its floor. Each point keeps the block it was planned at.
function doorwaysAtTheirFloor (bot) {
  const isDoor = (b) => b && b.name.endsWith('_door')
  const mend = (results) => {
    for (const point of results.path) {
      const [x, y, z] = point.hash.split(',').map(Number)
      if (isDoor(bot.blockAt(new Vec3(x, y, z)))) Object.assign(point, { x: x + 0.5, y, z: z + 0.5 })
    }
  }
  bot.on('path_update', mend)
  return () => bot.removeListener('path_update', mend)
}

function openDoorsAhead (bot) {
  const used = new Map()
  const look = () => {
    const at = bot.entity.position
    for (let dx = -1; dx <= 1; dx++) {
      for (let dz = -1; dz <= 1; dz++) {
        for (const dy of [0, 1]) {
          const block = bot.blockAt(at.offset(dx, dy, dz).floored())
          if (!block || !block.name.endsWith('_door')) continue
          const props = block.getProperties()
          const key = block.position.toString()
          if (props.half === 'upper') continue // (one door: its lower half is the one used)
          if (props.open === true || props.open === 'true' || (used.get(key) || 0) > Date.now() - 1000) continue
          used.set(key, Date.now())
          bot.activateBlock(block).catch(() => {})
        }
      }
    }
  }
  bot.on('physicsTick', look)
  return () => bot.removeListener('physicsTick', look)
}

async function place (serv, bot, feet) {
  debug('place', feet, Date.now())
  const player = serv.players.find(p => p.username === bot.username)
  const spot = new Vec3(feet.x + 0.5, feet.y, feet.z + 0.5)
  await serv.overworld.getColumnAt(feet)
  for (let tries = 0; tries < 20 && bot.entity.position.distanceTo(spot) > 0.5; tries++) {
    await player.teleport(spot) // (a client just logged in may not take the first one)
    player.position = spot
    await player.worldSendRestOfChunks() // flying-squid sends chunks as a player moves, not on a teleport
    await bot.waitForTicks(5)
  }
  if (bot.entity.position.distanceTo(spot) > 0.5) throw new Error(`the bot could not be placed at ${spot}`)
  debug('teleported', Date.now())
  await bot.waitForChunksToLoad()
  debug('chunks', Date.now())
  for (let i = 0; i < 40 && !bot.entity.onGround; i++) await bot.waitForTicks(1)
}

async function walk (serv, bot, name, start, goal, route = []) {
  debug('walk', name, start, goal)
  const began = Date.now()
  await place(serv, bot, start)
  bot.pathfinder.setMovements(movements(bot))
  bot.pathfinder.thinkTimeout = 30000
  bot.pathfinder.tickTimeout = 100
  const stopDoors = openDoorsAhead(bot)
  const stopDoorways = doorwaysAtTheirFloor(bot)
  const trace = process.env.WALK_DEBUG ? setInterval(() => {
    const at = bot.entity.position.floored()
    const near = [[-1, 0], [1, 0], [0, -1], [0, 1]].map(([dx, dz]) => bot.blockAt(at.offset(dx, 0, dz)))
      .filter(b => b && b.name.endsWith('_door')).map(b => `${b.position} ${JSON.stringify(b.getProperties())} ${JSON.stringify(b.shapes)}`)
    debug('at', bot.entity.position, near.join(' '))
  }, 1000) : null
  const planned = (r) => debug('path', r.status, r.path.length, r.visitedNodes, r.time)
  bot.on('path_update', planned)
  let why = null
  let leg = 0
  try {
    for (const waypoint of [...route, goal]) {
      leg += 1
      why = await goto(bot, waypoint)
      if (why || !arrived(bot, waypoint)) break
    }
  } finally {
    bot.pathfinder.stop()
    stopDoors()
    stopDoorways()
    clearInterval(trace)
    bot.removeListener('path_update', planned)
  }
  const at = bot.entity.position.floored()
  const reached = arrived(bot, goal)
  say({
    name,
    start: [start.x, start.y, start.z],
    goal: [goal.x, goal.y, goal.z],
    at: [at.x, at.y, at.z],
    reached,
    why: reached ? null : `${why || 'stopped short'} (leg ${leg} of ${route.length + 1})`,
    seconds: (Date.now() - began) / 1000
  })
}

function arrived (bot, goal) {
  const at = bot.entity.position.floored()
  return goal.reach ? at.distanceTo(goal) <= goal.reach : at.equals(goal)
}

async function goto (bot, goal) {
  // mineflayer-pathfinder's goto also ends on a first, empty partial path (a slow first tick):
  // go on asking until the bot is there, the way is known to be none, or the time is up
  const deadline = Date.now() + timeout
  let why = null
  while (!arrived(bot, goal) && Date.now() < deadline) {
    let timer
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve('timed out'), deadline - Date.now()) })
    try {
      why = await Promise.race([
        bot.pathfinder.goto(goal.reach ? new goals.GoalNear(goal.x, goal.y, goal.z, goal.reach)
          : new goals.GoalBlock(goal.x, goal.y, goal.z)).then(() => null, (e) => e.message),
        late
      ])
    } finally {
      clearTimeout(timer)
    }
    if (why === 'timed out') break
    await bot.waitForTicks(2)
  }
  return arrived(bot, goal) ? null : why
}

function target (origin, [x, y, z, reach]) {
  const goal = origin.offset(x, y, z)
  goal.reach = reach
  return goal
}

async function pasteSchematic (serv, file, player) {
  const { Schematic } = require('prismarine-schematic')
  const raw = fs.readFileSync(file)
  const meta = (await readNbt(file)).Metadata || {}
  const schem = await Schematic.read(raw, version)
  const corner = player.offset(meta.WEOffsetX | 0, meta.WEOffsetY | 0, meta.WEOffsetZ | 0)
  const { x: width, y: height, z: length } = schem.size
  for (let y = 0; y < height; y++) {
    for (let z = 0; z < length; z++) {
      for (let x = 0; x < width; x++) {
        const state = schem.palette[schem.blocks[(y * length + z) * width + x]]
        await serv.overworld.setBlockStateId(corner.offset(x, y, z), state)
      }
    }
  }
  return corner
}

async function schematics (cases, bots = 1) {
  const serv = await startServer({ generation: { name: 'superflat', options: { worldHeight: 80 } } })
  toggleDoors(serv)
  const GROUND = 5 // flying-squid's superflat: grass at y = 4
  const placed = []
  for (const [i, item] of cases.entries()) {
    const player = new Vec3(i * 256, GROUND, 0)
    placed.push([item, player, await pasteSchematic(serv, item.file, player)])
  }
  try {
    await walkShared(serv, bots, placed.map(([item, player, corner]) => (bot) => walk(serv, bot, item.name,
      item.start ? corner.offset(...item.start) : player, target(corner, item.goal),
      (item.route || []).map(w => target(corner, w)))))
  } finally {
    serv.quit()
  }
}

async function walkShared (serv, bots, walks) {
  // up to `bots` bots, each taking every bots-th walk in turn (they walk in real time: at once)
  const port = serv._server.socketServer.address().port
  const walkers = []
  try {
    for (let i = 0; i < Math.min(bots || 1, walks.length); i++) walkers.push(await connect(port, `walker${i}`))
    await Promise.all(walkers.map(async (bot, i) => {
      for (const job of walks.filter((_, j) => j % walkers.length === i)) await job(bot)
    }))
  } finally {
    for (const bot of walkers) bot.quit()
  }
}

async function topOfColumn (world, x, z) {
  for (let y = 319; y > -64; y--) {
    const block = await world.getBlock(new Vec3(x, y, z))
    if (block && block.boundingBox === 'block') return new Vec3(x, y + 1, z)
  }
  return new Vec3(x, -64, z)
}

async function world (item) {
  const level = (await readNbt(path.join(item.folder, 'level.dat'))).Data
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'blockmaze-world-'))
  fs.cpSync(item.folder, folder, { recursive: true })
  const generator = level.WorldGenSettings.dimensions['minecraft:overworld'].generator.settings
  const layers = (generator.layers || []).map(({ block, height }) => ({ block, height }))
  const serv = await startServer({
    worldFolder: folder,
    generation: { name: path.join(__dirname, 'flat.js'), options: { layers } }
  })
  toggleDoors(serv)
  const origin = new Vec3(0, 0, 0)
  const feet = async (start) => start === 'player' ? new Vec3(...level.Player.Pos).floored()
    : topOfColumn(serv.overworld, level.SpawnX, level.SpawnZ)
  try {
    await walkShared(serv, spec.bots, item.starts.map((start) => async (bot) => walk(serv, bot,
      `${item.name || 'world'} from ${start}`, await feet(start), target(origin, item.goal),
      (item.route || []).map(w => target(origin, w)))))
  } finally {
    serv.quit()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

async function main () {
  for (const name of ['info', 'warn', 'error', 'log']) console[name] = quiet[name]
  if (spec.schem && spec.schem.length) await schematics(spec.schem, spec.bots)
  if (spec.world) await world(spec.world)
  process.exit(0)
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + '\n')
  process.exit(1)
})
