! Fortran non-blocking puts and gets (OpenSHMEM 1.4), free form through
! 'mpp/shmem.fh': every typed, sized and byte *_NBI routine, completed by
! SHMEM_QUIET; then the Cray-era 16-bit SHMEM_PUT16/GET16/IPUT16/IGET16 and
! the header's 1.4 constants.  Each PE puts to its right neighbour and
! gets from its left one.  Every transfer moves n elements into an array
! of n+1 whose last element is a sentinel that must stay as it was, so a
! wrong element size or count fails too.  Exits 1 on a wrong value.
program fnbi
  implicit none
  include 'mpp/shmem.fh'
  integer, parameter :: n = 6
  integer :: ia(n+1), i4(n+1), i32(n+1), mem(n+1)
  real :: ra(n+1)
  double precision :: da(n+1)
  complex :: ca(n+1)
  logical :: la(n+1)
  character(len=n+1) :: sa
  integer(kind=8) :: i8(n+1), i64(n+1), i128(n+1)
  integer(kind=2) :: h(2*n+1)
  common /cnbi/ i8, i64, i128, da, ca, ia, i4, i32, mem, ra, la
  save sa, h
  ! Private sources and get buffers, n+1 long like the targets.
  integer :: si(n+1), gi(n+1)
  real :: sr(n+1), gr(n+1)
  double precision :: sd(n+1), gd(n+1)
  complex :: sc(n+1), gc(n+1)
  logical :: sl(n+1), gl(n+1)
  character(len=n+1) :: ss, gs
  integer(kind=8) :: s8(n+1), g8(n+1)
  integer(kind=2) :: sh(2*n+1), gh(2*n+1)
  integer :: me, np, right, left, far, k
  integer :: shmem_my_pe, shmem_n_pes

  call shmem_init()
  me = shmem_my_pe()
  np = shmem_n_pes()
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)
  far = mod(left + np - 1, np)   ! what the left neighbour received
  call check_constants()

  ! Sources hold this PE's values (element n+1 too: an overrun would copy it).
  do k = 1, n + 1
    si(k) = ival(me, k)
    sr(k) = rval(me, k)
    sd(k) = dval(me, k)
    sc(k) = cval(me, k)
    sl(k) = lval(me, k)
    s8(k) = i8val(me, k)
  end do
  ss = cstr(me)
  ! Targets hold sentinels everywhere.
  ia = -7; i4 = -7; i32 = -7; mem = -7; ra = -7; da = -7; ca = (-7.0, -7.0)
  la = .true.; sa = repeat('#', n + 1); i8 = -7; i64 = -7; i128 = -7
  call shmem_barrier_all()

  call shmem_integer_put_nbi(ia, si, n, right)
  call shmem_real_put_nbi(ra, sr, n, right)
  call shmem_double_put_nbi(da, sd, n, right)
  call shmem_complex_put_nbi(ca, sc, n, right)
  call shmem_logical_put_nbi(la, sl, n, right)
  call shmem_character_put_nbi(sa, ss, n, right)
  call shmem_put4_nbi(i4, si, n, right)
  call shmem_put32_nbi(i32, si, n, right)
  call shmem_putmem_nbi(mem, si, 4 * n, right)
  call shmem_put8_nbi(i8, s8, n, right)
  call shmem_put64_nbi(i64, s8, n, right)
  call shmem_put128_nbi(i128, s8, n / 2, right)
  call shmem_quiet()
  call shmem_barrier_all()

  do k = 1, n
    if (ia(k) /= ival(left, k) .or. i4(k) /= ival(left, k)) call fail(1)
    if (i32(k) /= ival(left, k) .or. mem(k) /= ival(left, k)) call fail(2)
    if (ra(k) /= rval(left, k) .or. da(k) /= dval(left, k)) call fail(3)
    if (ca(k) /= cval(left, k) .or. (la(k) .neqv. lval(left, k))) call fail(4)
    if (i8(k) /= i8val(left, k) .or. i64(k) /= i8val(left, k)) call fail(5)
    if (i128(k) /= i8val(left, k)) call fail(6)
  end do
  if (sa(1:n) /= cstr(left)) call fail(7)
  if (ia(n+1) /= -7 .or. i4(n+1) /= -7 .or. i32(n+1) /= -7 .or. mem(n+1) /= -7) call fail(8)
  if (ra(n+1) /= -7 .or. da(n+1) /= -7 .or. ca(n+1) /= (-7.0, -7.0)) call fail(9)
  if (.not. la(n+1) .or. sa(n+1:n+1) /= '#') call fail(10)
  if (i8(n+1) /= -7 .or. i64(n+1) /= -7 .or. i128(n+1) /= -7) call fail(11)

  ! Gets from the left neighbour, which holds its own left neighbour's values.
  call reset_buffers()
  call shmem_integer_get_nbi(gi, ia, n, left)
  call shmem_real_get_nbi(gr, ra, n, left)
  call shmem_double_get_nbi(gd, da, n, left)
  call shmem_complex_get_nbi(gc, ca, n, left)
  call shmem_logical_get_nbi(gl, la, n, left)
  call shmem_character_get_nbi(gs, sa, n, left)
  call shmem_get8_nbi(g8, i8, n, left)
  call shmem_quiet()
  do k = 1, n
    if (gi(k) /= ival(far, k) .or. gr(k) /= rval(far, k)) call fail(12)
    if (gd(k) /= dval(far, k) .or. gc(k) /= cval(far, k)) call fail(13)
    if ((gl(k) .neqv. lval(far, k)) .or. g8(k) /= i8val(far, k)) call fail(14)
  end do
  if (gs(1:n) /= cstr(far)) call fail(15)
  call check_get_sentinels(16)

  call reset_buffers()
  call shmem_get4_nbi(gi, i4, n, left)
  call shmem_get64_nbi(g8, i64, n, left)
  call shmem_quiet()
  call expect_sized(17)
  call reset_buffers()
  call shmem_get32_nbi(gi, i32, n, left)
  call shmem_get128_nbi(g8, i128, n / 2, left)
  call shmem_quiet()
  call expect_sized(18)
  call reset_buffers()
  call shmem_getmem_nbi(gi, mem, 4 * n, left)
  call shmem_get8_nbi(g8, i8, n, left)
  call shmem_quiet()
  call expect_sized(19)
  call shmem_barrier_all()

  call sixteen_bit()
  call shmem_barrier_all()
  call shmem_finalize()

contains

  integer function ival(pe, k)
    integer, intent(in) :: pe, k
    ival = pe * 100 + k
  end function

  real function rval(pe, k)
    integer, intent(in) :: pe, k
    rval = pe + 0.25 * k
  end function

  ! Not representable as a REAL: a 4-byte transfer would lose it.
  double precision function dval(pe, k)
    integer, intent(in) :: pe, k
    dval = pe + k / 1024d0 + 2d0**(-40)
  end function

  complex function cval(pe, k)
    integer, intent(in) :: pe, k
    cval = cmplx(real(pe), real(-k))
  end function

  logical function lval(pe, k)
    integer, intent(in) :: pe, k
    lval = mod(pe + k, 2) == 0
  end function

  integer(kind=8) function i8val(pe, k)
    integer, intent(in) :: pe, k
    i8val = int(pe, 8) * 4294967296_8 + k
  end function

  character(len=n) function cstr(pe)
    integer, intent(in) :: pe
    cstr = char(ichar('A') + pe) // 'bcdef'
  end function

  subroutine reset_buffers()
    gi = -9; gr = -9; gd = -9; gc = (-9.0, -9.0); gl = .true.; gs = repeat('%', n + 1)
    g8 = -9
  end subroutine

  subroutine check_get_sentinels(code)
    integer, intent(in) :: code
    if (gi(n+1) /= -9 .or. gr(n+1) /= -9 .or. gd(n+1) /= -9) call fail(code)
    if (gc(n+1) /= (-9.0, -9.0) .or. .not. gl(n+1)) call fail(code)
    if (gs(n+1:n+1) /= '%' .or. g8(n+1) /= -9) call fail(code)
  end subroutine

  ! After a sized get into gi (4-byte words) and g8 (8-byte words).
  subroutine expect_sized(code)
    integer, intent(in) :: code
    integer :: j
    do j = 1, n
      if (gi(j) /= ival(far, j) .or. g8(j) /= i8val(far, j)) call fail(code)
    end do
    if (gi(n+1) /= -9 .or. g8(n+1) /= -9) call fail(code)
  end subroutine

  ! Cray's 16-bit transfers (INTEGER*2): contiguous, then every other
  ! element on the target (IPUT16) and on the source (IGET16).
  subroutine sixteen_bit()
    integer :: j
    do j = 1, 2 * n + 1
      sh(j) = int(-(me * 1000 + j), 2)
    end do
    h = -7_2
    call shmem_barrier_all()
    call shmem_put16(h, sh, n, right)
    call shmem_barrier_all()
    do j = 1, n
      if (h(j) /= -(left * 1000 + j)) call fail(20)
    end do
    if (h(n+1) /= -7) call fail(21)
    gh = -9_2
    call shmem_get16(gh, h, n, left)
    do j = 1, n
      if (gh(j) /= -(far * 1000 + j)) call fail(22)
    end do
    if (gh(n+1) /= -9) call fail(23)
    call shmem_barrier_all()
    h = -7_2
    call shmem_barrier_all()
    call shmem_iput16(h, sh, 2, 1, n, right)
    call shmem_barrier_all()
    do j = 1, n
      if (h(2*j-1) /= -(left * 1000 + j) .or. h(2*j) /= -7) call fail(24)
    end do
    gh = -9_2
    call shmem_iget16(gh, h, 1, 2, n, left)
    do j = 1, n
      if (gh(j) /= -(far * 1000 + j)) call fail(25)
    end do
    if (gh(n+1) /= -9) call fail(26)
  end subroutine

end program fnbi

! The 1.4 constants as a free-form program sees them through 'mpp/shmem.fh'.
subroutine check_constants()
  implicit none
  include 'mpp/shmem.fh'
  integer :: major, minor
  character(len=SHMEM_MAX_NAME_LEN) :: name
  if (SHMEM_MAJOR_VERSION /= 1 .or. SHMEM_MINOR_VERSION /= 4) call fail(30)
  call shmem_info_get_version(major, minor)
  if (major /= SHMEM_MAJOR_VERSION .or. minor /= SHMEM_MINOR_VERSION) call fail(31)
  if (SHMEM_MAX_NAME_LEN /= 256 .or. len(SHMEM_VENDOR_STRING) /= SHMEM_MAX_NAME_LEN) call fail(32)
  name = repeat('x', SHMEM_MAX_NAME_LEN)
  call shmem_info_get_name(name)
  if (name /= SHMEM_VENDOR_STRING .or. name(1:9) /= 'mpishmem ') call fail(33)
  if (SHMEM_SYNC_VALUE /= -1 .or. SHMEM_REDUCE_MIN_WRKDATA_SIZE < 1) call fail(34)
  if (min(SHMEM_BARRIER_SYNC_SIZE, SHMEM_BCAST_SYNC_SIZE, SHMEM_REDUCE_SYNC_SIZE, &
          SHMEM_COLLECT_SYNC_SIZE, SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_ALLTOALLS_SYNC_SIZE) &
      < 1 .or. SHMEM_SYNC_SIZE < SHMEM_ALLTOALLS_SYNC_SIZE) call fail(35)
  if (SHMEM_CMP_EQ == SHMEM_CMP_NE .or. SHMEM_CMP_LT == SHMEM_CMP_GE) call fail(36)
end subroutine
