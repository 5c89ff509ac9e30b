"""What openpyxl reads of an .xlsx, digested: an independent reader's view of a workbook, made
small enough to keep in the repository and compare with a later writer's.

Usage: workbook_reading.py FILE. Prints JSON: the document properties, and per sheet (in order) its
frozen pane, Excel tables (name, range, style), merged ranges, column widths, row count, and the
SHA-256 of every cell it holds, row by row: coordinate, value, cached result of formulas, data type,
number format, bold, italic and quotePrefix; the digest of each column too, so that a difference
can be traced to its columns.
"""
import datetime
import hashlib
import json
import sys

import openpyxl


def plain(value):
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    return value


def main():
    path = sys.argv[1]
    # Formulas, styles, tables and widths as the ordinary mode reads them; the formulas' cached
    # results in the (faster) read-only mode.
    full = openpyxl.load_workbook(path)
    results = openpyxl.load_workbook(path, read_only=True, data_only=True)
    sheets = []
    for ws in full.worksheets:
        whole = hashlib.sha256()
        columns = {}
        rows = 0
        for row_f, row_v in zip(ws.iter_rows(), results[ws.title].iter_rows()):
            rows += 1
            for cf, cv in zip(row_f, row_v):
                if cf.value is None and not cf.has_style:
                    continue
                font = cf.font
                cell = [
                    cf.coordinate,
                    plain(cf.value),
                    plain(cv.value),
                    cf.data_type,
                    cf.number_format,
                    bool(font.b),
                    bool(font.i),
                    bool(cf.quotePrefix),
                ]
                text = json.dumps(cell, ensure_ascii=False).encode("utf8")
                whole.update(text)
                columns.setdefault(cf.column_letter, hashlib.sha256()).update(text)
        sheet = ws
        sheets.append({
            "name": ws.title,
            "rows": rows,
            "freeze": sheet.freeze_panes,
            "tables": {
                table.name: [
                    table.ref,
                    table.tableStyleInfo.name if table.tableStyleInfo else None,
                    bool(table.tableStyleInfo.showRowStripes) if table.tableStyleInfo else None,
                ]
                for table in sheet.tables.values()
            },
            "merged": [str(m) for m in sheet.merged_cells.ranges],
            "widths": {k: v.width for k, v in sorted(sheet.column_dimensions.items())},
            "cells": whole.hexdigest(),
            "columns": {k: h.hexdigest() for k, h in sorted(columns.items())},
        })
    p = full.properties
    properties = {
        key: plain(getattr(p, key))
        for key in ("title", "subject", "creator", "lastModifiedBy", "description", "keywords", "category", "created", "modified")
    }
    json.dump({"properties": properties, "sheets": sheets}, sys.stdout, indent=1, sort_keys=True)


main()
