"""What the tutor prints on a terminal: status marks, Chinese-aware line breaking, Rich rendering of runs."""
