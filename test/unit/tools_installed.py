#!/usr/bin/env python3
"""Every command the stack and the scripts call is installed by scripts/install-deps
or comes with Debian's base system.

A simple scan, on purpose: each shell script under compose/, scripts/ and test/
is split into commands (at line starts and after ; && || | $( ` and the shell's
keywords), and the first word of each is a command name unless it is a shell
builtin or keyword, a function some scanned script defines, or a variable. Each
name found on this machine (command -v) is traced to its Debian package
(dpkg -S); that package must be in install-deps' list or be one of Debian's
base packages (Essential, or priority required/important). The failure this
catches is the one that bit us: a tool the test machine happens to have (jq)
that a fresh Debian 12 does not. A word that is no command here is listed, not
failed: the scan is rough, and a command missing everywhere fails the live
tests anyway.

Mutation check: delete `jq` (or `curl`) from install-deps' `packages=(...)` and
this test fails naming the command and its package.

Usage: tools_installed.py SOURCE_DIR [--install-deps FILE]
"""
import os
import re
import shutil
import subprocess
import sys

BUILTINS = set("""
. : [ [[ ]] alias bg bind break builtin caller case cd command compgen complete continue declare dirs disown do done
echo elif else enable esac eval exec exit export false fc fg fi for function getopts hash help history if in jobs
kill let local logout mapfile popd printf pushd pwd read readarray readonly return select set shift shopt source
suspend test then time times trap true type typeset ulimit umask unalias unset until wait while { } ! coproc
""".split())
# Words that precede the real command: the command is the next word.
PREFIXES = {"exec", "command", "nohup", "time", "env", "setsid", "nice", "builtin", "!", "then", "do", "else",
            "if", "while", "until", "elif", "{", "sudo"}


def shell_scripts(root):
    out = []
    for top in ("compose", "scripts", "test"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                p = os.path.join(d, f)
                try:
                    with open(p, "rb") as fh:
                        head = fh.read(64)
                except OSError:
                    continue
                first = head.split(b"\n", 1)[0]
                if f.endswith(".sh") or (first.startswith(b"#!") and b"sh" in first):
                    out.append(p)
    return sorted(out)


def strip_text(text):
    """The text with what is not commands blanked, line breaks kept: comments, quoted strings
    (left to right, so an apostrophe inside double quotes is text), arithmetic and array
    literals. A command substitution inside double quotes is kept: it runs a command."""
    out = []
    i, n = 0, len(text)
    stack = ["code"]  # code | dq; a "$(" inside dq pushes code, its ")" pops it
    depth = [0]       # open parentheses within each code level
    while i < n:
        c, state = text[i], stack[-1]
        if c == "\n":
            out.append(c)
        elif state == "code":
            if c == "\\":
                out.append("\n" if text.startswith("\n", i + 1) else " ")
                i += 1
            elif c == "'":
                j = text.find("'", i + 1)
                j = n - 1 if j < 0 else j
                out.append("\n" * text.count("\n", i, j + 1))
                i = j
            elif c == '"':
                stack.append("dq")
                out.append(" ")
            elif c == "#" and (i == 0 or text[i - 1] in " \t;\n"):
                j = text.find("\n", i)
                i = (n if j < 0 else j) - 1
            elif c == "(" :
                depth[-1] += 1
                out.append(c)
            elif c == ")":
                if depth[-1] == 0 and len(stack) > 1:
                    stack.pop()
                    depth.pop()
                    out.append(" ; ")
                else:
                    depth[-1] = max(0, depth[-1] - 1)
                    out.append(c)
            else:
                out.append(c)
        else:  # inside double quotes
            if c == "\\":
                out.append("\n" if text.startswith("\n", i + 1) else "")
                i += 1
            elif c == '"':
                stack.pop()
                out.append(" ")
            elif text.startswith("$(", i) and not text.startswith("$((", i):
                stack.append("code")
                depth.append(0)
                out.append(" ; ")
                i += 1
        i += 1
    text = "".join(out)
    text = re.sub(r"\(\((?:[^()]|\([^()]*\))*\)\)", "", text)
    text = re.sub(r"=\([^)]*\)", lambda m: "=" + "\n" * m.group(0).count("\n"), text)
    return text


def drop_heredocs(text):
    """Here-document bodies are input to a command (Python, SQL, config), not commands."""
    out, end = [], None
    for line in text.splitlines():
        if end is not None:
            out.append("")
            if line.strip() == end:
                end = None
            continue
        m = re.search(r"<<-?\s*['\"]?([A-Za-z_]+)['\"]?", line)
        if m:
            end = m.group(1)
        out.append(line)
    return "\n".join(out)


def commands_of(text):
    """(command name, line number) for each simple command a script's text runs."""
    found = []
    for n, line in enumerate(strip_text(drop_heredocs(text)).splitlines(), 1):
        # A case arm's pattern (`foo|bar) cmd`): drop the pattern, keep the command.
        line = re.sub(r"^\s*[^()=\s]*[^()=\s$]\)\s*", "", line)
        for seg in re.split(r"\$\(|`|&&|\|\||;|\||\(|\)", line):
            words = seg.split()
            while words and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=", words[0]) or words[0] in PREFIXES):
                if words[0] == "env":
                    words = words[1:]
                    while words and words[0].startswith("-"):
                        words = words[1:]
                    continue
                words = words[1:]
            if not words:
                continue
            w = words[0]
            if re.fullmatch(r"[a-z][a-z0-9_+-]*", w):
                found.append((w, n))
    return found


def functions_of(text):
    return set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_:-]*)\s*\(\)", text, re.M))


def install_list(path):
    text = open(path).read()
    m = re.search(r"packages=\(([^)]*)\)", text, re.S)
    if not m:
        sys.exit(f"tools_installed: no packages=(...) list in {path}")
    return set(m.group(1).split())


def base_packages():
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\t${Priority}\t${Essential}\n"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    base = set()
    for row in out.splitlines():
        pkg, prio, ess = (row.split("\t") + ["", ""])[:3]
        if ess == "yes" or prio in ("required", "important"):
            base.add(pkg.split(":")[0])
    return base


def package_of(cmd):
    path = shutil.which(cmd)
    if not path:
        return None, None
    for candidate in (path, os.path.realpath(path)):
        for p in {candidate, candidate.replace("/usr/bin/", "/bin/"), candidate.replace("/bin/", "/usr/bin/")}:
            r = subprocess.run(["dpkg", "-S", p], capture_output=True, text=True, timeout=30)
            if r.returncode == 0 and r.stdout:
                return path, r.stdout.split(":")[0].split(",")[0].strip()
    return path, ""


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    deps = os.path.join(root, "scripts", "install-deps")
    if "--install-deps" in sys.argv:
        deps = sys.argv[sys.argv.index("--install-deps") + 1]
    scripts = shell_scripts(root)
    texts = {p: open(p, errors="replace").read() for p in scripts}
    defined = set().union(*(functions_of(t) for t in texts.values()))
    own = {os.path.basename(p) for p in scripts}  # the project's own scripts, called by name
    uses = {}
    for p, t in texts.items():
        for cmd, n in commands_of(t):
            if cmd in BUILTINS or cmd in defined or cmd in own:
                continue
            uses.setdefault(cmd, f"{os.path.relpath(p, root)}:{n}")
    installed = install_list(deps)
    base = base_packages()
    bad, unresolved = [], []
    for cmd in sorted(uses):
        path, pkg = package_of(cmd)
        where = uses[cmd]
        if path is None:
            unresolved.append(cmd)
        elif pkg and pkg not in installed and pkg not in base:
            bad.append(f"{cmd} ({where}): from Debian package {pkg}, which install-deps does not install "
                       f"and Debian's base system does not have")
        elif not pkg and not path.startswith(("/usr/", "/bin", "/sbin")):
            pass  # a tool install-deps fetched itself (Trino's Java) or the build made
        elif not pkg:
            bad.append(f"{cmd} ({where}): {path} belongs to no Debian package: who installs it?")
    checked = sorted(set(uses) - set(unresolved))
    print(f"tools_installed: {len(scripts)} scripts; {len(checked)} commands traced to their packages: {' '.join(checked)}")
    print(f"tools_installed: words in a command position that are no command here (text the scan took for one): "
          f"{' '.join(unresolved)}")
    if bad:
        print("tools_installed: commands the install step does not provide:")
        for b in bad:
            print("  " + b)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
