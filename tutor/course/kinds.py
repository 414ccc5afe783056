"""The check kinds a course may use. Shared by the validator (parent) and the worker (child)."""

# defines: the learner's module defines the listed names (callables or classes).
# python:  a snippet of check code run with the check library in scope.
CHECK_KINDS = ("defines", "python")
