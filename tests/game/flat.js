// A flat terrain generator for flying-squid, as the game's flat generator makes it: ``layers``
// ([{block, height}], from the bottom of the world up), in every chunk the world save lacks.
module.exports = function flat (options) {
  const { registry, layers = [], minY = -64, worldHeight = 384 } = options
  const Chunk = require('prismarine-chunk')(registry)
  const { Vec3 } = require('vec3')
  const ids = layers.map(({ block, height }) => [registry.blocksByName[block.replace('minecraft:', '')].defaultState, height])
  return function generate () {
    const chunk = new Chunk({ minY, worldHeight })
    let y = minY
    for (const [state, height] of ids) {
      for (let top = y + height; y < top; y++) {
        for (let x = 0; x < 16; x++) for (let z = 0; z < 16; z++) chunk.setBlockStateId(new Vec3(x, y, z), state)
      }
    }
    for (let x = 0; x < 16; x++) for (let z = 0; z < 16; z++) for (let sy = minY; sy < minY + worldHeight; sy += 16) chunk.setSkyLight(new Vec3(x, sy, z), 15)
    return chunk
  }
}
