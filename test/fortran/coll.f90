! Fortran barriers and active-set collectives, free form: SHMEM_BARRIER,
! BROADCAST4/8/32/64, COLLECT4/8, FCOLLECT4/8 and every *_TO_ALL, on the
! whole world and on the even PEs (logPE_stride 1).  pSync is a default
! INTEGER array sized by shmem.fh; run also under SHMEM_DEBUG=1, where
! the library checks those arrays.  Exits 1 on a wrong value.
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
  integer(kind=4) :: all4(4*n)
  integer(kind=8) :: all8(4*n)
  common /csyncs/ psync, bsync, csync, barsync
  common /cdata/ s8, t8, w8, r8, q8, wr8, r16, q16, wr16, c8, d8, wc8, all8
  save s4, t4, w4, r4, q4, wr4, c4, d4, wc4, all4
  integer :: me, np, k, start, stride, size, p, i
  integer :: my_pe, num_pes

  call start_pes(0)
  me = my_pe()
  np = num_pes()
  psync = SHMEM_SYNC_VALUE
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
    call data_movement(start, stride, size)
    call shmem_barrier_all()
  end do
  ! pSync holds SHMEM_SYNC_VALUE again on return.
  do k = 1, SHMEM_REDUCE_SYNC_SIZE
    if (psync(k) /= SHMEM_SYNC_VALUE .or. bsync(k) /= SHMEM_SYNC_VALUE) call fail(1)
  end do

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
    integer :: k, j, root, idx
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
    ! FCOLLECT: n from each PE; COLLECT: k+1 from the k-th member.
    all4 = -1
    all8 = -1
    call shmem_fcollect4(all4, s4, n, start, stride, size, csync)
    call shmem_fcollect8(all8, s8, n, start, stride, size, csync)
    do j = 1, size
      do k = 1, n
        idx = (j - 1) * n + k
        if (all4(idx) /= (start + (j - 1) * 2 ** stride) * 10 + k) call fail(70)
        if (all8(idx) /= int(start + (j - 1) * 2 ** stride, 8) * 4294967296_8 + k) &
          call fail(71)
      end do
    end do
    all4 = -1
    all8 = -1
    j = (me - start) / 2 ** stride
    call shmem_collect4(all4, s4, mod(j, 2) + 1, start, stride, size, csync)
    call shmem_collect8(all8, s8, mod(j, 2) + 1, start, stride, size, csync)
    idx = 0
    do j = 0, size - 1
      do k = 1, mod(j, 2) + 1
        idx = idx + 1
        if (all4(idx) /= (start + j * 2 ** stride) * 10 + k) call fail(72)
        if (all8(idx) /= int(start + j * 2 ** stride, 8) * 4294967296_8 + k) call fail(73)
      end do
    end do
    if (all4(idx + 1) /= -1) call fail(74)
  end subroutine

end program fcoll
