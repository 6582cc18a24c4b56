"""An SVG drawing made safe to show in a report as an ``<img>``: no script, no external reference, no event.

A source SVG is written by someone else; the HTML report shows its pinned
and its current version side by side. A browser already runs no script in an
``<img>``, but the report does not lean on that: the drawing is rebuilt from
an allowlist before it becomes a ``data:`` URI.

* A document with a DTD (``<!DOCTYPE``, ``<!ENTITY``) or a processing
  instruction is refused whole: no entity is ever expanded.
* Only drawing elements are kept (shapes, text, groups, gradients, markers,
  clip paths, masks, patterns, ``use``); ``script``, ``style``,
  ``foreignObject``, ``image``, ``a``, ``iframe`` and every unknown element
  are dropped with their content.
* Only presentation and geometry attributes are kept: every ``on*`` event,
  every attribute in another namespace but ``xlink:href``, and every
  reference that leaves the document (``href`` not ``#…``, ``url(…)`` not
  ``url(#…)``, in any attribute, ``style`` included) is dropped.

What is returned is text only a parser wrote, never the input's bytes.
"""

from __future__ import annotations

import base64
import re
from xml.etree import ElementTree

__all__ = ["MAX_SVG_BYTES", "data_uri", "is_svg", "sanitised"]

MAX_SVG_BYTES = 1024 * 1024
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
_ELEMENTS = frozenset(
    [
        "svg",
        "g",
        "path",
        "rect",
        "circle",
        "ellipse",
        "line",
        "polyline",
        "polygon",
        "text",
        "tspan",
        "textPath",
        "title",
        "desc",
        "defs",
        "symbol",
        "use",
        "linearGradient",
        "radialGradient",
        "stop",
        "clipPath",
        "mask",
        "pattern",
        "marker",
    ]
)
_ATTRIBUTES = frozenset(
    [
        "id",
        "class",
        "x",
        "y",
        "x1",
        "y1",
        "x2",
        "y2",
        "cx",
        "cy",
        "r",
        "rx",
        "ry",
        "width",
        "height",
        "d",
        "points",
        "viewBox",
        "preserveAspectRatio",
        "transform",
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-miterlimit",
        "opacity",
        "font-family",
        "font-size",
        "font-weight",
        "font-style",
        "text-anchor",
        "dominant-baseline",
        "alignment-baseline",
        "letter-spacing",
        "dx",
        "dy",
        "rotate",
        "textLength",
        "offset",
        "stop-color",
        "stop-opacity",
        "gradientUnits",
        "gradientTransform",
        "spreadMethod",
        "fx",
        "fy",
        "clip-path",
        "clip-rule",
        "mask",
        "markerWidth",
        "markerHeight",
        "refX",
        "refY",
        "orient",
        "markerUnits",
        "patternUnits",
        "patternContentUnits",
        "patternTransform",
        "maskUnits",
        "clipPathUnits",
        "style",
        "visibility",
        "display",
        "color",
        "vector-effect",
        "href",
        "version",
    ]
)
_DTD = re.compile(rb"<!DOCTYPE|<!ENTITY|<\?(?!xml[\s?])", re.IGNORECASE)
_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)", re.IGNORECASE)
_HOSTILE_STYLE = re.compile(r"@import|expression\(|javascript:|behavior:|-moz-binding", re.IGNORECASE)


def is_svg(path: str) -> bool:
    return path.lower().endswith(".svg")


def sanitised(data: bytes) -> str | None:
    """The drawing rebuilt from the allowlist, as XML text; ``None`` when it is not a safe SVG to show."""
    if len(data) > MAX_SVG_BYTES or _DTD.search(data):
        return None
    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, ValueError):
        return None
    if root.tag != f"{{{SVG}}}svg":
        return None
    clean = _copy(root)
    return None if clean is None else ElementTree.tostring(clean, encoding="unicode", xml_declaration=False)


def _copy(element: ElementTree.Element) -> ElementTree.Element | None:
    namespace, _, name = element.tag.rpartition("}")
    if namespace != "{" + SVG or name not in _ELEMENTS:
        return None
    copy = ElementTree.Element(f"{{{SVG}}}{name}", {k: v for k, v in _attributes(element)})
    copy.text = element.text
    for child in element:
        kept = _copy(child)
        if kept is not None:
            kept.tail = child.tail
            copy.append(kept)
        elif child.tail:  # the text after a dropped element stays where it was
            if len(copy):
                copy[-1].tail = (copy[-1].tail or "") + child.tail
            else:
                copy.text = (copy.text or "") + child.tail
    return copy


def _attributes(element: ElementTree.Element) -> list[tuple[str, str]]:
    kept = []
    for key, value in element.attrib.items():
        namespace, _, name = key.rpartition("}")
        if namespace == "{" + XLINK and name == "href":
            key = f"{{{XLINK}}}href"
        elif namespace or name not in _ATTRIBUTES:
            continue  # an event (on*), another namespace, anything not on the list
        if name == "href" and not value.strip().startswith("#"):
            continue  # a reference out of the document
        if _URL.search(value) or (name == "style" and _HOSTILE_STYLE.search(value)):
            continue
        kept.append((key, value))
    return kept


def data_uri(data: bytes) -> str | None:
    """The sanitised drawing as a ``data:image/svg+xml;base64,…`` URI, or ``None`` when it cannot be shown."""
    text = sanitised(data)
    if text is None:
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


ElementTree.register_namespace("", SVG)
ElementTree.register_namespace("xlink", XLINK)
