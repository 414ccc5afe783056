"""The course model and its YAML loader. Imports neither JAX nor Textual."""

from tutor.course.loader import CourseError, load_course, read_course
from tutor.course.model import Cell, Check, Course, Exercise, Lesson, Question
from tutor.course.reader import Problem

__all__ = [
    "Cell",
    "Check",
    "Course",
    "CourseError",
    "Exercise",
    "Lesson",
    "Problem",
    "Question",
    "load_course",
    "read_course",
]
