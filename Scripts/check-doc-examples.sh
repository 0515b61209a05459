#!/usr/bin/env bash
# Compiles every Swift code example in the README, the DocC catalogs and the libraries' doc
# comments, so that the examples users copy keep compiling against the public API.
#
# Each example becomes a function (or, when it declares types, functions or tests, file-level
# code) in a generated package that depends on StorePrice and StorePriceTesting by path; the
# package is built. Examples are compiled, not run: the files they name need not exist.
#
# Usage: Scripts/check-doc-examples.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT; echo "docs: working in $work"
mkdir -p "$work/Examples/Sources/DocExamples"
cat > "$work/Examples/Package.swift" <<PACKAGE
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "DocExamples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "StorePrice", path: "$root")],
    targets: [
        .target(name: "DocExamples", dependencies: [
            .product(name: "StorePrice", package: "StorePrice"),
            .product(name: "StorePriceTesting", package: "StorePrice"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
PACKAGE
python3 - "$root" "$work/Examples/Sources/DocExamples" <<'PY'
import os, re, sys
root, out = sys.argv[1], sys.argv[2]
sources = [os.path.join(root, "README.md")]
for folder in ("Sources/StorePrice", "Sources/StorePriceTesting"):
    for directory, _, files in os.walk(os.path.join(root, folder)):
        sources += [os.path.join(directory, f) for f in files if f.endswith((".md", ".swift"))]
count = 0
files = 0
for path in sorted(sources):
    text = open(path, encoding="utf-8").read()
    if path.endswith(".swift"):
        # Doc comments: strip the `///` and find the fenced blocks in them.
        lines = [re.sub(r"^\s*/// ?", "", l) for l in text.splitlines() if l.strip().startswith("///")]
        text = "\n".join(lines)
    blocks = re.findall(r"```swift\n(.*?)```", text, re.S)
    if not blocks:
        continue
    files += 1
    name = os.path.relpath(path, root)
    imports = {"import Foundation", "import StorePrice", "import StorePriceTesting"}
    statements = []
    declarations = []
    for block in blocks:
        count += 1
        imports |= {l.strip() for l in block.splitlines() if l.strip().startswith("import ")}
        body = "\n".join(l for l in block.splitlines() if not l.strip().startswith("import "))
        if re.search(r"^extension ", body, re.M):
            declarations.append(body)
        elif ".docc/" in path and not re.search(r"^@Test", body, re.M) and re.search(r"^(struct |enum )", body, re.M):
            # A type an article's later blocks use: at file level, private to the file, so that
            # two articles may use the same names.
            declarations.append(re.sub(r"^(struct|enum) ", r"fileprivate \1 ", body, flags=re.M))
        elif re.search(r"^(@Test|func |struct |final class |class |enum )", body, re.M):
            # Declarations of their own, kept apart so that two files may use the same names.
            declarations.append(f"struct Declarations{count} {{\n{body}\n}}")
        else:
            statements.append(body)
    # A DocC article's blocks continue one another (a later one uses what an earlier one made),
    # so they are compiled in order, in one function; the README's and the doc comments' stand
    # alone, each in its own.
    if ".docc/" not in path:
        declarations += [f"func example{count}_{i}() throws {{\n" + "\n".join("    " + l for l in b.splitlines()) + "\n}" for i, b in enumerate(statements)]
        statements = []
    code = "// " + name + "\n" + "\n".join(sorted(imports)) + "\n\n" + "\n\n".join(declarations) + "\n"
    if statements:
        joined = "\n".join(statements)
        code += f"func examples{files}() throws {{\n" + "\n".join("    " + l for l in joined.splitlines()) + "\n}\n"
    open(os.path.join(out, f"Examples{files:03d}.swift"), "w").write(code)
print(f"docs: {count} Swift examples")
PY
cd "$work/Examples"
if ! swift build >"$work/build.log" 2>&1; then
  grep -E "error:" "$work/build.log" | sort -u | head -40
  for file in $(grep -oE "Examples[0-9]+\.swift" "$work/build.log" | sort -u); do
    echo "--- $file"; head -1 "Sources/DocExamples/$file"
  done
  echo "docs: some examples do not compile"
  exit 1
fi
echo "docs: every example compiles"
