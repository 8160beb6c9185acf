#!/usr/bin/env bash
# Installs every independent reader the tests (and bench/bench_mesh.py) read our files with, into
# .readers/ in the checkout (or the folder named by $BLOCKMAZE_READERS). The tests look in the same
# folder when their variable (GLTF_VALIDATOR, MINECRAFT_DATA, BLOCKMAZE_BPY_PYTHON) is not set; see
# tests/readers.py. Any install that fails stops the script with its error.
#
#   bash scripts/install_readers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
readers=${BLOCKMAZE_READERS:-$PWD/.readers}

# npm packages, one a line (needs node and npm); the tests find them in $readers/npm
NPM_PACKAGES=(
  gltf-validator   # the Khronos glTF validator (tests/test_mesh_formats.py)
  gltfpack         # meshoptimizer's packer: bench/bench_mesh.py compares sizes with it
  minecraft-data   # the game's block tables (tests/test_blockdata.py)
  # the game as a test reader (tests/test_game.py): a Minecraft server and a bot with the game's
  # physics, at versions that run release 1.20.4 together
  flying-squid@1.12.0 mineflayer@4.25.0 mineflayer-pathfinder@2.4.5 prismarine-schematic@1.3.0
  three            # three.js: its VOXLoader reads our .vox back, scene graph included (tests/test_vox.py)
  rot-js           # rot.js: its dungeon maps, a peer bench/bench_peers.py times ours against
)
command -v npm >/dev/null || { echo "install_readers: npm (node.js) is needed for: ${NPM_PACKAGES[*]}" >&2; exit 1; }
npm install --prefix "$readers/npm" --no-audit --no-fund "${NPM_PACKAGES[@]}"

# Debian packages, one a line (apt-get, as root or with sudo); the tests find them on PATH
APT_PACKAGES=(
  minetest-server minetest-data   # a Luanti server and its default game place our .mts (tests/test_mts.py)
  chromium chromium-driver        # the studio's page in a real browser (tests/test_studio_browser.py)
  unzip default-jdk-headless      # Info-ZIP and java.util.zip read our zips (tests/test_mcpack_zip.py)
  zlib1g-dev g++                  # the test extra's amulet-leveldb (Bedrock worlds) builds against them
  godot3-server                   # Godot 3 imports our .glb and .obj headless (tests/test_mesh_godot3.py)
  tiled                           # Tiled loads our extension and exports a map through it (tests/test_host_tiled.py)
  qpdf poppler-utils              # qpdf --check and poppler (pdftoppm, pdftotext) read our PDFs (tests/test_pdf.py)
)
if ((${#APT_PACKAGES[@]})); then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}"
fi

# Python packages that cannot share the test environment, each in a venv of its own:
# Blender's bpy has CPython 3.11 wheels only and pins numpy 1.26 (tests/test_mesh_blender.py)
command -v python3.11 >/dev/null || { echo "install_readers: python3.11 is needed for Blender's bpy" >&2; exit 1; }
if ! "$readers/blender/bin/python" -c "import bpy" 2>/dev/null; then
  python3.11 -m venv "$readers/blender"
  "$readers/blender/bin/pip" install -q bpy
fi

# Amulet's world library reads Bedrock worlds (tests/test_mcworld.py); its parts build from source
# and it pins numpy 1.26, so it has a venv of its own too
if ! "$readers/amulet/bin/python" -c "import amulet" 2>/dev/null; then
  python3.11 -m venv "$readers/amulet"
  "$readers/amulet/bin/pip" install -q amulet-core
fi

# mecha parses every command of a minigame datapack for its release (tests/test_minigame.py); its
# beet pins nbtlib 1 while the test extra needs nbtlib 2, so it has a venv of its own
if ! "$readers/mecha/bin/python" -c "import mecha" 2>/dev/null; then
  python3.11 -m venv "$readers/mecha"
  "$readers/mecha/bin/pip" install -q "mecha==0.101.0"  # (the grammar the tests were checked with)
fi

echo "readers installed in $readers"
