# mcuprof.tcl - dump the mcuprof profile image from OpenOCD (0.12) while
# the core runs. OpenOCD reads a running Cortex-M's memory through the
# debug port, so nothing is halted.
#
#   openocd -f interface/... -f target/... -f hosttools/openocd/mcuprof.tcl
#   > mcuprof_dump mcuprof.img 0x20000010          (size from the header)
#   > mcuprof_dump mcuprof.img 0x20000010 5200
#   > mcuprof_dump_symbols mcuprof.img 0x20000010 0x20001460
#                       (the values of __mcuprof_start and __mcuprof_end:
#                        arm-none-eabi-nm app.elf | grep __mcuprof_)
#   $ mcuprof convert mcuprof.img -o gmon.out
#
# `set mcuprof_address 0x20000010` once lets `mcuprof_dump FILE` find it.
#
# The freeze handshake (include/mcuprof/image.h): write a token to the
# header's freeze_request (offset 188), wait until the firmware's sampler
# tick copies it to freeze_ack (offset 192); from then the hook and the
# sampler leave the tables alone. Dump, write 0, wait for freeze_ack 0.
# Without a running sampler timer nothing answers: the procedure then
# gives up after mcuprof_timeout_ms and says so. A halted core is dumped
# as it is.

set mcuprof_timeout_ms 5000

# The header's magic as a 32-bit word in the target's own byte order:
# "MCPF" on a little-endian target, "FPCM" on a big-endian one. Spelled
# here again as Tcl cannot include include/mcuprof/image.h, which defines
# it (MCUPROF_IMAGE_MAGIC); tests/magic_spelling.cmake keeps them alike.
set mcuprof_magic 0x4650434d

proc mcuprof_read32 {addr} {
    return [lindex [read_memory $addr 32 1] 0]
}

# Wait until freeze_ack at ADDR + 192 equals WANT; 1 if it did in time.
proc mcuprof_wait_ack {addr want} {
    set waited 0
    while {[mcuprof_read32 [expr {$addr + 192}]] != $want} {
        if {$waited >= $::mcuprof_timeout_ms} {
            return 0
        }
        sleep 1
        incr waited
    }
    return 1
}

proc mcuprof_dump {file {address ""} {size ""}} {
    if {$address eq ""} {
        if {![info exists ::mcuprof_address]} {
            error "mcuprof_dump FILE ADDRESS ?SIZE?: no ADDRESS, and mcuprof_address is not set"
        }
        set address $::mcuprof_address
    }
    set magic [mcuprof_read32 $address]
    if {$magic != $::mcuprof_magic} {
        error [format "mcuprof: no profile image at 0x%x (magic 0x%08x): firmware without mcuprof, or not initialised yet" $address $magic]
    }
    # image_size (offset 12): the bytes in use, up to the end of the histogram
    set image_size [mcuprof_read32 [expr {$address + 12}]]
    if {$size eq ""} {
        set size $image_size
    } elseif {$image_size > $size} {
        error [format "mcuprof: image_size %d is larger than the region (%d bytes): not this firmware's image?" $image_size $size]
    }
    # read_memory gives hex ("0x1260"): one decimal number from here on,
    # for the messages and dump_image alike
    set size [expr {$size + 0}]
    if {$size < 256 || $size > 0x4000000} {
        error "mcuprof: image size $size is not plausible"
    }

    set halted [expr {[[target current] curstate] eq "halted"}]
    if {!$halted} {
        # another host's freeze: refused unless mcuprof_force, as pull does
        mcuprof_check_free $address
        set token [expr {([mcuprof_read32 [expr {$address + 192}]] + 1) & 0xffffffff}]
        if {$token == 0} {
            set token 1
        }
        mww [expr {$address + 188}] $token
        if {![mcuprof_wait_ack $address $token]} {
            mww [expr {$address + 188}] 0
            error "mcuprof: the target did not acknowledge the freeze within $::mcuprof_timeout_ms ms: the sampler timer must be running (mcuprof_sampler_start), or halt the core first"
        }
    }
    # dump_image writes as it reads: it goes to FILE.part, renamed into
    # place only when whole, so a failed dump leaves no half-written FILE.
    set part $file.part
    set failed [catch {dump_image $part $address $size} msg]
    # Release even after a failed dump; a release that fails is reported,
    # after the dump's own error when there is one.
    set release_error ""
    if {!$halted} {
        if {[catch {mww [expr {$address + 188}] 0} e]} {
            set release_error "cannot write freeze_request: $e"
        } elseif {[catch {mcuprof_wait_ack $address 0} acked]} {
            set release_error "cannot read freeze_ack: $acked"
        } elseif {!$acked} {
            set release_error "the target did not acknowledge the release within $::mcuprof_timeout_ms ms"
        }
    }
    if {$failed} {
        catch {file delete $part}
        if {$release_error ne ""} {
            set msg "$msg; release: $release_error"
        }
        error "mcuprof: dump_image failed: $msg"
    }
    file rename -force $part $file
    if {$release_error ne ""} {
        error "mcuprof: $release_error (the image in $file is complete: it was taken while frozen)"
    }
    echo "mcuprof: $size bytes of profile image written to $file[expr {$halted ? {} : { (frozen snapshot)}}]"
}

proc mcuprof_dump_symbols {file start end} {
    if {$end <= $start} {
        error "mcuprof_dump_symbols FILE START END: END must be above START"
    }
    mcuprof_dump $file $start [expr {$end - $start}]
}

# --- profile control ------------------------------------------------------
# Profile exactly the phase you choose, without changing the firmware:
#   > mcuprof_stop ?ADDRESS?     clear the header's ARCS and SAMPLING state bits
#   > mcuprof_start ?ADDRESS?    set them
#   > mcuprof_reset ?ADDRESS?    zero the tables, as `mcuprof pull --reset` does
#   > mcuprof_status ?ADDRESS?   "running, N samples, M arcs", then the header
# ADDRESS is __mcuprof_start (default: mcuprof_address). Each one freezes
# the image (the handshake above), changes it, and releases it: the
# firmware's sampler tick that serves the release applies the state bits
# to the call hook (mcuprof_apply_hook_mode), so the change holds exactly
# from that tick on. On a halted core, reset and status work on memory as
# it is; start and stop refuse, because nothing would switch the hook
# before it runs again: resume the core, or use `mcuprof ctl --halt --elf`,
# which switches the hook's mode pointer through the ELF's symbols.
# A freeze another host holds (freeze_request set) is refused;
# `set mcuprof_force 1` takes it over.
#
# Header offsets (include/mcuprof/image.h): image_size 12, arcs_offset 24,
# arcs_used 32, arc_record_size 36 (16-bit), buckets_offset 40, nbuckets
# 44, counter_bytes 53 (8-bit), nranges 54 (8-bit), ranges 88 (24 bytes
# each: hist_offset +16, nbins +20), state 184 (ARCS 1, SAMPLING 2, FROZEN
# 4), freeze_request 188, freeze_ack 192, generation 196, the lost_*
# counters 200..220, samples_taken 224, missed_periods 232,
# arc_table_repairs 244, ext_offset 248, deferred_samples 252.

if {![info exists mcuprof_force]} {
    set mcuprof_force 0
}

proc mcuprof_read16 {addr} {
    return [lindex [read_memory $addr 16 1] 0]
}

proc mcuprof_read8 {addr} {
    return [lindex [read_memory $addr 8 1] 0]
}

# The image's address (ADDRESS, or mcuprof_address) once its magic is seen.
proc mcuprof_ctl_locate {name address} {
    if {$address eq ""} {
        if {![info exists ::mcuprof_address]} {
            error "$name ADDRESS: no ADDRESS, and mcuprof_address is not set"
        }
        set address $::mcuprof_address
    }
    set magic [mcuprof_read32 $address]
    if {$magic != $::mcuprof_magic} {
        error [format "mcuprof: no profile image at 0x%x (magic 0x%08x): firmware without mcuprof, or not initialised yet" $address $magic]
    }
    return [expr {$address + 0}]
}

proc mcuprof_halted {} {
    return [expr {[[target current] curstate] eq "halted"}]
}

# Refuse another host's freeze (a pull in progress, or one that ended
# without its release) unless mcuprof_force is set.
proc mcuprof_check_free {a} {
    set req [mcuprof_read32 [expr {$a + 188}]]
    if {$req == 0} {
        return
    }
    if {!$::mcuprof_force} {
        error [format "mcuprof: the image is frozen by another host (freeze_request 0x%x, freeze_ack 0x%x): a pull in progress, or one that ended without releasing it; set mcuprof_force 1 to take it over" $req [mcuprof_read32 [expr {$a + 192}]]]
    }
    echo [format "mcuprof: warning: took over the freeze of another host (freeze_request 0x%x): a snapshot it is taking may not be consistent" $req]
    if {[mcuprof_halted]} {
        # nothing would release it: withdraw it; the next tick ends it
        mww [expr {$a + 188}] 0
    }
}

proc mcuprof_freeze {a} {
    set token [expr {([mcuprof_read32 [expr {$a + 192}]] + 1) & 0xffffffff}]
    if {$token == 0} {
        set token 1
    }
    mww [expr {$a + 188}] $token
    if {![mcuprof_wait_ack $a $token]} {
        mww [expr {$a + 188}] 0
        error "mcuprof: the target did not acknowledge the freeze within $::mcuprof_timeout_ms ms: the sampler timer must be running (mcuprof_sampler_start); without it use `mcuprof ctl --halt --elf`"
    }
}

proc mcuprof_release {a} {
    mww [expr {$a + 188}] 0
    if {![mcuprof_wait_ack $a 0]} {
        error "mcuprof: the target did not acknowledge the release within $::mcuprof_timeout_ms ms"
    }
}

# Run BODY in the caller's frame with the image frozen; release even after
# an error in BODY, whose error then comes first.
proc mcuprof_frozen {a body} {
    mcuprof_freeze $a
    set failed [catch {uplevel 1 $body} msg]
    if {[catch {mcuprof_release $a} rmsg]} {
        if {$failed} {
            error "$msg; release: $rmsg"
        }
        error $rmsg
    }
    if {$failed} {
        error $msg
    }
}

# Zero LEN bytes at offset OFF of the image at A (IMAGE_SIZE bytes): 32-bit
# words, 16-bit at an unaligned edge (every table is 2-byte aligned), in
# slices of 1024 words. Nothing outside the image is ever written.
proc mcuprof_zero {a image_size off len} {
    if {$off < 256 || $off + $len > $image_size} {
        error [format "mcuprof: a table at offset 0x%x (%d bytes) lies outside the image (%d bytes): corrupt header" $off $len $image_size]
    }
    set addr [expr {$a + $off}]
    if {$len >= 2 && $addr % 4} {
        write_memory $addr 16 {0}
        incr addr 2
        incr len -2
    }
    while {$len >= 4} {
        set n [expr {$len / 4 > 1024 ? 1024 : $len / 4}]
        write_memory $addr 32 [lrepeat $n 0]
        incr addr [expr {4 * $n}]
        incr len [expr {-4 * $n}]
    }
    if {$len >= 2} {
        write_memory $addr 16 {0}
    }
}

# What `mcuprof pull --reset` zeroes (hosttools/mcuprof/links/snapshot.c),
# the counters first: the lost_* counters and samples_taken,
# missed_periods, arc_table_repairs, deferred_samples, arcs_used;
# generation + 1; the arc records in use, the buckets, the bins, and the
# counts of the extension tables (their keys and names stay).
proc mcuprof_drain {a} {
    set size [mcuprof_read32 [expr {$a + 12}]]
    write_memory [expr {$a + 200}] 32 [lrepeat 7 0]
    # summed over drains like the losses, so zeroed like them:
    # missed_periods, arc_table_repairs, deferred_samples
    foreach off {232 244 252} {
        mww [expr {$a + $off}] 0
    }
    set used [mcuprof_read32 [expr {$a + 32}]]
    mww [expr {$a + 32}] 0
    mww [expr {$a + 196}] [expr {([mcuprof_read32 [expr {$a + 196}]] + 1) & 0xffffffff}]
    set rs [mcuprof_read16 [expr {$a + 36}]]
    mcuprof_zero $a $size [expr {[mcuprof_read32 [expr {$a + 24}]] + $rs}] [expr {$used * $rs}]
    mcuprof_zero $a $size [mcuprof_read32 [expr {$a + 40}]] [expr {[mcuprof_read32 [expr {$a + 44}]] * 2}]
    set cb [mcuprof_read8 [expr {$a + 53}]]
    set nranges [mcuprof_read8 [expr {$a + 54}]]
    for {set r 0} {$r < $nranges} {incr r} {
        set rb [expr {$a + 88 + 24 * $r}]
        mcuprof_zero $a $size [mcuprof_read32 [expr {$rb + 16}]] [expr {[mcuprof_read32 [expr {$rb + 20}]] * $cb}]
    }
    # extension tables, as hosttools/mcuprof/links/drain_ext.c: lost (+16)
    # and invalid (+20) of each, and the counts of each entry (their keys
    # and names stay): kind 1 contexts (+4), 2 tasks (+8), 3 and 8 call
    # paths (+0), 5 late samples (+8: samples and missed), 7 held-off
    # samples (+0: samples and periods; +12: scans); kind 4, the spill
    # table, is emptied (used, +12, and every entry); 6, blockers, has none.
    # Kind: {offset bytes} of the counts in an entry.
    array set counts {1 {4 4} 2 {8 4} 3 {0 4} 4 {} 5 {8 8} 6 {} 7 {0 8} 8 {0 4}}
    set x [expr {[mcuprof_read32 [expr {$a + 248}]] + 0}]
    while {$x != 0 && $x + 24 <= $size} {
        # decimal, the array's keys (read_memory gives hex)
        set kind [expr {[mcuprof_read16 [expr {$a + $x}]] + 0}]
        set xs [mcuprof_read32 [expr {$a + $x + 4}]]
        if {$kind == 0 || $xs == 0} {
            break
        }
        if {[info exists counts($kind)]} {
            set es [mcuprof_read16 [expr {$a + $x + 2}]]
            set cap [mcuprof_read32 [expr {$a + $x + 8}]]
            if {$x + 24 + $cap * $es > $size} {
                error [format "mcuprof: extension table at offset 0x%x (%d entries of %d bytes) lies outside the image: corrupt header" $x $cap $es]
            }
            mww [expr {$a + $x + 16}] 0
            mww [expr {$a + $x + 20}] 0
            if {$kind == 4} {
                mww [expr {$a + $x + 12}] 0
                mcuprof_zero $a $size [expr {$x + 24}] [expr {$cap * $es}]
            }
            foreach {so sn} $counts($kind) {
                for {set i 0} {$i < $cap} {incr i} {
                    write_memory [expr {$a + $x + 24 + $i * $es + $so}] 32 [lrepeat [expr {$sn / 4}] 0]
                }
            }
            if {$kind == 7 && $cap} {
                mww [expr {$a + $x + 24 + 12}] 0
            }
        }
        set x [expr {$x + $xs}]
    }
}

# "running, N samples, M arcs" (or stopped).
proc mcuprof_line {a} {
    set state [mcuprof_read32 [expr {$a + 184}]]
    set on [expr {$state & 3}]
    set what [lindex {stopped {recording arcs only (sampling off)} {sampling only (arcs off)} running} $on]
    if {$state & 4} {
        append what " (frozen)"
    }
    return [format "%s, %u samples, %u arcs" $what [mcuprof_read32 [expr {$a + 224}]] [mcuprof_read32 [expr {$a + 32}]]]
}

proc mcuprof_ctl_state {name address set clear} {
    set a [mcuprof_ctl_locate $name $address]
    if {[mcuprof_halted]} {
        error "mcuprof: $name: the core is halted, and the firmware switches its call hook only when a freeze ends: resume it first, or use `mcuprof ctl --halt --elf`"
    }
    mcuprof_check_free $a
    mcuprof_frozen $a {
        set s [mcuprof_read32 [expr {$a + 184}]]
        mww [expr {$a + 184}] [expr {($s | $set) & ~$clear & 0xffffffff}]
    }
    echo [mcuprof_line $a]
}

proc mcuprof_stop {{address ""}} {
    mcuprof_ctl_state mcuprof_stop $address 0 3
}

proc mcuprof_start {{address ""}} {
    mcuprof_ctl_state mcuprof_start $address 3 0
}

proc mcuprof_reset {{address ""}} {
    set a [mcuprof_ctl_locate mcuprof_reset $address]
    mcuprof_check_free $a
    if {[mcuprof_halted]} {
        mcuprof_drain $a
    } else {
        mcuprof_frozen $a {
            mcuprof_drain $a
        }
    }
    echo [mcuprof_line $a]
}

proc mcuprof_status {{address ""}} {
    set a [mcuprof_ctl_locate mcuprof_status $address]
    if {[mcuprof_halted]} {
        set sampler "not asked (the core is halted)"
    } elseif {[mcuprof_read32 [expr {$a + 188}]] != 0} {
        set sampler "not asked: another host holds a freeze"
    } elseif {[catch {mcuprof_freeze $a} msg]} {
        set sampler "did not answer: $msg"
    } else {
        mcuprof_release $a
        set sampler "answered a freeze"
    }
    set state [mcuprof_read32 [expr {$a + 184}]]
    echo [mcuprof_line $a]
    echo [format "  %-28s 0x%x (arcs %s, sampling %s%s)" state $state [expr {$state & 1 ? "on" : "off"}] \
              [expr {$state & 2 ? "on" : "off"}] [expr {$state & 4 ? ", frozen" : ""}]]
    foreach {name off} {generation 196 samples_taken 224 arcs_used 32 freeze_request 188 freeze_ack 192} {
        echo [format "  %-28s %u" $name [mcuprof_read32 [expr {$a + $off}]]]
    }
    echo [format "  %-28s %s" sampler $sampler]
}
