"""Pictures of mazes: text for the terminal (images come with the picture renderer)."""

from .text import maze_text, plan_text

__all__ = ["maze_text", "plan_text"]
