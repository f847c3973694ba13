#!/usr/bin/env bash
# install.sh WINBUILD WORKDIR ELF - the Windows release folder: `cmake --install`
# of the Windows build gives a folder a user unzips and runs from:
#   bin/mcuprof.exe, needing no DLL beyond Windows' own (mingw's runtime,
#   zlib and the demangler are linked in), the kit (share/mcuprof: the
#   runtime, linker fragments, CMake package, scripts, boards) and the
#   docs; the installed tool runs from it under Wine and finds its boards.
set -euo pipefail
test_name=windows.install
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
winbuild=$1 work=$2 elf=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/mcuprof-windows
cmake --install "$winbuild" --prefix "$prefix" --strip >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
for f in bin/mcuprof.exe share/doc/mcuprof/README.md share/doc/mcuprof/docs/windows.md \
         share/mcuprof/cmake/mcuprof.cmake share/mcuprof/linker/mcuprof_common.ld \
         share/mcuprof/boards/mps2-an385/qemu.conf share/mcuprof/hosttools/gdb/mcuprof.gdb \
         lib/cmake/mcuprof/mcuprofConfig.cmake; do
    [ -f "$prefix/$f" ] || fail "the folder has no $f"
done
# only Windows' own DLLs
dlls=$(x86_64-w64-mingw32-objdump -p "$prefix/bin/mcuprof.exe" | awk '/DLL Name:/ { print tolower($3) }' | sort -u)
echo "mcuprof.exe imports: $(echo $dlls)"
for d in $dlls; do
    case $d in
        kernel32.dll | user32.dll | advapi32.dll | ws2_32.dll | shell32.dll | msvcrt.dll | ucrtbase.dll | iphlpapi.dll | winmm.dll | \
        api-ms-win-crt-*.dll | bcrypt.dll | ntdll.dll | shlwapi.dll) ;;
        *) fail "mcuprof.exe needs $d, which the folder does not hold and Windows does not ship" ;;
    esac
done
ls "$prefix/bin" | grep -qiv 'mcuprof.exe' && fail "more than the tool in bin: $(ls "$prefix/bin")"
"$WINE" "$prefix/bin/mcuprof.exe" --version >"$work/version" || fail "the installed tool does not start"
cat "$work/version"
# record finds the boards' manifests beside the installed tool: it names
# the board of the ELF (QEMU itself is not installed in Wine's PATH)
"$WINE" "$prefix/bin/mcuprof.exe" record --print-command "$elf" >"$work/record" 2>&1 || true
cat "$work/record"
grep -q 'board mps2-an385' "$work/record" || fail "the installed record does not find its boards"
echo "ok   $test_name: $(du -sk "$prefix" | cut -f1) KB in $(find "$prefix" -type f | wc -l) files; mcuprof.exe $(($(stat -c %s "$prefix/bin/mcuprof.exe") / 1024)) KB"
