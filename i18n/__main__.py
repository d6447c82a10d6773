"""``python -m i18n update|compile|check``: see i18n/catalogs.py."""

import sys

from i18n import catalogs


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        catalogs.update(argv[1:] or None)
    elif command == "compile":
        for path in catalogs.compile_all():
            print(path)
    elif command == "check":
        found = catalogs.problems(argv[1:] or None)
        print("\n".join(found) or "The catalogs are complete.")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
