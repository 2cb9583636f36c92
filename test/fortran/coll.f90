! Fortran barriers and active-set collectives, free form: SHMEM_BARRIER,
! BROADCAST4/8/32/64, COLLECT and FCOLLECT 4/8/32/64, ALLTOALL(S)32/64 and
! every *_TO_ALL (the Cray-era INT2 ones too, REAL*16 at full quad
! precision), on the whole world and on the even PEs (logPE_stride 1).
! pSync is a default INTEGER array sized by shmem.fh; run also under
! SHMEM_DEBUG=1, where the library checks those arrays.  Exits 1 on a
! wrong value.
program fcoll
  implicit none
  include 'shmem.fh'
  integer, parameter :: n = 5
  integer :: psync(SHMEM_REDUCE_SYNC_SIZE), bsync(SHMEM_BCAST_SYNC_SIZE)
  integer :: csync(SHMEM_COLLECT_SYNC_SIZE), barsync(SHMEM_BARRIER_SYNC_SIZE)
  integer(kind=4) :: s4(n), t4(n), w4(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  integer(kind=8) :: s8(n), t8(n), w8(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  real(kind=4) :: r4(n), q4(n), wr4(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  real(kind=8) :: r8(n), q8(n), wr8(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  real(kind=16) :: r16(n), q16(n), wr16(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  complex(kind=4) :: c4(n), d4(n), wc4(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  complex(kind=8) :: c8(n), d8(n), wc8(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  integer(kind=2) :: s2(n), t2(n+1), w2(max(n/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE))
  integer(kind=4) :: all4(4*n), a4s(32), a4t(33)
  integer(kind=8) :: all8(4*n), a8s(32), a8t(33)
  integer :: async(SHMEM_ALLTOALL_SYNC_SIZE), assync(SHMEM_ALLTOALLS_SYNC_SIZE)
  common /csyncs/ psync, bsync, csync, barsync
  common /cdata/ s8, t8, w8, r8, q8, wr8, r16, q16, wr16, c8, d8, wc8, all8
  save s4, t4, w4, r4, q4, wr4, c4, d4, wc4, all4, s2, t2, w2, a4s, a4t, a8s, a8t
  save async, assync
  integer :: me, np, k, start, stride, size, p, i
  integer :: my_pe, num_pes

  call start_pes(0)
  me = my_pe()
  np = num_pes()
  if (SHMEM_MAJOR_VERSION /= 1 .or. SHMEM_MINOR_VERSION /= 4) call fail(2)
  psync = SHMEM_SYNC_VALUE
  async = SHMEM_SYNC_VALUE
  assync = SHMEM_SYNC_VALUE
  bsync = SHMEM_SYNC_VALUE
  csync = SHMEM_SYNC_VALUE
  barsync = SHMEM_SYNC_VALUE
  call shmem_barrier_all()
  call shmem_barrier(0, 0, np, barsync)

  ! Two active sets: everyone, then the even PEs.
  do i = 0, 1
    stride = i
    size = (np - 1) / (2 ** stride) + 1
    start = 0
    if (mod(me, 2 ** stride) /= 0) then
      call shmem_barrier_all()
      cycle
    end if
    call shmem_barrier(start, stride, size, barsync)
    call reductions(start, stride, size)
    call reductions_cray_quad(start, stride, size)
    call data_movement(start, stride, size)
    call all_to_all(start, stride, size)
    call shmem_barrier_all()
  end do
  ! pSync holds SHMEM_SYNC_VALUE again on return.
  do k = 1, SHMEM_REDUCE_SYNC_SIZE
    if (psync(k) /= SHMEM_SYNC_VALUE .or. bsync(k) /= SHMEM_SYNC_VALUE) call fail(1)
  end do
  if (any(async /= SHMEM_SYNC_VALUE) .or. any(assync /= SHMEM_SYNC_VALUE)) call fail(1)

contains

  subroutine reductions(start, stride, size)
    integer, intent(in) :: start, stride, size
    integer :: k, p, members(size)
    integer(kind=8) :: x8, e8
    integer(kind=4) :: e4
    real(kind=16) :: e16
    do k = 1, size
      members(k) = start + (k - 1) * 2 ** stride
    end do
    do k = 1, n
      s4(k) = me + k
      s8(k) = int(me + k, 8) * 4294967296_8
      r4(k) = me + k
      r8(k) = (me + k) * 0.5d0
      r16(k) = (me + k) * 0.25_16
    end do
    call shmem_int4_sum_to_all(t4, s4, n, start, stride, size, w4, psync)
    call shmem_int8_sum_to_all(t8, s8, n, start, stride, size, w8, psync)
    call shmem_real4_sum_to_all(q4, r4, n, start, stride, size, wr4, psync)
    call shmem_real8_sum_to_all(q8, r8, n, start, stride, size, wr8, psync)
    call shmem_real16_sum_to_all(q16, r16, n, start, stride, size, wr16, psync)
    do k = 1, n
      if (t4(k) /= sum(members) + size * k) call fail(10)
      if (t8(k) /= int(sum(members) + size * k, 8) * 4294967296_8) call fail(11)
      if (q4(k) /= real(sum(members) + size * k)) call fail(12)
      if (q8(k) /= (sum(members) + size * k) * 0.5d0) call fail(13)
      if (q16(k) /= (sum(members) + size * k) * 0.25_16) call fail(14)
    end do
    call shmem_int4_max_to_all(t4, s4, n, start, stride, size, w4, psync)
    call shmem_int8_max_to_all(t8, s8, n, start, stride, size, w8, psync)
    call shmem_real4_max_to_all(q4, r4, n, start, stride, size, wr4, psync)
    call shmem_real8_max_to_all(q8, r8, n, start, stride, size, wr8, psync)
    call shmem_real16_max_to_all(q16, r16, n, start, stride, size, wr16, psync)
    call check_extreme(maxval(members), 20)
    call shmem_int4_min_to_all(t4, s4, n, start, stride, size, w4, psync)
    call shmem_int8_min_to_all(t8, s8, n, start, stride, size, w8, psync)
    call shmem_real4_min_to_all(q4, r4, n, start, stride, size, wr4, psync)
    call shmem_real8_min_to_all(q8, r8, n, start, stride, size, wr8, psync)
    call shmem_real16_min_to_all(q16, r16, n, start, stride, size, wr16, psync)
    call check_extreme(minval(members), 30)
    ! Products of small values stay exact.
    do k = 1, n
      s4(k) = mod(me, 3) + 1
      s8(k) = mod(me, 3) + 2
      r4(k) = mod(me, 3) + 1
      r8(k) = mod(me, 3) + 0.5d0
      r16(k) = mod(me, 3) + 1.5_16
    end do
    call shmem_int4_prod_to_all(t4, s4, n, start, stride, size, w4, psync)
    call shmem_int8_prod_to_all(t8, s8, n, start, stride, size, w8, psync)
    call shmem_real4_prod_to_all(q4, r4, n, start, stride, size, wr4, psync)
    call shmem_real8_prod_to_all(q8, r8, n, start, stride, size, wr8, psync)
    call shmem_real16_prod_to_all(q16, r16, n, start, stride, size, wr16, psync)
    e4 = 1; e8 = 1
    do k = 1, size
      e4 = e4 * (mod(members(k), 3) + 1)
      e8 = e8 * (mod(members(k), 3) + 2)
    end do
    do k = 1, n
      if (t4(k) /= e4 .or. t8(k) /= e8 .or. q4(k) /= e4) call fail(40)
      e16 = 1
      do p = 1, size
        e16 = e16 * (mod(members(p), 3) + 1.5_16)
      end do
      if (q16(k) /= e16) call fail(41)
    end do
    ! Bitwise: each PE contributes bit me (and a common bit).
    do k = 1, n
      s4(k) = ior(ishft(1, me), 1024)
      s8(k) = ior(ishft(1_8, me + 32), 1024_8)
    end do
    x8 = 0
    do k = 1, size
      x8 = ior(x8, ishft(1_8, members(k)))
    end do
    call shmem_int4_or_to_all(t4, s4, n, start, stride, size, w4, psync)
    if (t4(1) /= ior(int(x8, 4), 1024)) call fail(50)
    call shmem_int8_or_to_all(t8, s8, n, start, stride, size, w8, psync)
    if (t8(n) /= ior(ishft(x8, 32), 1024_8)) call fail(51)
    call shmem_int4_and_to_all(t4, s4, n, start, stride, size, w4, psync)
    call shmem_int8_and_to_all(t8, s8, n, start, stride, size, w8, psync)
    if (size > 1 .and. (t4(2) /= 1024 .or. t8(2) /= 1024_8)) call fail(52)
    call shmem_int4_xor_to_all(t4, s4, n, start, stride, size, w4, psync)
    call shmem_int8_xor_to_all(t8, s8, n, start, stride, size, w8, psync)
    e4 = int(x8, 4)
    e8 = ishft(x8, 32)
    if (mod(size, 2) == 1) then
      e4 = ior(e4, 1024)
      e8 = ior(e8, 1024_8)
    end if
    if (t4(3) /= e4 .or. t8(3) /= e8) call fail(53)
    ! COMPLEX XOR works on the bits of both halves.
    do k = 1, n
      c4(k) = transfer([ior(ishft(1, me), 1024), ishft(1, me + 8)], c4(k))
      c8(k) = transfer([ishft(1_8, me), ishft(1_8, me + 40)], c8(k))
    end do
    call shmem_comp4_xor_to_all(d4, c4, n, start, stride, size, wc4, psync)
    call shmem_comp8_xor_to_all(d8, c8, n, start, stride, size, wc8, psync)
    do k = 1, n
      if (any(transfer(d4(k), [0]) /= [e4, ishft(int(x8, 4), 8)])) call fail(54)
      if (any(transfer(d8(k), [0_8]) /= [x8, ishft(x8, 40)])) call fail(55)
    end do
  end subroutine

  ! After a max or min reduction: element k of every type holds the
  ! extreme PE p plus k, in each type's scale.  Fails with code .. code+2.
  subroutine check_extreme(p, code)
    integer, intent(in) :: p, code
    integer :: k
    do k = 1, n
      if (t4(k) /= p + k .or. t8(k) /= int(p + k, 8) * 4294967296_8) call fail(code)
      if (q4(k) /= p + k .or. q8(k) /= (p + k) * 0.5d0) call fail(code + 1)
      if (q16(k) /= (p + k) * 0.25_16) call fail(code + 2)
    end do
  end subroutine

  subroutine data_movement(start, stride, size)
    integer, intent(in) :: start, stride, size
    integer :: k, j, root, idx, v
    root = start + (size - 1) * 2 ** stride
    do k = 1, n
      s4(k) = me * 10 + k
      s8(k) = int(me, 8) * 4294967296_8 + k
    end do
    t4 = -1
    t8 = -1
    call shmem_broadcast4(t4, s4, n, size - 1, start, stride, size, bsync)
    call shmem_broadcast8(t8, s8, n, size - 1, start, stride, size, bsync)
    do k = 1, n
      if (me /= root .and. t4(k) /= root * 10 + k) call fail(60)
      if (me /= root .and. t8(k) /= int(root, 8) * 4294967296_8 + k) call fail(61)
      if (me == root .and. (t4(k) /= -1 .or. t8(k) /= -1)) call fail(62)
    end do
    t4 = -1
    t8 = -1
    call shmem_broadcast32(t4, s4, n, 0, start, stride, size, bsync)
    call shmem_broadcast64(t8, s8, 2, 0, start, stride, size, bsync)
    if (me /= start .and. (t4(n) /= start * 10 + n .or. t8(2) /= 2)) call fail(63)
    if (me /= start .and. t8(3) /= -1) call fail(64)
    ! FCOLLECT: n from each PE; COLLECT: k+1 from the k-th member.  The
    ! 4/8 forms, then the 32/64 ones (1.4), on the same checks.
    do v = 1, 2
      all4 = -1
      all8 = -1
      if (v == 1) then
        call shmem_fcollect4(all4, s4, n, start, stride, size, csync)
        call shmem_fcollect8(all8, s8, n, start, stride, size, csync)
      else
        call shmem_fcollect32(all4, s4, n, start, stride, size, csync)
        call shmem_fcollect64(all8, s8, n, start, stride, size, csync)
      end if
      do j = 1, size
        do k = 1, n
          idx = (j - 1) * n + k
          if (all4(idx) /= (start + (j - 1) * 2 ** stride) * 10 + k) call fail(70)
          if (all8(idx) /= int(start + (j - 1) * 2 ** stride, 8) * 4294967296_8 + k) &
            call fail(71)
        end do
      end do
      if (size < 4 .and. (all4(size * n + 1) /= -1 .or. all8(size * n + 1) /= -1)) &
        call fail(75)
      all4 = -1
      all8 = -1
      j = (me - start) / 2 ** stride
      if (v == 1) then
        call shmem_collect4(all4, s4, mod(j, 2) + 1, start, stride, size, csync)
        call shmem_collect8(all8, s8, mod(j, 2) + 1, start, stride, size, csync)
      else
        call shmem_collect32(all4, s4, mod(j, 2) + 1, start, stride, size, csync)
        call shmem_collect64(all8, s8, mod(j, 2) + 1, start, stride, size, csync)
      end if
      idx = 0
      do j = 0, size - 1
        do k = 1, mod(j, 2) + 1
          idx = idx + 1
          if (all4(idx) /= (start + j * 2 ** stride) * 10 + k) call fail(72)
          if (all8(idx) /= int(start + j * 2 ** stride, 8) * 4294967296_8 + k) call fail(73)
        end do
      end do
      if (all4(idx + 1) /= -1 .or. all8(idx + 1) /= -1) call fail(74)
    end do
  end subroutine

  ! The Cray-era INTEGER*2 reductions (values that need all 16 bits, a
  ! sentinel past nreduce), COMPLEX SUM and PROD (a componentwise product
  ! would differ), and REAL*16 on values a double or an 80-bit long double
  ! cannot hold.
  subroutine reductions_cray_quad(start, stride, size)
    integer, intent(in) :: start, stride, size
    integer :: k, j, members(size), bits, e
    complex(kind=4) :: e4
    complex(kind=8) :: e8
    real(kind=16) :: e16, tiny
    do k = 1, size
      members(k) = start + (k - 1) * 2 ** stride
    end do
    t2(n + 1) = -7
    do k = 1, n
      s2(k) = int(-(me * 1000 + k), 2)
    end do
    call shmem_int2_sum_to_all(t2, s2, n, start, stride, size, w2, psync)
    do k = 1, n
      if (t2(k) /= -(1000 * sum(members) + size * k)) call fail(80)
    end do
    call shmem_int2_max_to_all(t2, s2, n, start, stride, size, w2, psync)
    do k = 1, n
      if (t2(k) /= -(1000 * minval(members) + k)) call fail(81)
    end do
    call shmem_int2_min_to_all(t2, s2, n, start, stride, size, w2, psync)
    do k = 1, n
      if (t2(k) /= -(1000 * maxval(members) + k)) call fail(82)
    end do
    ! Products: the sign alternates with the PE.
    s2 = int((1 - 2 * mod(me, 2)) * (mod(me, 3) + 2), 2)
    call shmem_int2_prod_to_all(t2, s2, n, start, stride, size, w2, psync)
    e = 1
    do j = 1, size
      e = e * (1 - 2 * mod(members(j), 2)) * (mod(members(j), 3) + 2)
    end do
    if (any(t2(1:n) /= e)) call fail(83)
    ! Bitwise: bit me+8 (the high byte) of each PE over the common bits k.
    bits = 0
    do j = 1, size
      bits = ior(bits, ishft(1, members(j) + 8))
    end do
    do k = 1, n
      s2(k) = int(ior(ishft(1, me + 8), k), 2)
    end do
    call shmem_int2_or_to_all(t2, s2, n, start, stride, size, w2, psync)
    do k = 1, n
      if (t2(k) /= ior(bits, k)) call fail(84)
    end do
    call shmem_int2_and_to_all(t2, s2, n, start, stride, size, w2, psync)
    do k = 1, n
      if (size > 1 .and. t2(k) /= k) call fail(85)
      if (size == 1 .and. t2(k) /= s2(k)) call fail(85)
    end do
    call shmem_int2_xor_to_all(t2, s2, n, start, stride, size, w2, psync)
    do k = 1, n
      if (t2(k) /= ieor(bits, merge(k, 0, mod(size, 2) == 1))) call fail(86)
    end do
    if (t2(n + 1) /= -7) call fail(87)

    do k = 1, n
      c4(k) = cmplx(real(me + k), real(-2 * me))
      c8(k) = cmplx(me + 2d0**(-40), dble(k), kind=8)
    end do
    call shmem_comp4_sum_to_all(d4, c4, n, start, stride, size, wc4, psync)
    call shmem_comp8_sum_to_all(d8, c8, n, start, stride, size, wc8, psync)
    do k = 1, n
      if (d4(k) /= cmplx(real(sum(members) + size * k), real(-2 * sum(members)))) call fail(90)
      if (d8(k) /= cmplx(sum(members) + size * 2d0**(-40), dble(size * k), kind=8)) call fail(91)
    end do
    do k = 1, n
      c4(k) = cmplx(1.0, real(me))
      c8(k) = cmplx(dble(k), dble(me + 1), kind=8)
    end do
    call shmem_comp4_prod_to_all(d4, c4, n, start, stride, size, wc4, psync)
    call shmem_comp8_prod_to_all(d8, c8, n, start, stride, size, wc8, psync)
    do k = 1, n
      e4 = (1.0, 0.0)
      e8 = (1d0, 0d0)
      do j = 1, size
        e4 = e4 * cmplx(1.0, real(members(j)))
        e8 = e8 * cmplx(dble(k), dble(members(j) + 1), kind=8)
      end do
      if (d4(k) /= e4 .or. d8(k) /= e8) call fail(92)
    end do

    tiny = 2.0_16**(-100)
    do k = 1, n
      r16(k) = 1 + (me + k) * tiny
    end do
    call shmem_real16_sum_to_all(q16, r16, n, start, stride, size, wr16, psync)
    do k = 1, n
      if (q16(k) /= size + (sum(members) + size * k) * tiny) call fail(95)
    end do
    call shmem_real16_max_to_all(q16, r16, n, start, stride, size, wr16, psync)
    do k = 1, n
      if (q16(k) /= 1 + (maxval(members) + k) * tiny) call fail(96)
    end do
    call shmem_real16_min_to_all(q16, r16, n, start, stride, size, wr16, psync)
    do k = 1, n
      if (q16(k) /= 1 + (minval(members) + k) * tiny) call fail(97)
    end do
    ! PEs 0 and 1 give 1 + 2^-34 and 1 + 2^-33, whose product has a 2^-67
    ! term (binary128 holds it, an 80-bit long double does not); the others
    ! give small integers.
    r16 = quad_factor(me)
    call shmem_real16_prod_to_all(q16, r16, n, start, stride, size, wr16, psync)
    e16 = 1
    do j = 1, size
      e16 = e16 * quad_factor(members(j))
    end do
    if (any(q16 /= e16)) call fail(98)
  end subroutine

  real(kind=16) function quad_factor(pe)
    integer, intent(in) :: pe
    if (pe < 2) then
      quad_factor = 1 + (pe + 1) * 2.0_16**(-34)
    else
      quad_factor = pe
    end if
  end function

  ! ALLTOALL32/64 (m elements per pair), then ALLTOALLS32/64 with dst 2 and
  ! sst 3.  Element e of the block PE i sends to the j-th member is
  ! i*100 + j*10 + e (plus a high half in the 64-bit forms); what no block
  ! covers keeps its -1.
  subroutine all_to_all(start, stride, size)
    integer, intent(in) :: start, stride, size
    integer, parameter :: m = 2
    integer :: i, j, e, mine, from, idx, v
    mine = (me - start) / 2 ** stride
    do v = 1, 2
      a4s = -5
      a8s = -5
      do j = 0, size - 1
        do e = 1, m
          idx = j * m + e
          if (v == 2) idx = (idx - 1) * 3 + 1
          a4s(idx) = me * 100 + j * 10 + e
          a8s(idx) = int(me, 8) * 4294967296_8 + j * 10 + e
        end do
      end do
      a4t = -1
      a8t = -1
      call shmem_barrier(start, stride, size, barsync)
      if (v == 1) then
        call shmem_alltoall32(a4t, a4s, m, start, stride, size, async)
        call shmem_alltoall64(a8t, a8s, m, start, stride, size, async)
      else
        call shmem_alltoalls32(a4t, a4s, 2, 3, m, start, stride, size, assync)
        call shmem_alltoalls64(a8t, a8s, 2, 3, m, start, stride, size, assync)
      end if
      do i = 0, size - 1
        from = start + i * 2 ** stride
        do e = 1, m
          idx = i * m + e
          if (v == 2) idx = (idx - 1) * 2 + 1
          if (a4t(idx) /= from * 100 + mine * 10 + e) call fail(100 + v)
          if (a8t(idx) /= int(from, 8) * 4294967296_8 + mine * 10 + e) call fail(102 + v)
          if (v == 2 .and. (a4t(idx + 1) /= -1 .or. a8t(idx + 1) /= -1)) call fail(105)
        end do
      end do
      if (a4t(v * size * m + 1) /= -1 .or. a8t(v * size * m + 1) /= -1) call fail(106)
    end do
  end subroutine

end program fcoll
