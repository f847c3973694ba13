# The JSON document of the demo's profile, read by jq and read back by
# mcuprof itself (json.sh says what it checks).
mcuprof_format_test(NAME json PROGRAMS jq COMMAND bash ${formats_src}/json.sh)
