"""Count the import cycles inside a package (default `advisor`), from grimp's graph.

Imports inside functions count too. Prints the elementary cycles between modules and the imports
grimp nominates to break the cycles between siblings at every depth, which is what import-linter's
`acyclic_siblings` contract (pyproject.toml) fails on.

Run: .venv/bin/python scripts/import_cycles.py [package]
For another revision: git archive REV advisor | tar -x -C /tmp/rev, then
PYTHONPATH=/tmp/rev .venv/bin/python scripts/import_cycles.py
"""

from __future__ import annotations

import sys

import grimp


def elementary_cycles(edges: dict[str, list[str]]) -> int:
    """Each cycle once, counted from its smallest module."""
    found = 0

    def walk(start: str, node: str, seen: set[str]) -> None:
        nonlocal found
        for nxt in edges[node]:
            if nxt == start:
                found += 1
            elif nxt > start and nxt not in seen:
                walk(start, nxt, seen | {nxt})

    for module in edges:
        walk(module, module, {module})
    return found


def sibling_cycle_breakers(
    graph: grimp.ImportGraph, package: str
) -> dict[str, set[tuple[str, str]]]:
    breakers: dict[str, set[tuple[str, str]]] = {}
    children = graph.find_children(package)
    if len(children) >= 2 and (nominated := graph.nominate_cycle_breakers(package)):
        breakers[package] = nominated
    for child in children:
        breakers.update(sibling_cycle_breakers(graph, child))
    return breakers


def main(package: str) -> None:
    graph = grimp.build_graph(package)
    modules = graph.find_descendants(package) | {package}
    edges = {
        m: sorted(x for x in graph.find_modules_directly_imported_by(m) if x in modules)
        for m in sorted(modules)
    }
    breakers = sibling_cycle_breakers(graph, package)
    print(f"{len(modules)} modules, {sum(map(len, edges.values()))} imports inside {package}")
    print(f"elementary import cycles between modules: {elementary_cycles(edges)}")
    print(f"imports to remove to break every sibling cycle: {sum(map(len, breakers.values()))}")
    for parent, imports in sorted(breakers.items()):
        for importer, imported in sorted(imports):
            print(f"  in {parent}: {importer} -> {imported}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "advisor")
