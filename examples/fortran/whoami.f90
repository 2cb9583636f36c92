! The 1.0 draft's Fortran example (Listing 11, "Hello World"), rewritten
! to check itself: every PE names its host and its place among the PEs,
! and PE 0 checks that each PE reported exactly once.
! mpif90 -I PREFIX/include whoami.f90 -L PREFIX/lib -lmpishmem
program whoami
  include 'mpp/shmem.fh'
  integer npes, me, k, got, status, hostnm
  character*32 h
  integer seen(1024)
  save seen

  call start_pes(0)
  npes = num_pes()
  me = my_pe()
  status = hostnm(h)
  print *, trim(h), ' I am ', me, ' of ', npes

  ! Each PE marks its own slot on PE 0: every slot must end up 1.
  seen = 0
  call shmem_barrier_all()
  call shmem_int4_add(seen(me + 1), 1, 0)
  call shmem_barrier_all()
  if (me == 0) then
    got = 0
    do k = 1, npes
      if (seen(k) /= 1) stop 1
      got = got + seen(k)
    end do
    if (got /= npes .or. npes > 1024) stop 1
  end if
  if (status /= 0 .or. me < 0 .or. me >= npes) stop 1
end program whoami
