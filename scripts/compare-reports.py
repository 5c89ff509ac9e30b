#!/usr/bin/python3
"""Compares two report folders written by `orgreport monthly` or `orgreport render`.

    /usr/bin/python3 scripts/compare-reports.py BEFORE_DIR AFTER_DIR   (Debian python3-openpyxl)

Checks, for the one report of each folder: the JSON model (equal as data, and byte for byte), every
cell of every workbook sheet in order (values, formulas and number formats, read with openpyxl), the
PDF's text (pdftotext) and page count, and the HTML's section ids in order. What differs between two
runs of the demo by design is left out: the emulator's random port in `source.baseUrl` and the
per-run salted fingerprints of redacted secrets (`[redacted:0123abcd]`) and the run's own
times (`generatedAt`, `fetchedAt`). Exits 1 on any difference.
"""

import glob
import json
import os
import re
import subprocess
import sys

import openpyxl

SALTED = re.compile(r"\[redacted:[0-9a-f]{8}\]")
# In the PDF's text a fingerprint may wrap onto the next line of its table cell.
SALTED_WRAPPED = re.compile(r"\[redacted:[0-9a-f]{0,8}(\s+[0-9a-f]{1,8})?\]")
PORT = re.compile(r"http://127\.0\.0\.1:\d+")
# When the run happened: the report's generatedAt and the snapshot's fetchedAt.
RUN_TIME = re.compile(r'"(generatedAt|fetchedAt)": "[^"]*"')


def one(folder, ext):
    files = glob.glob(os.path.join(folder, f"*.{ext}"))
    if len(files) != 1:
        sys.exit(f"{folder}: expected one .{ext} file, found {len(files)}")
    return files[0]


def normal(text):
    text = RUN_TIME.sub(r'"\1": "RUN_TIME"', text)
    return PORT.sub("http://127.0.0.1:PORT", SALTED.sub("[redacted:SALTED]", text))


def workbook_cells(path, data_only):
    book = openpyxl.load_workbook(path, data_only=data_only)
    return [
        (sheet.title, [[(c.value, c.number_format) for c in row] for row in sheet.iter_rows()])
        for sheet in book.worksheets
    ]


def pdf_text(path):
    text = subprocess.run(["pdftotext", "-layout", path, "-"], check=True, capture_output=True, text=True).stdout
    return SALTED_WRAPPED.sub("[redacted:SALTED]", text)


def pdf_pages(path):
    info = subprocess.run(["pdfinfo", path], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def html_sections(path):
    with open(path, encoding="utf-8") as f:
        return re.findall(r'<section class="[^"]*" id="([^"]+)"|<section class="(cover)"', f.read())


def main(before, after):
    failures = []

    def check(what, a, b, detail=""):
        ok = a == b
        print(f"{'same' if ok else 'DIFFERENT'}: {what}{detail}")
        if not ok:
            failures.append(what)

    with open(one(before, "json"), encoding="utf-8") as f:
        json_a = f.read()
    with open(one(after, "json"), encoding="utf-8") as f:
        json_b = f.read()
    model_a, model_b = json.loads(normal(json_a)), json.loads(normal(json_b))
    check("report JSON, as data", model_a, model_b, f" ({len(json_a)} characters)")
    check("report JSON, byte for byte (port and salted fingerprints aside)", normal(json_a), normal(json_b))
    if model_a != model_b:
        for key in model_a:
            if model_a.get(key) != model_b.get(key):
                print(f"  member differs: {key}")
        for key in set(model_b) - set(model_a):
            print(f"  member added: {key}")

    xlsx_a, xlsx_b = one(before, "xlsx"), one(after, "xlsx")
    for data_only, what in ((False, "formulas"), (True, "cached values")):
        cells_a, cells_b = workbook_cells(xlsx_a, data_only), workbook_cells(xlsx_b, data_only)
        count = sum(len(r) for _, rows in cells_a for r in rows)
        check(
            f"workbook sheets in order and every cell ({what}, number formats)",
            [(t, [[(normal(str(v)) if isinstance(v, str) else v, n) for v, n in r] for r in rows]) for t, rows in cells_a],
            [(t, [[(normal(str(v)) if isinstance(v, str) else v, n) for v, n in r] for r in rows]) for t, rows in cells_b],
            f" ({len(cells_a)} sheets, {count} cells: {', '.join(t for t, _ in cells_a)})",
        )

    pdf_a, pdf_b = one(before, "pdf"), one(after, "pdf")
    check("PDF page count", pdf_pages(pdf_a), pdf_pages(pdf_b), f" ({pdf_pages(pdf_a)} pages)")
    text_a, text_b = normal(pdf_text(pdf_a)), normal(pdf_text(pdf_b))
    check("PDF text (pdftotext -layout)", text_a, text_b, f" ({len(text_a)} characters)")

    ids_a = [a or b for a, b in html_sections(one(before, "html"))]
    ids_b = [a or b for a, b in html_sections(one(after, "html"))]
    check("HTML sections in order", ids_a, ids_b, f" ({', '.join(ids_a)})")

    if failures:
        print(f"{len(failures)} difference(s)")
        sys.exit(1)
    print("no difference")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
