"""The learner's files: the workspace, edits saved atomically, outside edits noticed, unsaved text rescued."""
