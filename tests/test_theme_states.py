"""One check, three writers: a theme drawing a block a format cannot hold is refused before any
work, naming the theme, the material, the block and the format (export.minecraft.palette)."""

import json

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.export.minecraft.bedrock import bedrock_state
from blockmaze.export.minecraft.legacy import legacy_id
from blockmaze.export.minecraft.palette import check_theme_states
from blockmaze.export.voxels.mts import luanti_node


@pytest.mark.parametrize("convert, ending", [
    (bedrock_state, "cannot write for Bedrock"),
    (legacy_id, "a 1.12 .schematic cannot hold"),
    (luanti_node, "cannot write for Luanti"),
])
def test_a_block_the_format_lacks_is_refused(tmp_path, convert, ending):
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"name": "odd", "materials": {
        "air": {"minecraft": "minecraft:air"}, "wall": {"minecraft": "minecraft:no_such_block"}}}))
    theme = bm.load_theme(path)
    blocks = np.array([[[1, 0]]], np.uint8)
    with pytest.raises(bm.BlockmazeError, match=f"theme 'odd' draws material wall as "
                                                f"minecraft:no_such_block, which .*{ending}"):
        check_theme_states(blocks, theme, convert, ending + ": {error}")
    check_theme_states(np.zeros((1, 1, 1), np.uint8), theme, convert, "{error}")  # no wall: fine
