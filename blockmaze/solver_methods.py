"""The solvers' names (:func:`blockmaze.solvers.solve`), apart from their code so the command's
options and help name them without importing numpy.

>>> METHODS[:2]
('wall-left', 'wall-right')
"""

METHODS = ("wall-left", "wall-right", "random-mouse", "dead-end-fill", "tremaux", "bfs", "astar")
