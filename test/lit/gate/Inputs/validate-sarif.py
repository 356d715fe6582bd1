"""Validates a SARIF file against the SARIF 2.1.0 JSON schema (draft-04),
formats included ("uri", "uri-reference": a URI with a space is invalid).
Usage: validate-sarif.py SCHEMA SARIF. Prints "valid", or each error and
exits 1. Needs Debian's python3-jsonschema and python3-rfc3987 (the URI
format checks)."""
import json
import sys

import jsonschema

with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
with open(sys.argv[2], encoding="utf-8") as f:
    doc = json.load(f)
checker = jsonschema.FormatChecker()
for fmt in ("uri", "uri-reference"):
    if fmt not in checker.checkers:
        sys.exit(f"format '{fmt}' is not checked: install python3-rfc3987")
validator = jsonschema.Draft4Validator(schema, format_checker=checker)
errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
for e in errors:
    print("/".join(map(str, e.absolute_path)) + ": " + e.message)
print("valid" if not errors else f"{len(errors)} errors")
sys.exit(1 if errors else 0)
