"""Each page's text of a PDF the tests rendered, read back with pdfium.

The report tests check what a printed page says. pypdf's text extraction is pure Python and cost
tests/reports about 3 s of its 16 s of CPU; pdfium, which the desk already depends on for its
previews, reads the same text in C, in a few hundredths of that. pdfium ends lines with "\\r\\n";
they come back as "\\n" so that a test's own whitespace handling sees what it would in any other
text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium


def page_texts(pdf: bytes | str | Path) -> list[str]:
    """The text of each page, in page order, of the PDF in `pdf` (its bytes, or the path of its file)."""
    document = pdfium.PdfDocument(pdf)
    try:
        texts: list[str] = []
        for page_index in range(len(document)):
            page = document[page_index]
            text_page = page.get_textpage()
            try:
                texts.append(text_page.get_text_range().replace("\r\n", "\n"))
            finally:
                text_page.close()
                page.close()
        return texts
    finally:
        document.close()


def page_count(pdf: bytes | str | Path) -> int:
    """How many pages the PDF in `pdf` (its bytes, or the path of its file) has; no text is read."""
    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def squeezed(text: str) -> str:
    """`text` with each run of whitespace (line ends, wide gaps between columns) one space: what a
    test looks for in a printed page, whatever its layout."""
    return re.sub(r"\s+", " ", text)


def squeezed_text(pdf: bytes | str | Path) -> str:
    """Every page's text of the PDF in `pdf`, one after the other, squeezed."""
    return squeezed(" ".join(page_texts(pdf)))
