# The callgrind format, read by valgrind's callgrind_annotate and compared
# with gprof and the demo's own counts (callgrind.sh).
mcuprof_format_test(NAME callgrind PROGRAMS callgrind_annotate
                    COMMAND bash ${formats_src}/callgrind.sh)
