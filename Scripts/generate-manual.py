#!/usr/bin/env python3
"""Writes the storeprice(1) man page, every character kept.

    Scripts/generate-manual.py [--storeprice PATH] [--output storeprice.1]

swift-argument-parser's generate-manual plugin drops every non-ASCII character (`￥1,200` becomes
`1,200`, the Japanese examples vanish). This script reads the same command tree
(`storeprice --experimental-dump-help`) and writes mdoc in which each non-ASCII character is a
groff escape (`\\[uFFE5]`), so that man, groff and mandoc show it on any terminal.
"""
import argparse
import datetime
import json
import re
import subprocess
import textwrap


def escape(text):
    """Text for an mdoc line: backslashes, and every non-ASCII character as \\[uXXXX]."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ord(ch) > 0x7E:
            out.append("\\[u%04X]" % ord(ch))
        elif ord(ch) < 0x20:
            out.append(" ")
        else:
            out.append(ch)
    line = "".join(out)
    # A line that starts with a period or an apostrophe would be read as a request.
    return "\\&" + line if line[:1] in (".", "'") else line


def prose(text):
    """Filled text as mdoc wants it: a new line for each sentence, lines of at most 80 bytes."""
    lines = []
    for sentence in re.split(r"(?<=[A-Za-z0-9)\]'\"][.!?])\s+(?=\S)", text.strip()):
        for line in textwrap.wrap(sentence, 72, break_long_words=False, break_on_hyphens=False):
            lines.append(escape(line))
    return lines


def paragraphs(discussion):
    """Prose paragraphs and indented example blocks, in order."""
    blocks = []
    for block in discussion.strip("\n").split("\n\n"):
        lines = block.split("\n")
        examples = [line for line in lines if line.startswith("  ")]
        blocks.append(("literal" if examples else "prose", lines))
    return blocks


def write_discussion(out, discussion):
    for kind, lines in paragraphs(discussion):
        if kind == "literal":
            # A heading line ("Examples:") stays prose; the indented lines keep their columns.
            head = [line for line in lines if not line.startswith("  ")]
            body = [line for line in lines if line.startswith("  ")]
            if head:
                out.append(".Pp")
                out.extend(prose(" ".join(head)))
            out.append(".Bd -literal -offset indent")
            out.extend(escape(line[2:]) for line in body)
            out.append(".Ed")
        else:
            out.append(".Pp")
            out.extend(prose(" ".join(line.strip() for line in lines)))


def option_names(argument):
    names = argument.get("names") or []
    shown = []
    for name in names:
        if name["kind"] == "long":
            shown.append("-" + name["name"])
        elif name["kind"] == "short":
            shown.append(name["name"])
        elif name["kind"] == "longWithSingleDash":
            shown.append(name["name"])
    return shown


def write_arguments(out, arguments):
    shown = [argument for argument in arguments if argument.get("shouldDisplay", True)]
    if not shown:
        return
    out.append(".Bl -tag -width 6n")
    for argument in shown:
        value = argument.get("valueName", "")
        if argument["kind"] == "positional":
            out.append(".It Ar " + escape(value))
        else:
            names = option_names(argument)
            item = " , ".join("Fl " + escape(name) for name in names)
            if argument["kind"] == "option":
                item += " Ar " + escape(value)
            out.append(".It " + item)
        abstract = argument.get("abstract", "")
        if argument.get("allValues"):
            abstract += " One of: " + ", ".join(argument["allValues"]) + "."
        if argument.get("defaultValue"):
            abstract += " Default: " + argument["defaultValue"] + "."
        out.extend(prose(abstract) or ["\\&"])
    out.append(".El")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storeprice", default=".build/debug/storeprice")
    parser.add_argument("--output", default="storeprice.1")
    args = parser.parse_args()
    dump = json.loads(subprocess.run(
        [args.storeprice, "--experimental-dump-help"], capture_output=True, text=True, check=True).stdout)
    root = dump["command"]
    today = datetime.date.today()
    out = [
        '.\\" storeprice(1), written by Scripts/generate-manual.py from storeprice --experimental-dump-help',
        ".Dd %s %d, %d" % (today.strftime("%B"), today.day, today.year),
        ".Dt STOREPRICE 1",
        ".Os",
        ".Sh NAME",
        ".Nm storeprice",
        ".Nd " + escape(root["abstract"].rstrip(".")),
        ".Sh SYNOPSIS",
        ".Nm",
        ".Ar subcommand",
        ".Op Ar options",
        ".Sh DESCRIPTION",
    ]
    write_discussion(out, root.get("discussion", ""))
    write_arguments(out, root.get("arguments", []))
    out.append(".Sh COMMANDS")
    for command in root.get("subcommands", []):
        if not command.get("shouldDisplay", True) or command["commandName"] == "help":
            continue
        out.append(".Ss " + escape("storeprice " + command["commandName"]))
        out.extend(prose(command.get("abstract", "")))
        write_discussion(out, command.get("discussion", ""))
        write_arguments(out, command.get("arguments", []))
    out.append(".Sh SEE ALSO")
    out.append("The DocC catalog in Sources/StorePrice/StorePrice.docc, and README.md.")
    # A paragraph break right after a section heading is no break: mdoc warns of it.
    out = [line for index, line in enumerate(out)
           if not (line == ".Pp" and index > 0 and out[index - 1].startswith((".Sh", ".Ss")))]
    with open(args.output, "w", encoding="ascii") as file:
        file.write("\n".join(out) + "\n")
    print("wrote " + args.output)


if __name__ == "__main__":
    main()
