# mcuprof.gdb - dump the profile image from GDB (any GDB server: OpenOCD,
# pyOCD, J-Link, Black Magic Probe, QEMU).
#
#   (gdb) source hosttools/gdb/mcuprof.gdb
#   (gdb) mcuprof-dump mcuprof.img          consistent snapshot (freeze handshake)
#   (gdb) mcuprof-dump-halted mcuprof.img   plain dump of the stopped core
#   $ mcuprof convert mcuprof.img -o gmon.out
#
# The firmware's ELF must be loaded (`file app.elf`): the image lies between
# the symbols __mcuprof_start and __mcuprof_end. Offsets below are those of
# include/mcuprof/image.h (MCUPROF_OFF_FREEZE_REQUEST 188, _ACK 192).
#
# mcuprof-dump writes a token to the header's freeze_request and lets the
# core run until the firmware's sampler tick copies it to freeze_ack (a
# watchpoint on freeze_ack stops the core right then); from that moment the
# hook and the sampler leave the tables alone, so the dump is consistent
# even if a hook was about to link a new arc. After the dump it writes 0
# and waits for freeze_ack to return to 0. The sampler timer must be
# running, or the core runs on without ever stopping: then interrupt it
# (Ctrl-C) and use mcuprof-dump-halted.
#
# GDB keeps the core stopped afterwards, as after any command: `continue`
# or `detach` lets it run (OpenOCD keeps it halted after `detach`:
# `monitor resume` first).
#
# Profile exactly the phase you choose, without changing the firmware:
#   (gdb) mcuprof-stop          clear the ARCS and SAMPLING state bits
#   (gdb) mcuprof-start         set them
#   (gdb) mcuprof-reset         zero the tables (as `mcuprof pull --reset`)
#   (gdb) mcuprof-status        "running, N samples, M arcs" and the header
# The first three freeze the image as mcuprof-dump does, change it, and
# release it: the sampler tick that serves the release applies the state
# bits to the call hook (mcuprof_apply_hook_mode), so the change holds
# exactly from that tick on. mcuprof-stop-halted, mcuprof-start-halted and
# mcuprof-reset-halted change the stopped core without a freeze (firmware
# whose sampler timer does not run); they switch the hook's mode pointer
# mcuprof_hook_dispatch themselves, as the runtime would. A freeze another
# host holds (freeze_request set) is refused; `set $mcuprof_force = 1`
# takes it over.

init-if-undefined $mcuprof_force = 0

define mcuprof-fail
    # GDB's command language has no command that fails on purpose: an
    # assignment to a symbol that does not exist ends this command and
    # every command that called it, after the message printed before.
    set var mcuprof_command_failed = 0
end
document mcuprof-fail
Stop the mcuprof command that called this one (after its message).
end

define mcuprof-wait-ack
    # $arg0: the value freeze_ack must reach
    if *(unsigned int *)((char *)&__mcuprof_start + 192) != $arg0
        watch *(unsigned int *)((char *)&__mcuprof_start + 192)
        set $mcuprof_wp = $bpnum
        while *(unsigned int *)((char *)&__mcuprof_start + 192) != $arg0
            continue
        end
        delete $mcuprof_wp
    end
end
document mcuprof-wait-ack
Let the core run until the profile image's freeze_ack equals ARG0.
end

define mcuprof-dump
    if $argc != 1
        echo Usage: mcuprof-dump FILE\n
        mcuprof-fail
    end
    # another host's freeze: refused unless $mcuprof_force, as pull does
    mcuprof-check
    mcuprof-check-free
    # A token the firmware has not acknowledged yet, never 0.
    set $mcuprof_token = *(unsigned int *)((char *)&__mcuprof_start + 192) + 1
    if $mcuprof_token == 0
        set $mcuprof_token = 1
    end
    set {unsigned int}((char *)&__mcuprof_start + 188) = $mcuprof_token
    mcuprof-wait-ack $mcuprof_token
    # (no spaces inside the two addresses: dump splits its arguments at spaces)
    dump binary memory $arg0 (char*)&__mcuprof_start (char*)&__mcuprof_end
    set {unsigned int}((char *)&__mcuprof_start + 188) = 0
    mcuprof-wait-ack 0
    echo mcuprof: profile image written (frozen snapshot)\n
end
document mcuprof-dump
Dump the mcuprof profile image to FILE as a consistent snapshot: freeze the
tables through the firmware's sampler tick, dump, release.
Then: mcuprof convert FILE -o gmon.out
end

define mcuprof-dump-halted
    if $argc != 1
        echo Usage: mcuprof-dump-halted FILE\n
        mcuprof-fail
    end
    # (no spaces inside the two addresses: dump splits its arguments at spaces)
    dump binary memory $arg0 (char*)&__mcuprof_start (char*)&__mcuprof_end
    echo mcuprof: profile image written (core stopped)\n
end
document mcuprof-dump-halted
Dump the mcuprof profile image to FILE while the core is stopped, without
the freeze handshake (for firmware whose sampler timer does not run).
end

# --- profile control -------------------------------------------------
# Header offsets (include/mcuprof/image.h): image_size 12, arcs_offset 24,
# arcs_used 32, arc_record_size 36 (16-bit), buckets_offset 40, nbuckets
# 44, counter_bytes 53 (8-bit), nranges 54 (8-bit), ranges 88 (24 bytes
# each: hist_offset +16, nbins +20), state 184 (ARCS 1, SAMPLING 2, FROZEN
# 4), freeze_request 188, freeze_ack 192, generation 196, the lost_*
# counters 200..220, samples_taken 224, missed_periods 232,
# arc_table_repairs 244, ext_offset 248, deferred_samples 252.

define mcuprof-check
    set $mcuprof_h = (char *)&__mcuprof_start
    # MCUPROF_IMAGE_MAGIC of include/mcuprof/image.h, which a GDB script
    # cannot include (tests/magic_spelling.cmake keeps the two alike)
    if *(unsigned int *)$mcuprof_h != 0x4650434d
        printf "mcuprof: error: no profile image at 0x%lx (magic 0x%08x): firmware without mcuprof, or not initialised yet\n", (unsigned long)$mcuprof_h, *(unsigned int *)$mcuprof_h
        mcuprof-fail
    end
end
document mcuprof-check
Refuse memory at __mcuprof_start that does not hold a profile image.
end

define mcuprof-check-free
    if *(unsigned int *)($mcuprof_h + 188) != 0
        if $mcuprof_force
            printf "mcuprof: warning: took over the freeze of another host (freeze_request 0x%x): a snapshot it is taking may not be consistent\n", *(unsigned int *)($mcuprof_h + 188)
        else
            printf "mcuprof: error: the image is frozen by another host (freeze_request 0x%x, freeze_ack 0x%x): a pull in progress, or one that ended without releasing it; set $mcuprof_force = 1 to take it over\n", *(unsigned int *)($mcuprof_h + 188), *(unsigned int *)($mcuprof_h + 192)
            mcuprof-fail
        end
    end
end
document mcuprof-check-free
Refuse an image whose freeze_request another host set, unless $mcuprof_force.
end

define mcuprof-freeze
    # A token the firmware has not acknowledged yet, never 0.
    set $mcuprof_token = *(unsigned int *)($mcuprof_h + 192) + 1
    if $mcuprof_token == 0
        set $mcuprof_token = 1
    end
    set {unsigned int}($mcuprof_h + 188) = $mcuprof_token
    mcuprof-wait-ack $mcuprof_token
end
document mcuprof-freeze
Ask for a freeze and let the core run until the firmware acknowledges it.
end

define mcuprof-release
    set {unsigned int}($mcuprof_h + 188) = 0
    mcuprof-wait-ack 0
end
document mcuprof-release
End the freeze and let the core run until the firmware acknowledges that.
end

define mcuprof-set-state
    # $arg0: bits to set, $arg1: bits to clear
    set {unsigned int}($mcuprof_h + 184) = (*(unsigned int *)($mcuprof_h + 184) | $arg0) & ~$arg1
end
document mcuprof-set-state
Set the state bits ARG0 and clear ARG1 (ARCS 1, SAMPLING 2).
end

define mcuprof-apply-hook
    # What mcuprof_apply_hook_mode does at a freeze's release: the hook's
    # entry point for the state bits (off without ARCS, the slow path while
    # FROZEN, the fast path otherwise), with bit 0 (ARM's Thumb bit) as the
    # runtime stored it.
    set $mcuprof_s = *(unsigned int *)($mcuprof_h + 184)
    if ($mcuprof_s & 1) == 0
        set $mcuprof_e = (unsigned long)&mcuprof_hook_off
    else
        if ($mcuprof_s & 4) != 0
            set $mcuprof_e = (unsigned long)&mcuprof_hook_slow
        else
            set $mcuprof_e = (unsigned long)&mcuprof_hook_record
        end
    end
    set $mcuprof_d = (unsigned long *)&mcuprof_hook_dispatch
    set *$mcuprof_d = ($mcuprof_e & ~1) | (*$mcuprof_d & 1)
end
document mcuprof-apply-hook
Switch the call hook to the mode the state bits ask for (a stopped core).
end

define mcuprof-zero
    # $mcuprof_zo: offset from the image start, $mcuprof_zn: bytes (even)
    while $mcuprof_zn >= 4
        set {unsigned int}($mcuprof_h + $mcuprof_zo) = 0
        set $mcuprof_zo = $mcuprof_zo + 4
        set $mcuprof_zn = $mcuprof_zn - 4
    end
    if $mcuprof_zn >= 2
        set {unsigned short}($mcuprof_h + $mcuprof_zo) = 0
    end
end
document mcuprof-zero
Zero $mcuprof_zn bytes at offset $mcuprof_zo of the profile image.
end

define mcuprof-drain
    # What `mcuprof pull --reset` zeroes (hosttools/mcuprof/links/snapshot.c),
    # the counters first: the lost_* counters and samples_taken,
    # missed_periods, arc_table_repairs, deferred_samples, arcs_used;
    # generation + 1; the arc records in use, the buckets, the bins, and
    # the counts of the extension tables (their keys and names stay).
    set $mcuprof_zo = 200
    set $mcuprof_zn = 28
    mcuprof-zero
    # summed over drains like the losses, so zeroed like them:
    # missed_periods, arc_table_repairs, deferred_samples
    set {unsigned int}($mcuprof_h + 232) = 0
    set {unsigned int}($mcuprof_h + 244) = 0
    set {unsigned int}($mcuprof_h + 252) = 0
    set $mcuprof_used = *(unsigned int *)($mcuprof_h + 32)
    set {unsigned int}($mcuprof_h + 32) = 0
    set {unsigned int}($mcuprof_h + 196) = *(unsigned int *)($mcuprof_h + 196) + 1
    set $mcuprof_rs = *(unsigned short *)($mcuprof_h + 36)
    set $mcuprof_zo = *(unsigned int *)($mcuprof_h + 24) + $mcuprof_rs
    set $mcuprof_zn = $mcuprof_used * $mcuprof_rs
    mcuprof-zero
    set $mcuprof_zo = *(unsigned int *)($mcuprof_h + 40)
    set $mcuprof_zn = *(unsigned int *)($mcuprof_h + 44) * 2
    mcuprof-zero
    set $mcuprof_r = 0
    while $mcuprof_r < *(unsigned char *)($mcuprof_h + 54)
        set $mcuprof_zo = *(unsigned int *)($mcuprof_h + 88 + 24 * $mcuprof_r + 16)
        set $mcuprof_zn = *(unsigned int *)($mcuprof_h + 88 + 24 * $mcuprof_r + 20) * *(unsigned char *)($mcuprof_h + 53)
        mcuprof-zero
        set $mcuprof_r = $mcuprof_r + 1
    end
    # extension tables, as hosttools/mcuprof/links/drain_ext.c: lost (+16)
    # and invalid (+20) of each, and the counts of each entry (their keys
    # and names stay): kind 1 contexts (+4), 2 tasks (+8), 3 and 8 call
    # paths (+0), 5 late samples (+8: samples and missed), 7 held-off
    # samples (+0: samples and periods; +12: scans); kind 4, the spill
    # table, is emptied (used, +12, and every entry); 6, blockers, has none
    set $mcuprof_x = *(unsigned int *)($mcuprof_h + 248)
    while $mcuprof_x != 0 && $mcuprof_x + 24 <= *(unsigned int *)($mcuprof_h + 12)
        set $mcuprof_k = *(unsigned short *)($mcuprof_h + $mcuprof_x)
        set $mcuprof_xs = *(unsigned int *)($mcuprof_h + $mcuprof_x + 4)
        if $mcuprof_k == 0 || $mcuprof_xs == 0
            loop_break
        end
        if $mcuprof_k >= 1 && $mcuprof_k <= 8
            set $mcuprof_es = *(unsigned short *)($mcuprof_h + $mcuprof_x + 2)
            set $mcuprof_cap = *(unsigned int *)($mcuprof_h + $mcuprof_x + 8)
            set {unsigned int}($mcuprof_h + $mcuprof_x + 16) = 0
            set {unsigned int}($mcuprof_h + $mcuprof_x + 20) = 0
            if $mcuprof_k == 4
                set {unsigned int}($mcuprof_h + $mcuprof_x + 12) = 0
                set $mcuprof_zo = $mcuprof_x + 24
                set $mcuprof_zn = $mcuprof_cap * $mcuprof_es
                mcuprof-zero
            end
            # where each entry keeps its counts, and how many bytes
            set $mcuprof_so = $mcuprof_k == 1 ? 4 : ($mcuprof_k == 2 || $mcuprof_k == 5) ? 8 : 0
            set $mcuprof_sn = ($mcuprof_k == 5 || $mcuprof_k == 7) ? 8 : ($mcuprof_k == 4 || $mcuprof_k == 6) ? 0 : 4
            set $mcuprof_i = 0
            while $mcuprof_sn && $mcuprof_i < $mcuprof_cap
                set $mcuprof_zo = $mcuprof_x + 24 + $mcuprof_i * $mcuprof_es + $mcuprof_so
                set $mcuprof_zn = $mcuprof_sn
                mcuprof-zero
                set $mcuprof_i = $mcuprof_i + 1
            end
            if $mcuprof_k == 7 && $mcuprof_cap
                set {unsigned int}($mcuprof_h + $mcuprof_x + 24 + 12) = 0
            end
        end
        set $mcuprof_x = $mcuprof_x + $mcuprof_xs
    end
end
document mcuprof-drain
Zero the profile image's tables as `mcuprof pull --reset` does (frozen or stopped).
end

define mcuprof-line
    set $mcuprof_s = *(unsigned int *)($mcuprof_h + 184) & 3
    if $mcuprof_s == 3
        echo running
    else
        if $mcuprof_s == 0
            echo stopped
        else
            if $mcuprof_s == 1
                echo recording arcs only (sampling off)
            else
                echo sampling only (arcs off)
            end
        end
    end
    if *(unsigned int *)($mcuprof_h + 184) & 4
        printf " (frozen)"
    end
    printf ", %u samples, %u arcs\n", *(unsigned int *)($mcuprof_h + 224), *(unsigned int *)($mcuprof_h + 32)
end
document mcuprof-line
Print "running, N samples, M arcs" (or stopped) for the profile image.
end

define mcuprof-stop
    mcuprof-check
    mcuprof-check-free
    mcuprof-freeze
    mcuprof-set-state 0 3
    mcuprof-release
    mcuprof-line
end
document mcuprof-stop
Stop profiling: freeze, clear the ARCS and SAMPLING state bits, release.
From the tick that serves the release the hook records nothing and the
sampler counts nothing. The sampler timer must be running; otherwise use
mcuprof-stop-halted.
end

define mcuprof-start
    mcuprof-check
    mcuprof-check-free
    mcuprof-freeze
    mcuprof-set-state 3 0
    mcuprof-release
    mcuprof-line
end
document mcuprof-start
Start profiling: freeze, set the ARCS and SAMPLING state bits, release.
end

define mcuprof-reset
    mcuprof-check
    mcuprof-check-free
    mcuprof-freeze
    mcuprof-drain
    mcuprof-release
    mcuprof-line
end
document mcuprof-reset
Zero the profile's tables while frozen, as `mcuprof pull --reset` does;
generation goes up by one.
end

define mcuprof-stop-halted
    mcuprof-check
    mcuprof-check-free
    set {unsigned int}($mcuprof_h + 188) = 0
    mcuprof-set-state 0 3
    mcuprof-apply-hook
    mcuprof-line
end
document mcuprof-stop-halted
Stop profiling on the stopped core without a freeze: clear the state bits
and switch the call hook off through mcuprof_hook_dispatch.
end

define mcuprof-start-halted
    mcuprof-check
    mcuprof-check-free
    set {unsigned int}($mcuprof_h + 188) = 0
    mcuprof-set-state 3 0
    mcuprof-apply-hook
    mcuprof-line
end
document mcuprof-start-halted
Start profiling on the stopped core without a freeze: set the state bits
and switch the call hook on through mcuprof_hook_dispatch.
end

define mcuprof-reset-halted
    mcuprof-check
    mcuprof-check-free
    set {unsigned int}($mcuprof_h + 188) = 0
    mcuprof-drain
    mcuprof-line
end
document mcuprof-reset-halted
Zero the profile's tables on the stopped core, without a freeze.
end

define mcuprof-status
    mcuprof-check
    mcuprof-line
    set $mcuprof_s = *(unsigned int *)($mcuprof_h + 184)
    printf "  state                        0x%x (arcs ", $mcuprof_s
    if $mcuprof_s & 1
        echo on
    else
        echo off
    end
    printf ", sampling "
    if $mcuprof_s & 2
        echo on
    else
        echo off
    end
    if $mcuprof_s & 4
        echo , frozen
    end
    echo )\n
    printf "  generation                   %u\n", *(unsigned int *)($mcuprof_h + 196)
    printf "  samples_taken                %u\n", *(unsigned int *)($mcuprof_h + 224)
    printf "  arcs_used                    %u\n", *(unsigned int *)($mcuprof_h + 32)
    printf "  freeze_request               %u\n", *(unsigned int *)($mcuprof_h + 188)
    printf "  freeze_ack                   %u\n", *(unsigned int *)($mcuprof_h + 192)
    printf "  sampler                      not asked (the core is stopped)\n"
end
document mcuprof-status
Print "running, N samples, M arcs" (or stopped), then the state bits,
generation, samples_taken, arcs_used, freeze_request and freeze_ack, read
from the stopped core.
end
