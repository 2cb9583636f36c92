! Fortran puts and gets, free form: every typed, sized and strided
! routine, into COMMON blocks and SAVE variables.  Each PE writes to its
! right neighbour and reads from its left one; exits 1 on a wrong value.
program frma
  implicit none
  include 'shmem.fh'
  integer, parameter :: n = 8
  integer :: ia(n), ib(n)
  real :: ra(n), rb(n)
  double precision :: da(n), db(n)
  complex :: ca(n), cb(n)
  logical :: la(n), lb(n)
  character(len=n) :: sa, sb
  integer(kind=4) :: i4(n)
  integer(kind=8) :: i8(n)
  integer(kind=8) :: q(2*n)
  integer :: bytes(n)
  common /cint/ ia, ib
  common /creal/ ra, rb, da, db, ca, cb
  save la, lb, sa, sb, i4, i8, q, bytes
  integer :: src_i(n), got_i(n), strided(2*n)
  real :: src_r(n)
  double precision :: src_d(n)
  complex :: src_c(n)
  logical :: src_l(n)
  character(len=n) :: src_s
  integer(kind=8) :: src_8(2*n)
  integer :: me, np, right, left, k
  integer :: my_pe, num_pes

  call start_pes(0)
  me = my_pe()
  np = num_pes()
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)

  do k = 1, n
    src_i(k) = me * 100 + k
    src_r(k) = real(me) + 0.25 * k
    src_d(k) = dble(me) + 0.125d0 * k
    src_c(k) = cmplx(real(me), real(k))
    src_l(k) = mod(me + k, 2) == 0
  end do
  do k = 1, 2*n
    src_8(k) = int(me, 8) * 1000000000_8 + k
  end do
  src_s = 'abcdefgh'
  src_s(1:1) = char(ichar('A') + me)
  ia = -1; ra = -1; da = -1; ca = (-1.0, -1.0); la = .false.; sa = '........'
  i4 = -1; i8 = -1; q = -1; bytes = -1
  call shmem_barrier_all()

  ! Typed puts to the right neighbour.
  call shmem_integer_put(ia, src_i, n, right)
  call shmem_real_put(ra, src_r, n, right)
  call shmem_double_put(da, src_d, n, right)
  call shmem_complex_put(ca, src_c, n, right)
  call shmem_logical_put(la, src_l, n, right)
  call shmem_character_put(sa, src_s, n, right)
  ! Sized puts: 4 and 32 move 4-byte words, 8, 64 and SHMEM_PUT 8-byte
  ! words, 128 16-byte ones, PUTMEM bytes.
  call shmem_put4(i4, src_i, n/2, right)
  call shmem_put32(i4(n/2+1), src_i(n/2+1), n/2, right)
  call shmem_put8(i8, src_8, 2, right)
  call shmem_put64(i8(3), src_8(3), 2, right)
  call shmem_put(i8(5), src_8(5), 2, right)
  call shmem_put128(i8(7), src_8(7), 1, right)
  call shmem_putmem(bytes, src_i, 4 * n, right)
  call shmem_barrier_all()

  call expect_i(ia, left * 100, 1)
  do k = 1, n
    if (ra(k) /= real(left) + 0.25 * k) call fail(2)
    if (da(k) /= dble(left) + 0.125d0 * k) call fail(3)
    if (ca(k) /= cmplx(real(left), real(k))) call fail(4)
    if (la(k) .neqv. (mod(left + k, 2) == 0)) call fail(5)
    if (i8(k) /= int(left, 8) * 1000000000_8 + k) call fail(6)
  end do
  if (sa /= char(ichar('A') + left) // 'bcdefgh') call fail(7)
  call expect_i(i4, left * 100, 8)
  call expect_i(bytes, left * 100, 9)

  ! Gets from the left neighbour, into private buffers.
  call shmem_integer_get(got_i, ia, n, left)
  call expect_i(got_i, mod(left + np - 1, np) * 100, 10)
  got_i = 0
  call shmem_get4(got_i, i4, n, left)
  call expect_i(got_i, mod(left + np - 1, np) * 100, 11)
  got_i = 0
  call shmem_get32(got_i, i4, n, left)
  call expect_i(got_i, mod(left + np - 1, np) * 100, 12)
  got_i = 0
  call shmem_getmem(got_i, bytes, 4 * n, left)
  call expect_i(got_i, mod(left + np - 1, np) * 100, 13)
  src_r = 0
  call shmem_real_get(src_r, ra, n, left)
  src_d = 0
  call shmem_double_get(src_d, da, n, left)
  src_c = 0
  call shmem_complex_get(src_c, ca, n, left)
  src_l = .false.
  call shmem_logical_get(src_l, la, n, left)
  src_s = ' '
  call shmem_character_get(src_s, sa, n, left)
  do k = 1, n
    if (src_r(k) /= real(mod(left + np - 1, np)) + 0.25 * k) call fail(14)
    if (src_d(k) /= dble(mod(left + np - 1, np)) + 0.125d0 * k) call fail(15)
    if (src_c(k) /= cmplx(real(mod(left + np - 1, np)), real(k))) call fail(16)
    if (src_l(k) .neqv. (mod(mod(left + np - 1, np) + k, 2) == 0)) call fail(17)
  end do
  if (src_s(1:1) /= char(ichar('A') + mod(left + np - 1, np))) call fail(18)
  src_8 = 0
  call shmem_get8(src_8, i8, 2, left)
  call shmem_get64(src_8(3), i8(3), 2, left)
  call shmem_get(src_8(5), i8(5), 2, left)
  call shmem_get128(src_8(7), i8(7), 1, left)
  do k = 1, n
    if (src_8(k) /= int(mod(left + np - 1, np), 8) * 1000000000_8 + k) call fail(19)
  end do
  call shmem_barrier_all()

  ! Strided: every other element of a 2n array, and back.
  ib = -1
  q = -1
  do k = 1, 2*n
    src_8(k) = src_8_val(me, k)
  end do
  strided = 0
  do k = 1, n
    strided(2*k-1) = me * 10 + k
  end do
  call shmem_barrier_all()
  call shmem_integer_iput(ib, strided, 1, 2, n, right)
  call shmem_iput4(i4, strided, 1, 2, n, right)
  call shmem_iput8(q, src_8, 2, 1, n/2, right)
  call shmem_iput64(q(n+1), src_8, 2, 1, n/2, right)
  call shmem_barrier_all()
  do k = 1, n
    if (ib(k) /= left * 10 + k) call fail(20)
    if (i4(k) /= left * 10 + k) call fail(21)
  end do
  do k = 1, n/2
    if (q(2*k-1) /= src_8_val(left, k)) call fail(22)
    if (q(n+2*k-1) /= src_8_val(left, k)) call fail(23)
    if (q(2*k) /= -1) call fail(24)
  end do
  strided = 0
  call shmem_integer_iget(strided, ib, 2, 1, n, left)
  do k = 1, n
    if (strided(2*k-1) /= mod(left + np - 1, np) * 10 + k) call fail(25)
    if (strided(2*k) /= 0) call fail(26)
  end do
  strided = 0
  call shmem_iget4(strided, i4, 2, 1, n, left)
  if (strided(2*n-1) /= mod(left + np - 1, np) * 10 + n) call fail(27)
  strided = 0
  call shmem_iget32(strided, i4, 1, 2, n/2, left)
  if (strided(n/2) /= mod(left + np - 1, np) * 10 + n - 1) call fail(28)
  call typed_strided(me, right, left, np)
  call shmem_barrier_all()

contains

  integer(kind=8) function src_8_val(pe, k)
    integer, intent(in) :: pe, k
    src_8_val = int(pe, 8) * 1000000000_8 + k
  end function

  subroutine expect_i(v, base, code)
    integer, intent(in) :: v(n), base, code
    integer :: j
    do j = 1, n
      if (v(j) /= base + j) call fail(code)
    end do
  end subroutine

end program frma

! The typed strided routines of the other types, and the 8/64/128 gets.
subroutine typed_strided(me, right, left, np)
  implicit none
  include 'shmem.fh'
  integer, intent(in) :: me, right, left, np
  real, save :: r(4)
  double precision, save :: d(4)
  complex, save :: c(4)
  logical, save :: l(4)
  integer(kind=8), save :: w(8)
  real :: rs(8)
  double precision :: ds(8)
  complex :: cs(8)
  logical :: ls(8)
  integer(kind=8) :: ws(16)
  integer :: k, from
  do k = 1, 8
    rs(k) = me + k
    ds(k) = me * 2 + k
    cs(k) = cmplx(real(me), real(-k))
    ls(k) = mod(k, 2) == 1
  end do
  do k = 1, 16
    ws(k) = me * 100 + k
  end do
  call shmem_barrier_all()
  call shmem_real_iput(r, rs, 1, 2, 4, right)
  call shmem_double_iput(d, ds, 1, 2, 4, right)
  call shmem_complex_iput(c, cs, 1, 2, 4, right)
  call shmem_logical_iput(l, ls, 1, 2, 4, right)
  call shmem_iput32(r, rs, 1, 2, 4, right)
  call shmem_iput128(w, ws, 1, 2, 4, right)
  call shmem_barrier_all()
  do k = 1, 4
    if (r(k) /= left + 2*k - 1) call fail(40)
    if (d(k) /= left * 2 + 2*k - 1) call fail(41)
    if (c(k) /= cmplx(real(left), real(1 - 2*k))) call fail(42)
    if (.not. l(k)) call fail(43)
    if (w(2*k-1) /= left * 100 + 4*k - 3) call fail(44)
    if (w(2*k) /= left * 100 + 4*k - 2) call fail(45)
  end do
  from = mod(left + np - 1, np)
  rs = 0; ds = 0; cs = 0; ls = .false.; ws = 0
  call shmem_real_iget(rs, r, 2, 1, 4, left)
  call shmem_double_iget(ds, d, 2, 1, 4, left)
  call shmem_complex_iget(cs, c, 2, 1, 4, left)
  call shmem_logical_iget(ls, l, 2, 1, 4, left)
  call shmem_iget64(ws, w, 2, 1, 4, left)
  call shmem_iget8(ws(9), w, 1, 2, 4, left)
  do k = 1, 4
    if (rs(2*k-1) /= from + 2*k - 1 .or. rs(2*k) /= 0) call fail(46)
    if (ds(2*k-1) /= from * 2 + 2*k - 1) call fail(47)
    if (cs(2*k-1) /= cmplx(real(from), real(1 - 2*k))) call fail(48)
    if (.not. ls(2*k-1) .or. ls(2*k)) call fail(49)
  end do
  if (ws(1) /= from * 100 + 1 .or. ws(3) /= from * 100 + 2) call fail(50)
  if (ws(9) /= from * 100 + 1 .or. ws(10) /= from * 100 + 5) call fail(51)
  ws = 0
  call shmem_iget128(ws, w, 2, 1, 2, left)
  if (ws(1) /= from * 100 + 1 .or. ws(2) /= from * 100 + 2) call fail(52)
  if (ws(5) /= from * 100 + 5 .or. ws(3) /= 0) call fail(53)
end subroutine
