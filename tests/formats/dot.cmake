# The DOT call graph, rendered by graphviz and checked against the demo's
# own counts (dot.sh).
mcuprof_format_test(NAME dot PROGRAMS dot COMMAND bash ${formats_src}/dot.sh)
