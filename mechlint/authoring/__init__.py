"""The commands that write files (fix, edit, pin, attest, new) and the generators of docs/format.md and
mechlint/prebuilt/."""
