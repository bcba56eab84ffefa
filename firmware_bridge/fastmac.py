# ruff: noqa: F821  (mov, ldr, r0... are the inline assembler's own names)
# The session MAC's HalfSipHash-2-4 in the Cortex-M0+'s own instructions (armv6m Thumb: low
# registers, rotations by a register). Only the Pico imports this (padlink does, on the rp2
# port); everywhere else padlink's viper `_hsip` computes the same, and a test on the emulated
# RP2040 holds the two to the reference's vectors. Why assembly: in viper the hash of an
# EDGE's 8 bytes took about 5,100 of the core's cycles, here about 470, and every frame but
# the hello carries one (the tap's EDGE, the ring's SHOW, their acks, the heartbeats).
#
# ctx is an array('I'): [0..3] the key's starting state v0..v3, [4] how many message words,
# [5] and [6] scratch, [7] the result (v1 ^ v3), [8...] the message words, little-endian,
# the last one holding the length in its top byte (padlink._pack fills them).
# One SipRound is written out twice (the message's rounds, then the four final ones): a
# branch-and-link would need the link register kept, for a few dozen bytes of code.


@micropython.asm_thumb
def hsip_words(r0):
    mov(r7, r0)
    ldr(r4, [r7, 16])
    str(r4, [r7, 24])        # ctx[6]: words left
    mov(r4, 32)
    str(r4, [r7, 20])        # ctx[5]: byte offset of the next word
    ldr(r0, [r7, 0])
    ldr(r1, [r7, 4])
    ldr(r2, [r7, 8])
    ldr(r3, [r7, 12])
    label(BLOCK)
    ldr(r4, [r7, 20])
    add(r4, r4, r7)
    ldr(r5, [r4, 0])         # m
    ldr(r4, [r7, 20])
    add(r4, 4)
    str(r4, [r7, 20])
    eor(r3, r5)
    mov(r6, 2)
    label(R1)
    add(r0, r0, r1)
    mov(r4, 27)
    ror(r1, r4)
    eor(r1, r0)
    mov(r4, 16)
    ror(r0, r4)
    add(r2, r2, r3)
    mov(r4, 24)
    ror(r3, r4)
    eor(r3, r2)
    add(r0, r0, r3)
    mov(r4, 25)
    ror(r3, r4)
    eor(r3, r0)
    add(r2, r2, r1)
    mov(r4, 19)
    ror(r1, r4)
    eor(r1, r2)
    mov(r4, 16)
    ror(r2, r4)
    sub(r6, 1)
    bne(R1)
    eor(r0, r5)
    ldr(r4, [r7, 24])
    sub(r4, 1)
    str(r4, [r7, 24])
    bne(BLOCK)
    mov(r4, 0xFF)
    eor(r2, r4)
    mov(r6, 4)
    label(R2)
    add(r0, r0, r1)
    mov(r4, 27)
    ror(r1, r4)
    eor(r1, r0)
    mov(r4, 16)
    ror(r0, r4)
    add(r2, r2, r3)
    mov(r4, 24)
    ror(r3, r4)
    eor(r3, r2)
    add(r0, r0, r3)
    mov(r4, 25)
    ror(r3, r4)
    eor(r3, r0)
    add(r2, r2, r1)
    mov(r4, 19)
    ror(r1, r4)
    eor(r1, r2)
    mov(r4, 16)
    ror(r2, r4)
    sub(r6, 1)
    bne(R2)
    eor(r1, r3)
    str(r1, [r7, 28])
