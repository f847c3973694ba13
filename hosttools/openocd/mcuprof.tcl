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
# "MCPF" on a little-endian target, "FPCM" on a big-endian one.
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
