# --format order: the functions in first-call order, as a linker script
# fragment, checked against the order the demo calls them in.
mcuprof_format_test(NAME order COMMAND bash ${formats_src}/order.sh)
