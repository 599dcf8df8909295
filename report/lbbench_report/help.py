"""`lbbench report --help` in the style of the other commands' help (CLI11's, as `lbbench run
--help` prints it): the description, Usage, Positionals and Options, one line an option."""
import argparse
import sys

COLUMN = 30  # where CLI11 starts an option's description


def _kind(action):
    """CLI11's type text: TEXT, with the value's name after a colon where it has one."""
    if action.nargs == 0:
        return ""
    kind = "TEXT" + (f":{action.metavar}" if action.metavar and action.option_strings else "")
    if action.nargs in ("+", "*"):
        kind += " ..."
    return kind + (" REQUIRED" if not action.option_strings and action.nargs != "*" else "")


def _line(name, kind, text):
    head = f"  {name} {kind}".rstrip()
    if len(head) + 1 > COLUMN:
        return f"{head}\n{'':{COLUMN}}{text}"
    return f"{head:{COLUMN}}{text}"


def format_help(parser):
    actions = [a for a in parser._actions if a.help != argparse.SUPPRESS]
    positionals = [a for a in actions if not a.option_strings]
    options = [a for a in actions if a.option_strings]
    usage = " ".join([f"Usage: {parser.prog}", "[OPTIONS]"]
                     + [(a.metavar or a.dest) + ("..." if a.nargs in ("+", "*") else "")
                        for a in positionals])
    out = [parser.description, usage, "", "Positionals:"]
    out += [_line(a.metavar or a.dest, _kind(a), a.help) for a in positionals]
    out += ["", "Options:"]
    out += [_line(",".join(a.option_strings), _kind(a), a.help) for a in options]
    return "\n".join(out) + "\n"


class HelpAction(argparse.Action):
    """-h, --help: the help above, then exit 0."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="Print this help message and exit"):  # noqa: A002 - argparse's name
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(format_help(parser))
        parser.exit()
