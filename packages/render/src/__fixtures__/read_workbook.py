"""Dumps an .xlsx as JSON with openpyxl, an independent reader for the render tests.

Usage: read_workbook.py FILE [MAX_ROWS]. The document properties, and for each sheet: name,
dimensions, frozen pane, autofilter, Excel tables (name and range), merged ranges, column widths, and
per cell (first MAX_ROWS rows) its value, cached result, data type, number format, quotePrefix style,
whether it is a date and the Python-formatted text of numbers (independent of the renderer's
formatter).
"""
import datetime
import json
import sys

import openpyxl


def plain(value):
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    return value


def python_text(value, number_format):
    """Format a number as Excel shows it, for the few formats the report uses (Python's own rules)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    if number_format == '#,##0':
        return f"{value:,.0f}"
    if number_format == '#,##0.00':
        return f"{value:,.2f}"
    if number_format == '#,##0.0%':
        return f"{value * 100:,.1f}%"
    if number_format == '0':
        return f"{value:.0f}"
    return None


def main():
    path = sys.argv[1]
    max_rows = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    formulas = openpyxl.load_workbook(path)
    values = openpyxl.load_workbook(path, data_only=True)
    out = []
    for ws in formulas.worksheets:
        wv = values[ws.title]
        max_row, max_column = ws.max_row, ws.max_column  # before iterating, which can grow them
        rows = []
        last = min(max_rows, max_row)
        for r_f, r_v in zip(ws.iter_rows(max_row=last), wv.iter_rows(max_row=last)):
            rows.append([
                {
                    "value": plain(cf.value),
                    "result": plain(cv.value),
                    "type": cf.data_type,
                    "format": cf.number_format,
                    "isDate": cf.is_date,
                    "quotePrefix": bool(cf.quotePrefix),
                    "text": python_text(cv.value, cf.number_format),
                }
                for cf, cv in zip(r_f, r_v)
            ])
        out.append({
            "name": ws.title,
            "maxRow": max_row,
            "maxColumn": max_column,
            "freeze": ws.freeze_panes,
            "autoFilter": ws.auto_filter.ref,
            "tables": {name: ref for name, ref in ws.tables.items()},
            "merged": [str(m) for m in ws.merged_cells.ranges],
            "widths": {k: v.width for k, v in ws.column_dimensions.items()},
            "rows": rows,
        })
    p = formulas.properties
    properties = {
        key: plain(getattr(p, key))
        for key in ("title", "subject", "creator", "lastModifiedBy", "description", "keywords", "category", "created", "modified")
    }
    json.dump({"properties": properties, "sheets": out}, sys.stdout)


main()
