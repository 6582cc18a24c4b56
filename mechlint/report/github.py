"""GitHub Actions workflow commands: one annotation a finding.

``::error file=PATH,line=L,col=C,endLine=…,endColumn=…,title=RULE::message``;
notes become ``::notice``. Values are escaped as the runner expects, so a
message can never start a command of its own.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from mechlint.model import Level, Report
from mechlint.report import OutputOptions

_COMMANDS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation_path(uri: str) -> str:
    """The repository-relative path; a file outside the repository keeps its absolute path."""
    return unquote(urlsplit(uri).path) if uri.startswith("file://") else uri


def render(report: Report, options: OutputOptions) -> str:
    lines = []
    for file_report in report.files:
        for result in file_report.results:
            region = result.region
            properties = ",".join(
                [
                    f"file={escape_property(annotation_path(file_report.uri))}",
                    f"line={region.start_line}",
                    f"col={region.start_column}",
                    f"endLine={region.end_line}",
                    f"endColumn={region.end_column}",
                    f"title={escape_property(result.rule_id)}",
                ]
            )
            lines.append(f"::{_COMMANDS[result.level]} {properties}::{escape_data(result.message)}")
    return "".join(line + "\n" for line in lines)
