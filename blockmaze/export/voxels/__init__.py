"""Voxel-game and voxel-editor formats beyond Minecraft: MagicaVoxel ``.vox`` (:mod:`.vox`) and
Luanti schematics ``.mts`` (:mod:`.mts`). Bedrock packs sit with :mod:`..minecraft`.
"""
