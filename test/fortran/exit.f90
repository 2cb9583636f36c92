! SHMEM_GLOBAL_EXIT from Fortran.  `fortran_exit STATUS PE`: PE number PE
! (-1: the last) calls SHMEM_GLOBAL_EXIT(STATUS) while every other PE is
! blocked in SHMEM_BARRIER_ALL; exit.sh checks that the job ends with
! STATUS.  A call that returns ends with 3, a PE not stopped prints so.
program fexit
  implicit none
  include 'shmem.fh'
  integer :: status, who, me
  integer :: shmem_my_pe, shmem_n_pes
  character(len=16) :: arg
  call get_command_argument(1, arg)
  read (arg, *) status
  call get_command_argument(2, arg)
  read (arg, *) who
  call shmem_init()
  me = shmem_my_pe()
  if (who < 0) who = shmem_n_pes() - 1
  call shmem_barrier_all()
  if (me == who) then
    call shmem_global_exit(status)
    print *, 'SHMEM_GLOBAL_EXIT returned'
    stop 3
  end if
  call shmem_barrier_all()
  print *, 'PE', me, 'was not stopped'
  call shmem_finalize()
end program fexit
