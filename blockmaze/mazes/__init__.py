"""Making and working a maze (:class:`~blockmaze.maze.Maze`), before it becomes blocks.

- ``generation``: a grid by kind and shape, carved by an algorithm (``generate``, ``make_grid``);
- ``masks``: grids with cells switched off, from text or a picture;
- ``braiding``: dead ends opened into loops (``braid``);
- ``endpoints``: start, goal and openings (``place_endpoints``);
- ``documents``: a maze saved as JSON and read back (``MazeDocument``, ``load_maze``).

Nothing here makes blocks or writes files. Distances, paths and dead ends (what ``Maze``
methods call) are :mod:`blockmaze.analysis`, in the model beside the Maze.

>>> from blockmaze.mazes.generation import generate
>>> generate((2, 3), rng=1).is_perfect()
True
"""
