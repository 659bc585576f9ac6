#!/usr/bin/env python3
# What a screen reader learns of GNOME Shell, read as Orca reads it: through AT-SPI (pyatspi), on the session's
# accessibility bus. For the keyboard's part of shell-extension-traffic.sh.
#
#   shell-atspi.py focused          prints "ROLE<TAB>NAME<TAB>showing|hidden" of the Shell's accessible that has the
#                                   keyboard's focus; nothing (and exit 1) when none has
#   shell-atspi.py states PREFIX    prints the states of the Shell's first showing accessible whose name starts with
#                                   PREFIX, space-separated; exit 1 when there is none
import sys

import pyatspi


def shell():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == "gnome-shell":
            return app
    return None


def children(node):
    """A node's children with their states, leaving out any gone meanwhile (the menu is built again as its rows
    change, and its old actors go with their accessibles)."""
    try:
        count = node.childCount
    except Exception:
        return []
    found = []
    for index in range(count):
        try:
            child = node.getChildAtIndex(index)
            if child is not None:
                found.append((child, child.getState()))
        except Exception:
            continue
    return found


def showing(node, depth=0):
    """Every accessible under `node` that is showing, depth first; a hidden one's children are hidden too."""
    if depth > 60:
        return
    for child, states in children(node):
        if not states.contains(pyatspi.STATE_SHOWING):
            continue
        yield child, states
        yield from showing(child, depth + 1)


def focused(root):
    """The deepest accessible with the keyboard's focus (the stage's window has it too), hidden or not: a focus left
    on a hidden actor is what is tested."""
    found = None
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        for child, states in children(node):
            if states.contains(pyatspi.STATE_FOCUSED) and (found is None or depth >= found[2]):
                found = (child, states, depth)
            if depth < 60:
                stack.append((child, depth + 1))
    return found[:2] if found else None


def main():
    root = shell()
    if root is None:
        print("gnome-shell is not on the accessibility bus", file=sys.stderr)
        return 2
    # A node read as it goes away: asked again, a few times.
    for _ in range(5):
        try:
            if sys.argv[1] == "focused":
                found = focused(root)
                if found is None:
                    return 1
                node, states = found
                where = "showing" if states.contains(pyatspi.STATE_SHOWING) else "hidden"
                print(f"{node.getRoleName()}\t{node.name}\t{where}")
                return 0
            if sys.argv[1] == "states":
                for node, states in showing(root):
                    if node.name.startswith(sys.argv[2]):
                        print(" ".join(pyatspi.stateToString(state) for state in states.getStates()))
                        return 0
                return 1
        except Exception:
            continue
        print(f"no such question: {sys.argv[1]}", file=sys.stderr)
        return 2
    return 1


sys.exit(main())
