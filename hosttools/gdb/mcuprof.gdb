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
# or `detach` lets it run.

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
        error Usage: mcuprof-dump FILE
    end
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
        error Usage: mcuprof-dump-halted FILE
    end
    # (no spaces inside the two addresses: dump splits its arguments at spaces)
    dump binary memory $arg0 (char*)&__mcuprof_start (char*)&__mcuprof_end
    echo mcuprof: profile image written (core stopped)\n
end
document mcuprof-dump-halted
Dump the mcuprof profile image to FILE while the core is stopped, without
the freeze handshake (for firmware whose sampler timer does not run).
end
