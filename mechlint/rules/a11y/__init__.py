"""Accessibility rules: text alternatives, labels, language, reading time and flashing."""
