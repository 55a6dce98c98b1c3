"""Session reports, built from the stored events (never from the screen).

- `record`: frozen dataclasses of everything a report needs (`SessionRecord` and its parts).
- `loader.load_session_record(url_or_db, table=None, session_id=None, room="")`: read one stored
  session (default: the last one) through the session service's read functions.
- `session_pdf.write_session_report(record, out)`: the signed session report (reportlab).
- `table_close_pdf.write_table_close_report(record, out, counted)`: the one-page table close.
- `exports`: CSV of hands and of chip transactions, and the session as an `ofc-desk replay` script.

Only `ofc_desk.desk.records.report_actions` puts these on screen (print preview, printing, Save as PDF).
"""
