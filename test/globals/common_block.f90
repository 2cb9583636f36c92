! A Fortran COMMON block, SAVE array and initialised COMMON data: the kind
! of symmetric data old SHMEM codes keep.  C (globals_fortran.c) asks for
! their addresses and works on them with shmem calls.
block data common_init
  integer(8) :: inited(4)
  common /initblk/ inited
  data inited /101_8, 102_8, 103_8, 104_8/
end block data common_init

subroutine common_addrs(blk, cnt, inited, saved) bind(C, name='common_addrs')
  use iso_c_binding
  implicit none
  type(c_ptr), intent(out) :: blk, cnt, inited, saved
  integer(8), target :: a(64), counter
  integer(8), target :: b(4)
  integer(8), target, save :: s(8)
  common /fblk/ a, counter
  common /initblk/ b
  blk = c_loc(a)
  cnt = c_loc(counter)
  inited = c_loc(b)
  saved = c_loc(s)
end subroutine common_addrs

! Fortran code reading the block after the C side's shmem traffic.
function common_sum() bind(C, name='common_sum') result(t)
  use iso_c_binding
  implicit none
  integer(8) :: t
  integer(8) :: a(64), counter
  common /fblk/ a, counter
  t = sum(a) + counter
end function common_sum
