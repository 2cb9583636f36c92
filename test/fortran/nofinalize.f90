! An OpenSHMEM 1.4 Fortran program that never calls SHMEM_FINALIZE:
! SHMEM_INIT, a put to the right neighbour, a barrier, then END, whose
! exit(0) from the gfortran runtime must finalize the library on every
! PE and end the job with status 0 (issue 20).  A wrong value stops 1.
program fnofin
  implicit none
  include 'shmem.fh'
  integer :: cell, me, np
  integer :: shmem_my_pe, shmem_n_pes
  save cell
  call shmem_init()
  me = shmem_my_pe()
  np = shmem_n_pes()
  cell = -1
  call shmem_barrier_all()
  call shmem_integer_put(cell, me, 1, mod(me + 1, np))
  call shmem_barrier_all()
  if (cell /= mod(me + np - 1, np)) then
    print *, 'PE', me, 'got', cell
    stop 1
  end if
  print '(a,i0,a)', 'PE ', me, ': ok'
end program fnofin
